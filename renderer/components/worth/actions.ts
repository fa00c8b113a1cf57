/**
 * What the operator does with a Worth a look entry. Reject and keep are the learnings' own
 * actions (learnings/actions.ts), named by id — reject through the learnings' own dialog
 * (RejectDialog), with its optional reason; dismiss is the section's own, remembered in the
 * ledger against the entry's evidence. Which decisions an entry takes comes with it from the Desk.
 */
import type { WorthEntry } from '../../../shared/api.js';
import type { ShortcutId } from '../../lib/shortcuts.js';
import type { Stores } from '../../state/stores.js';
import { keepSelected } from '../learnings/actions.js';

/**
 * Keeps the entry's learning, and dismisses the entry against the same evidence: the person has
 * looked and said yes, so it comes back only when the evidence against it grows.
 */
export async function keepEntry(stores: Stores, entry: WorthEntry): Promise<void> {
  if (!entry.decisions.includes('keep')) {
    stores.ui.getState().showToast(`This learning is ${entry.learning.state} already: reject or dismiss it.`, null, 5000);
    return;
  }
  await keepSelected(stores, { id: entry.learning.id });
  const failed = stores.learnings.getState().actionError;
  // The dismissal re-reads the section itself: one read, not one more after it.
  if (failed) stores.worth.getState().fail(failed);
  else await stores.worth.getState().dismiss(entry, stores.desk.getState().actor());
}

export async function dismissEntry(stores: Stores, entry: WorthEntry): Promise<void> {
  const by = stores.desk.getState().actor();
  if (await stores.worth.getState().dismiss(entry, by)) {
    stores.ui.getState().showToast(`Dismissed from Worth a look as ${by} until its evidence changes.`, null, 5000);
  }
}

/** Handles a Worth a look key in Needs you; false when `id` is not one of them or there is no entry. */
export function handleWorthShortcut(stores: Stores, id: ShortcutId): boolean {
  const worth = stores.worth.getState();
  switch (id) {
    case 'worth-next':
    case 'worth-previous':
      worth.move(id === 'worth-next' ? 1 : -1);
      return worth.entries.length > 0;
    case 'worth-reject':
    case 'worth-keep':
    case 'worth-dismiss': {
      const entry = worth.current();
      if (!entry) return false;
      if (id === 'worth-reject') {
        if (entry.decisions.includes('reject')) worth.confirmReject(entry);
      }
      else if (id === 'worth-keep') void keepEntry(stores, entry);
      else void dismissEntry(stores, entry);
      return true;
    }
    default:
      return false;
  }
}
