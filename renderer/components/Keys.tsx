import { SHORTCUTS, type Shortcut, type ShortcutId } from '../lib/shortcuts.js';

const MODIFIERS = new Set(['Shift', 'Ctrl/⌘']);

/**
 * A shortcut's keys as the sheet shows them: "Shift + r" for a chord, "1 2 3 4" for alternatives.
 * Named by the shortcut (or its id), so a hint cannot name a key the handlers do not hear.
 */
export function Keys({ shortcut, id }: { shortcut?: Shortcut; id?: ShortcutId }) {
  const s = shortcut ?? SHORTCUTS.find((candidate) => candidate.id === id)!;
  return (
    <>
      {s.keys.map((k, i) => (
        <span key={k}>
          {i > 0 && (MODIFIERS.has(s.keys[0]!) ? ' + ' : ' ')}
          <kbd>{k}</kbd>
        </span>
      ))}
    </>
  );
}
