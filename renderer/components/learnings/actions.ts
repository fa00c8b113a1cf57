import { count } from '../../lib/format.js';
import type { LearningOrigin } from '../../../shared/api.js';
import type { Stores } from '../../state/stores.js';

/** Keep what is selected; the toast offers Undo for exactly what changed. */
export async function keepSelected(stores: Stores): Promise<void> {
  const learnings = stores.learnings.getState();
  const asked = learnings.selectionCount();
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

/** The toast after a rejection: how many, and Undo for exactly those. */
function toastRejected(stores: Stores, changed: string[]): void {
  stores.ui
    .getState()
    .showToast(`Rejected ${count(changed.length)} ${changed.length === 1 ? 'learning' : 'learnings'}.`, changed);
}

export async function rejectSelected(stores: Stores, reason: string): Promise<void> {
  const changed = await stores.learnings.getState().reject(stores.desk.getState().actor(), reason);
  if (changed) toastRejected(stores, changed);
}

/**
 * Rejects every learning a run or chain discovered (docs/rules.md#a-persons-decisions), with the
 * same toast and Undo as any rejection; the runs view is read again so what it proposed shows
 * what became of it. Whether it went through: on failure the learnings store holds the error.
 */
export async function rejectOrigin(stores: Stores, origin: LearningOrigin, reason: string): Promise<boolean> {
  const changed = await stores.learnings.getState().rejectOrigin(origin, stores.desk.getState().actor(), reason);
  if (!changed) return false;
  toastRejected(stores, changed);
  await stores.runs.getState().load();
  return true;
}
