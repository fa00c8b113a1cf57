import { useSlice } from '../../state/context.js';
import type { LearningsStore } from '../../state/learnings.js';

/**
 * What a bulk action on learnings would act on, kept current: the matching total, whether all
 * matching are selected, the filter, how many (`n`), whether it is the row under the cursor
 * alone (`underCursor`: nothing selected, `r`/`e` pressed), and whether an action is under way.
 */
export function useSelection(learnings: LearningsStore) {
  const total = useSlice(learnings, (s) => s.total);
  const selectedCount = useSlice(learnings, (s) => s.selected.size);
  const allMatching = useSlice(learnings, (s) => s.allMatching);
  const filter = useSlice(learnings, (s) => s.filter);
  const busy = useSlice(learnings, (s) => s.busy);
  const underCursor = useSlice(learnings, (s) => !s.allMatching && s.selected.size === 0 && s.cursorAim !== null);
  return { total, allMatching, filter, busy, underCursor, n: allMatching ? total : underCursor ? 1 : selectedCount };
}
