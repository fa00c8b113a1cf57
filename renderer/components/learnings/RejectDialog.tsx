import { useState } from 'react';
import { actionPhrase } from '../../lib/phrases.js';
import { useSlice, useStores } from '../../state/context.js';
import { Dialog } from '../Dialog.js';
import { rejectSelected } from './actions.js';
import { useSelection } from './useSelection.js';

/** Confirms a rejection, stating exactly how many and which, with an optional reason. */
export function RejectDialog() {
  const stores = useStores();
  const { learnings, ui } = stores;
  const { allMatching, filter, busy, underCursor, n } = useSelection(learnings);
  // With nothing selected the dialog acts on the cursor row: it shows which one.
  const aimed = useSlice(learnings, (s) => {
    const row = s.rowAt(s.cursor);
    return row && row.id === s.cursorAim ? row : undefined;
  });
  const [reason, setReason] = useState('');
  const close = () => {
    ui.getState().openDialog(null);
    learnings.getState().clearAim();
  };

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    await rejectSelected(stores, reason);
    if (!learnings.getState().actionError) close();
  }

  return (
    <Dialog title={`${actionPhrase('Reject', n, allMatching, filter, underCursor)}?`} onClose={close} initialFocus="input">
      <form onSubmit={(e) => void submit(e)}>
        {underCursor && aimed && <blockquote className="prewrap">{aimed.text}</blockquote>}
        <p>
          Rejected learnings are no longer given to runs, and their agent cannot propose them again. You can undo this for a
          while after.
        </p>
        <label htmlFor="reject-reason">Reason (optional)</label>
        <input id="reject-reason" className="wide-input" value={reason} onChange={(e) => setReason(e.target.value)} autoComplete="off" />
        {learnings.getState().actionError && (
          <p role="alert" className="error-text">
            {learnings.getState().actionError}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={busy || n === 0}>
            Reject {n.toLocaleString('en-US')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
