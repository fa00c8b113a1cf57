import { count } from '../../lib/format.js';
import type { Stores } from '../../state/stores.js';

/** How long "Undone" stays: it has nothing to act on, so it need not last as long as a decision's toast. */
const UNDONE_MS = 5000;

/** Keep what is selected; the toast offers Undo for exactly what changed. */
export async function keepSelected(stores: Stores): Promise<void> {
  const learnings = stores.learnings.getState();
  const asked = learnings.selectionCount() || (learnings.cursorAim ? 1 : 0);
  if (asked === 0) return;
  const changed = await learnings.keep(stores.desk.getState().actor());
  if (!changed) return;
  const skipped = asked - changed.length;
  stores.ui
    .getState()
    .showToast(
      `Kept ${count(changed.length)} ${changed.length === 1 ? 'learning' : 'learnings'}` +
        (skipped > 0 ? ` (${count(skipped)} were not provisional or lapsed)` : '') +
        '.',
      changed,
    );
}

export async function rejectSelected(stores: Stores, reason: string): Promise<void> {
  const changed = await stores.learnings.getState().reject(stores.desk.getState().actor(), reason);
  if (!changed) return;
  stores.ui
    .getState()
    .showToast(`Rejected ${count(changed.length)} ${changed.length === 1 ? 'learning' : 'learnings'}.`, changed);
}

/**
 * Undo what the toast offers, from its button or `u`: exactly the ids that decision changed.
 * Returns false when the toast offers nothing to undo.
 */
export function undoToast(stores: Stores): boolean {
  const toast = stores.ui.getState().toast;
  if (!toast?.undoIds || toast.undoIds.length === 0) return false;
  if (toast.undoing) return true;
  const ids = toast.undoIds;
  stores.ui.getState().patchToast(toast.id, { undoing: true });
  void stores.learnings
    .getState()
    .undo(ids, stores.desk.getState().actor())
    .then((ok) => {
      if (ok) stores.ui.getState().showToast(`Undone: ${count(ids.length)} restored.`, null, UNDONE_MS);
      else stores.ui.getState().patchToast(toast.id, { undoing: false, undoError: stores.learnings.getState().actionError ?? 'Undo failed' });
    });
  return true;
}
