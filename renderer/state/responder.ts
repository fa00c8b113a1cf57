/**
 * Who the operator acts as, remembered on this computer (renderer local storage). One name for
 * replies, resolves and decisions alike (docs/rules.md#help-requests-and-replies): with two, a
 * reject was recorded as the OS account while replies were signed by a person's name.
 */
export const RESPONDER_KEY = 'layover.responder';

export function storedResponder(): string {
  try {
    return window.localStorage.getItem(RESPONDER_KEY)?.trim() ?? '';
  } catch {
    return '';
  }
}

/** Remembers `name`; an empty name forgets it, so the OS account is used again. */
export function rememberResponder(name: string): void {
  const trimmed = name.trim();
  try {
    if (trimmed) window.localStorage.setItem(RESPONDER_KEY, trimmed);
    else window.localStorage.removeItem(RESPONDER_KEY);
  } catch {
    // Storage may be unavailable (private mode): the name then lasts only as long as the window.
  }
}
