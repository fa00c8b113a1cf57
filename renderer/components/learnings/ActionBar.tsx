import { count } from '../../lib/format.js';
import { actionPhrase } from '../../lib/phrases.js';
import { useSlice, useStores } from '../../state/context.js';
import { keepSelected } from './actions.js';
import { useSelection } from './useSelection.js';

/** The scope of a bulk action, always in words, with the actions themselves. */
export function ActionBar() {
  const stores = useStores();
  const { learnings, ui } = stores;
  const { total, allMatching, filter, busy, underCursor, n } = useSelection(learnings);
  // The bar acts on the selection only; the cursor row alone is acted on from the keyboard.
  const selected = underCursor ? 0 : n;
  const actionError = useSlice(learnings, (s) => s.actionError);

  return (
    <div className="actionbar" aria-label="Selection">
      <span className="selection-summary" aria-live="polite">
        {allMatching
          ? `All ${count(total)} matching selected`
          : selected > 0
            ? `${count(selected)} selected`
            : `${count(total)} ${total === 1 ? 'learning' : 'learnings'}`}
      </span>
      <button type="button" onClick={() => learnings.getState().selectPage()} disabled={total === 0}>
        Select all on page
      </button>
      {!allMatching && total > 0 && (
        <button type="button" onClick={() => learnings.getState().selectAllMatching()}>
          Select all {count(total)} matching
        </button>
      )}
      {selected > 0 && (
        <>
          <button type="button" className="danger" disabled={busy} onClick={() => ui.getState().openDialog('reject')}>
            {actionPhrase('Reject', n, allMatching, filter)}…
          </button>
          <button type="button" disabled={busy} onClick={() => void keepSelected(stores)}>
            {actionPhrase('Keep', n, allMatching, filter)}
          </button>
          <button type="button" className="link" onClick={() => learnings.getState().clearSelection()}>
            Clear selection
          </button>
        </>
      )}
      {actionError && (
        <span role="alert" className="error-text">
          {actionError}
        </span>
      )}
    </div>
  );
}
