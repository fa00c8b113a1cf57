import { useState, type ReactNode } from 'react';
import { actionPhrase } from '../../lib/phrases.js';
import { useSlice, useStores } from '../../state/context.js';
import { useActor } from '../ActingAs.js';
import { Dialog } from '../Dialog.js';
import { rejectSelected, type DecisionScope } from './actions.js';
import { useSelection } from './useSelection.js';

interface Props {
  /** The list's selection, or one learning named by id (the detail's, a Worth a look entry's). */
  scope: DecisionScope;
  /** What the operator should read before deciding, shown first (Worth a look: the text and why it is listed). */
  children?: ReactNode;
  /** Closes the dialog; by default it is the window's open dialog (`ui.dialog`) that closes. */
  onClose?: () => void;
  /** After the rejection went through, before the dialog closes (Worth a look reads its section again). */
  onRejected?: () => Promise<void>;
}

/**
 * Confirms a rejection, stating exactly how many and which, who it is recorded as, with an
 * optional reason. Every rejection of learnings by id or selection asks through this one dialog,
 * so each asks the same and each can record why.
 */
export function RejectDialog({ scope, children, onClose, onRejected }: Props) {
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
    if (onClose) onClose();
    else ui.getState().openDialog(null);
    learnings.getState().clearAim();
  };
  const { allMatching, filter, n, underCursor } =
    scope === 'selection' ? selection : { allMatching: false, filter: {}, n: 1, underCursor: false };

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    await rejectSelected(stores, reason, scope);
    if (learnings.getState().actionError) return;
    await onRejected?.();
    close();
  }

  return (
    <Dialog title={`${actionPhrase('Reject', n, allMatching, filter, underCursor)} as ${actor}?`} onClose={close} initialFocus="input">
      <form onSubmit={(e) => void submit(e)}>
        {children}
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
