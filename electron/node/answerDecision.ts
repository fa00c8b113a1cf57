/**
 * A person's decision as the hosts answer it: the decision itself (committed with its journal
 * row), its journal line appended to `.layover/decisions.jsonl`, and the learnings files of the
 * agents whose active learnings it changed re-written — then the answer. Every decision the window
 * makes is answered here: a reject, keep or undo, and a reply or resolve of a help request (its
 * chain file written from the outbox by `reply` itself, no learnings file changed), so that a
 * person's decision has one path to the journal (docs/factory-format.md#the-decisions-journal).
 *
 * Why the checkpoint waits for the answer. SQLite copies the write-ahead log into the ledger file
 * (a checkpoint) at the end of the first commit that leaves more than `wal_autocheckpoint` pages
 * (1,000) in it. A bulk reject of 10,000 learnings writes several thousand pages, so that copy,
 * with its syncs, ran inside the person's wait: about a fifth of it (issue 9). Here the automatic
 * checkpoint is held off while the decision, the journal and the export commit, and `later` is
 * handed the checkpoint to run once the answer is out (the hosts hand it to the ingest worker,
 * which runs it on its own connection between batches, or run it on the next turn of the event
 * loop when no worker runs: desk.ts; store/handedCheckpoint.ts says why that is safe).
 *
 * Why a wider page cache while it runs. A bulk reject dirties more pages than SQLite's default
 * cache holds, which it then spills to the log in the middle of the decision: with a wider cache
 * for the moment of the decision, a 10,000-learning reject took a fifth less (store/pageCache.ts).
 */
import type { Db } from './store/db.js';
import { exportPending } from './exporter.js';
import { flushJournal } from './journal.js';
import { withHandedCheckpoint } from './store/handedCheckpoint.js';
import { widenPageCache } from './store/pageCache.js';

export function answerDecision<T>(db: Db, factory: string, maxPerRun: number, decide: () => T, later: (checkpoint: () => void) => void): T {
  return withHandedCheckpoint(db, later, () => {
    const narrowPageCache = widenPageCache(db);
    try {
      const result = decide();
      flushJournal(db, factory);
      exportPending(db, factory, maxPerRun);
      return result;
    } finally {
      narrowPageCache();
    }
  });
}
