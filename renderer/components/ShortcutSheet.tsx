import { SHORTCUTS } from '../lib/shortcuts.js';
import { Dialog } from './Dialog.js';
import { Keys } from './Keys.js';

export function ShortcutSheet({ onClose }: { onClose: () => void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} wide>
      <p className="muted">Shortcuts are ignored while you type in a field, except those that say where they work.</p>
      <table className="shortcuts">
        <thead>
          <tr>
            <th scope="col">Keys</th>
            <th scope="col">Does</th>
          </tr>
        </thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.id} data-shortcut={s.id}>
              <td>
                <Keys shortcut={s} />
              </td>
              <td>{s.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
