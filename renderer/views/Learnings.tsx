import { ActionBar } from '../components/learnings/ActionBar.js';
import { FilterBar } from '../components/learnings/FilterBar.js';
import { LearningDetail } from '../components/learnings/LearningDetail.js';
import { LearningList } from '../components/learnings/LearningList.js';
import { RejectDialog } from '../components/learnings/RejectDialog.js';
import { useSlice, useStores } from '../state/context.js';

/** The ledger's learnings; what it shows is kept in the address (state/address.ts). */
export function Learnings() {
  const { learnings, ui } = useStores();
  const dialog = useSlice(ui, (s) => s.dialog);
  const detailId = useSlice(learnings, (s) => s.detailId);

  return (
    <div className={detailId ? 'split learnings-view with-detail' : 'learnings-view'}>
      <section className="pane pane-main" aria-labelledby="learnings-title">
        <h1 id="learnings-title">Learnings</h1>
        <FilterBar />
        <ActionBar />
        <LearningList />
      </section>
      {detailId && <LearningDetail />}
      {dialog === 'reject' && <RejectDialog scope="selection" />}
      {dialog === 'reject-detail' && detailId && <RejectDialog scope={{ id: detailId }} />}
    </div>
  );
}
