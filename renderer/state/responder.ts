/** The responder's name, remembered on this computer (renderer local storage). */
export const RESPONDER_KEY = 'layover.responder';

export function storedResponder(): string {
  try {
    return window.localStorage.getItem(RESPONDER_KEY)?.trim() ?? '';
  } catch {
    return '';
  }
}

export function rememberResponder(name: string): void {
  const trimmed = name.trim();
  if (!trimmed) return;
  try {
    window.localStorage.setItem(RESPONDER_KEY, trimmed);
  } catch {
    // Storage may be unavailable (private mode): the name is then simply not remembered.
  }
}
