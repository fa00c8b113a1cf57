import { count } from '../../lib/format.js';
import type { Stores } from '../../state/stores.js';

/**
 * Keep what is selected, or the learnings `ids` when given (a Worth a look entry); the toast
 * offers Undo for exactly what changed.
 */
export async function keepSelected(stores: Stores, ids?: string[]): Promise<void> {
  const learnings = stores.learnings.getState();
  const asked = ids ? ids.length : learnings.selectionCount();
  if (asked === 0) return;
  const changed = await learnings.keep(stores.desk.getState().actor(), ids);
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

/** Reject what is selected, or the learnings `ids` when given; the toast offers Undo. */
export async function rejectSelected(stores: Stores, reason: string, ids?: string[]): Promise<void> {
  const changed = await stores.learnings.getState().reject(stores.desk.getState().actor(), reason, ids);
  if (!changed) return;
  stores.ui
    .getState()
    .showToast(`Rejected ${count(changed.length)} ${changed.length === 1 ? 'learning' : 'learnings'}.`, changed);
}
