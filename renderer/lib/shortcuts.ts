/** Every keyboard shortcut, in one list: the handler and the shortcut sheet both read it. */
export interface Shortcut {
  id: string;
  keys: string[];
  label: string;
}

export const SHORTCUTS: Shortcut[] = [
  { id: 'down', keys: ['j'], label: 'Next row or request' },
  { id: 'up', keys: ['k'], label: 'Previous row or request' },
  { id: 'toggle', keys: ['x'], label: 'Select or unselect the row under the cursor' },
  { id: 'range', keys: ['Shift', 'x'], label: 'Select every row from the last selected one to the cursor' },
  { id: 'reject', keys: ['r'], label: 'Reject the selected learnings (asks to confirm)' },
  { id: 'keep', keys: ['e'], label: 'Keep the selected learnings (provisional or lapsed)' },
  { id: 'open', keys: ['Enter'], label: 'Open the row under the cursor' },
  { id: 'search', keys: ['/'], label: 'Search learnings' },
  { id: 'views', keys: ['1', '2', '3', '4'], label: 'Needs you, Learnings, Runs & chains, Activity' },
  { id: 'help', keys: ['?'], label: 'Show this list of shortcuts' },
  { id: 'escape', keys: ['Esc'], label: 'Close the dialog or panel; clear the selection' },
];

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
