import { useState } from 'react';
import { actionPhrase } from '../../lib/phrases.js';
import { useSlice, useStores } from '../../state/context.js';
import { useActor } from '../ActingAs.js';
import { Dialog } from '../Dialog.js';
import { rejectSelected, type DecisionScope } from './actions.js';
import { useSelection } from './useSelection.js';

/**
 * Confirms a rejection, stating exactly how many and which, who it is recorded as, with an
 * optional reason. `scope`: the list's selection, or the one learning of the detail.
 */
export function RejectDialog({ scope }: { scope: DecisionScope }) {
  const stores = useStores();
  const { learnings, ui } = stores;
  const selection = useSelection(learnings);
  const actor = useActor();
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
  const { allMatching, filter, n, underCursor } =
    scope === 'selection' ? selection : { allMatching: false, filter: {}, n: 1, underCursor: false };

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    await rejectSelected(stores, reason, scope);
    if (!learnings.getState().actionError) close();
  }

  return (
    <Dialog title={`${actionPhrase('Reject', n, allMatching, filter, underCursor)} as ${actor}?`} onClose={close} initialFocus="input">
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
          <button type="submit" className="danger" disabled={selection.busy || n === 0}>
            Reject {n.toLocaleString('en-US')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
