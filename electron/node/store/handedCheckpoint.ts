/**
 * Work whose commits leave many pages in the write-ahead log, with SQLite's automatic checkpoint
 * held off while it runs and handed to `later` instead: a person's decision (answerDecision.ts)
 * and a sweep (sweep.ts).
 *
 * Why. SQLite copies the log into the ledger file (a checkpoint, with its syncs) at the end of the
 * first commit that leaves more than `wal_autocheckpoint` pages (1,000) in it, inside whatever
 * call made that commit. Handed over, the copy runs once the work's answer is out (the hosts run
 * it on the ingest worker's connection, or on the next turn of the event loop). Nothing is less
 * safe for it: a commit in WAL mode is complete before any checkpoint, and a checkpoint that
 * never ran is run by the next connection that commits. The setting is put back, and the
 * checkpoint handed over, also when the work fails.
 */
import type { Db } from './db.js';

export function withHandedCheckpoint<T>(db: Db, later: (checkpoint: () => void) => void, work: () => T): T {
  const pages = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  db.pragma('wal_autocheckpoint = 0');
  try {
    return work();
  } finally {
    db.pragma(`wal_autocheckpoint = ${pages}`);
    later(() => {
      if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
    });
  }
}
