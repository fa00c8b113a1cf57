import { useEffect, useState } from 'react';
import { useSlice, useStores } from '../state/context.js';
import { undoDecision } from './learnings/actions.js';

/** The last decision, with Undo, for at least ten seconds (fifteen by default). */
export function UndoToast() {
  const stores = useStores();
  const { ui, learnings } = stores;
  const toast = useSlice(ui, (s) => s.toast);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!toast) return;
    setError(null);
    const timer = setTimeout(() => ui.getState().dismissToast(toast.id), Math.max(0, toast.until - Date.now()));
    return () => clearTimeout(timer);
  }, [toast, ui]);

  if (!toast) return null;

  async function undo() {
    if (!toast?.undoIds) return;
    setBusy(true);
    const ok = await undoDecision(stores, toast.undoIds);
    setBusy(false);
    if (!ok) setError(learnings.getState().actionError ?? 'Undo failed');
  }

  return (
    <div className="toast" role="status" aria-live="polite">
      <span>{toast.message}</span>
      {error && (
        <span role="alert" className="error-text">
          {error}
        </span>
      )}
      {toast.undoIds && toast.undoIds.length > 0 && (
        <button type="button" onClick={() => void undo()} disabled={busy}>
          Undo
        </button>
      )}
      <button type="button" className="link" aria-label="Dismiss" onClick={() => ui.getState().dismissToast(toast.id)}>
        ×
      </button>
    </div>
  );
}
