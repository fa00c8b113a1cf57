/**
 * Every keyboard shortcut, in one list: the handlers (`Keyboard`, the reply form) find the
 * shortcut a key press is through `matchShortcut`, and the shortcut sheet renders this list, so
 * a key cannot do something the sheet does not show.
 */
export type ShortcutId =
  | 'down'
  | 'up'
  | 'toggle'
  | 'range'
  | 'reject'
  | 'keep'
  | 'open'
  | 'search'
  | 'views'
  | 'help'
  | 'escape'
  | 'undo'
  | 'leave-field'
  | 'send'
  | 'open-factory'
  | 'worth-next'
  | 'worth-previous'
  | 'worth-reject'
  | 'worth-keep'
  | 'worth-dismiss';

/**
 * Where a shortcut is heard: `window` — anywhere, but never while typing in a field; `field` —
 * in any text field (answer, name, search, reason…); `answer` — in the reply's answer box;
 * `menu` — the desktop app's menu (handled by the main process).
 */
export type ShortcutScope = 'window' | 'field' | 'answer' | 'menu';

export interface Shortcut {
  id: ShortcutId;
  /** The keys as the sheet shows them. */
  keys: string[];
  label: string;
  scope: ShortcutScope;
  /** The `KeyboardEvent.key` values that trigger it. */
  match: string[];
  /** True when Ctrl (or ⌘ on macOS) must be held; other shortcuts refuse Ctrl, ⌘ and Alt. */
  mod?: boolean;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'down', keys: ['j'], label: 'Next row or request', scope: 'window', match: ['j'] },
  { id: 'up', keys: ['k'], label: 'Previous row or request', scope: 'window', match: ['k'] },
  { id: 'toggle', keys: ['x'], label: 'Select or unselect the row under the cursor', scope: 'window', match: ['x'] },
  {
    id: 'range',
    keys: ['Shift', 'x'],
    label: 'Select every row from the last selected one to the cursor',
    scope: 'window',
    match: ['X'],
  },
  {
    id: 'reject',
    keys: ['r'],
    label: 'Reject the selected learnings, or the row under the cursor (asks to confirm; it is not left selected)',
    scope: 'window',
    match: ['r'],
  },
  {
    id: 'keep',
    keys: ['e'],
    label: 'Keep the selected learnings, or the row under the cursor (provisional or lapsed; it is not left selected)',
    scope: 'window',
    match: ['e'],
  },
  {
    id: 'open',
    keys: ['Enter'],
    label: 'Open the row under the cursor (Learnings); go to the answer box (Needs you)',
    scope: 'window',
    match: ['Enter'],
  },
  { id: 'search', keys: ['/'], label: 'Search learnings', scope: 'window', match: ['/'] },
  {
    id: 'views',
    keys: ['1', '2', '3', '4'],
    label: 'Needs you, Learnings, Runs & chains, Activity',
    scope: 'window',
    match: ['1', '2', '3', '4'],
  },
  { id: 'help', keys: ['?'], label: 'Show this list of shortcuts', scope: 'window', match: ['?'] },
  {
    id: 'escape',
    keys: ['Esc'],
    label: 'Close the dialog or panel; clear the selection',
    scope: 'window',
    match: ['Escape'],
  },
  {
    id: 'undo',
    keys: ['u'],
    label: 'Undo the decision the notice at the bottom offers to undo',
    scope: 'window',
    match: ['u'],
  },
  {
    id: 'leave-field',
    keys: ['Esc'],
    label: 'In a text field: leave it, back to the list or dialog it is in (a second Esc then closes)',
    scope: 'field',
    match: ['Escape'],
  },
  {
    id: 'send',
    keys: ['Ctrl/⌘', 'Enter'],
    label: 'In the answer box: send the reply',
    scope: 'answer',
    match: ['Enter'],
    mod: true,
  },
  {
    id: 'open-factory',
    keys: ['Ctrl/⌘', 'O'],
    label: 'Open Factory… (desktop app menu)',
    scope: 'menu',
    match: ['o', 'O'],
    mod: true,
  },
  // Worth a look (Needs you): Shift and the list's own letter acts on the section's entry, so the
  // keys of the requests (j, k, Enter) and of the Learnings list (r, e) keep their meaning there.
  { id: 'worth-next', keys: ['w'], label: 'Worth a look (Needs you): next entry', scope: 'window', match: ['w'] },
  { id: 'worth-previous', keys: ['Shift', 'w'], label: 'Worth a look (Needs you): previous entry', scope: 'window', match: ['W'] },
  {
    id: 'worth-reject',
    keys: ['Shift', 'r'],
    label: 'Worth a look (Needs you): reject the entry under the cursor (asks to confirm)',
    scope: 'window',
    match: ['R'],
  },
  { id: 'worth-keep', keys: ['Shift', 'e'], label: 'Worth a look (Needs you): keep the entry under the cursor', scope: 'window', match: ['E'] },
  {
    id: 'worth-dismiss',
    keys: ['Shift', 'd'],
    label: 'Worth a look (Needs you): dismiss the entry until its evidence changes',
    scope: 'window',
    match: ['D'],
  },
];

/**
 * The keys of a shortcut as one string ("u", "Shift+r"), for `aria-keyshortcuts` and hints: a
 * button names the key its handler hears, read from the same list.
 */
export function shortcutKeys(id: ShortcutId): string {
  return SHORTCUTS.find((s) => s.id === id)!.keys.join('+');
}

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** The shortcut of `scope` that this key press is, if any. */
export function matchShortcut(event: KeyPress, scope: ShortcutScope): Shortcut | undefined {
  const mod = event.ctrlKey || event.metaKey;
  if (event.altKey) return undefined;
  return SHORTCUTS.find((s) => s.scope === scope && Boolean(s.mod) === mod && s.match.includes(event.key));
}

/** True when a key press belongs to whatever the operator is typing into. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
  }
  return false;
}
