import type { LearningOrigin, LearningTarget } from '../../../shared/api.js';
import { count, plural } from '../../lib/format.js';
import type { Stores } from '../../state/stores.js';

/**
 * What a decision acts on: the list's selection (named ids or "all matching"), or the one
 * learning the detail shows. The list and the detail act through these same functions, so the
 * wording, the name recorded and the Undo offered cannot differ between them.
 */
export type DecisionScope = 'selection' | { id: string };

function targetOf(stores: Stores, scope: DecisionScope): { target: LearningTarget | null; asked: number } {
  if (scope === 'selection') {
    const learnings = stores.learnings.getState();
    // With nothing selected, the row under the cursor (its "aim"): one learning.
    return { target: learnings.target(), asked: learnings.selectionCount() || (learnings.cursorAim ? 1 : 0) };
  }
  return { target: { ids: [scope.id] }, asked: 1 };
}

/** Keep what `scope` names; the toast says as whom, and offers Undo for exactly what changed. */
export async function keepSelected(stores: Stores, scope: DecisionScope = 'selection'): Promise<void> {
  const { target, asked } = targetOf(stores, scope);
  if (!target || asked === 0) return;
  const by = stores.desk.getState().actor();
  const changed = await stores.learnings.getState().keep(by, target);
  if (!changed) return;
  const skipped = asked - changed.length;
  stores.ui
    .getState()
    .showToast(
      `Kept ${plural(changed.length, 'learning')} as ${by}` +
        (skipped > 0 ? ` (${count(skipped)} were not provisional or lapsed)` : '') +
        '.',
      changed,
    );
}

/** The toast after a rejection: how many, as whom, and Undo for exactly those. */
function toastRejected(stores: Stores, changed: string[], by: string): void {
  stores.ui.getState().showToast(`Rejected ${plural(changed.length, 'learning')} as ${by}.`, changed);
}

export async function rejectSelected(stores: Stores, reason: string, scope: DecisionScope = 'selection'): Promise<void> {
  const { target } = targetOf(stores, scope);
  if (!target) return;
  const by = stores.desk.getState().actor();
  const changed = await stores.learnings.getState().reject(by, reason, target);
  if (changed) toastRejected(stores, changed, by);
}

/** How long "Undone" stays: it has nothing to act on, so shorter than a decision's toast. */
const UNDONE_TOAST_MS = 5000;

/** Undo the decision that changed `ids`, recorded as the actor. */
async function undoDecision(stores: Stores, ids: string[]): Promise<boolean> {
  const by = stores.desk.getState().actor();
  const ok = await stores.learnings.getState().undo(ids, by);
  if (ok) stores.ui.getState().showToast(`Undone as ${by}: ${count(ids.length)} restored.`, null, UNDONE_TOAST_MS);
  return ok;
}

/**
 * Rejects every learning a run or chain discovered (docs/rules.md#a-persons-decisions), with the
 * same toast and Undo as any rejection; the runs view is read again so what it proposed shows
 * what became of it. Whether it went through: on failure the learnings store holds the error.
 */
export async function rejectOrigin(stores: Stores, origin: LearningOrigin, reason: string): Promise<boolean> {
  const by = stores.desk.getState().actor();
  const changed = await stores.learnings.getState().rejectOrigin(origin, by, reason);
  if (!changed) return false;
  toastRejected(stores, changed, by);
  const runs = stores.runs.getState();
  await Promise.all([runs.load(), runs.loadDetail()]);
  return true;
}

/**
 * Undo what the toast offers, from its button or `u`: exactly the ids that decision changed.
 * Returns false when the toast offers nothing to undo.
 */
export function undoToast(stores: Stores): boolean {
  const toast = stores.ui.getState().toast;
  if (!toast?.undoIds || toast.undoIds.length === 0) return false;
  if (toast.undoing) return true;
  stores.ui.getState().patchToast(toast.id, { undoing: true });
  void undoDecision(stores, toast.undoIds).then((ok) => {
    if (!ok) stores.ui.getState().patchToast(toast.id, { undoing: false, undoError: stores.learnings.getState().actionError ?? 'Undo failed' });
  });
  return true;
}
