import { useEffect } from 'react';
import { shortcutKeys } from '../lib/shortcuts.js';
import { useSlice, useStores } from '../state/context.js';
import { undoToast } from './learnings/actions.js';

/** The key that undoes, as the sheet shows it: the toast names the same key the handler hears. */
const UNDO_KEY = shortcutKeys('undo');

/** The last decision, with Undo (button or key), for at least ten seconds (fifteen by default). */
export function UndoToast() {
  const stores = useStores();
  const { ui } = stores;
  const toast = useSlice(ui, (s) => s.toast);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => ui.getState().dismissToast(toast.id), Math.max(0, toast.until - Date.now()));
    return () => clearTimeout(timer);
  }, [toast, ui]);

  if (!toast) return null;

  return (
    <div className="toast" role="status" aria-live="polite">
      <span>{toast.message}</span>
      {toast.undoError && (
        <span role="alert" className="error-text">
          {toast.undoError}
        </span>
      )}
      {toast.undoIds && toast.undoIds.length > 0 && (
        <button type="button" onClick={() => undoToast(stores)} disabled={toast.undoing} aria-keyshortcuts={UNDO_KEY}>
          Undo <kbd aria-hidden="true">{UNDO_KEY}</kbd>
        </button>
      )}
      <button type="button" className="link" aria-label="Dismiss" onClick={() => ui.getState().dismissToast(toast.id)}>
        ×
      </button>
    </div>
  );
}
