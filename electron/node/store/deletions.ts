/**
 * The log of deleted learnings, which the in-memory views of the ledger (the matching index, the
 * window's list) read to stay current without reading everything again.
 *
 * A learning is deleted only by a sweep (a lapsed one past `keep_lapsed_days`), possibly in
 * another process than the one holding a view. A trigger (schema migration 2) logs each deletion
 * with a rising sequence number, so a view that saw the log up to `seq` asks for what came after.
 * The log is kept short: a sweep trims it to the newest {@link DELETIONS_KEPT}; a view that fell
 * further behind than that reads the ledger afresh.
 */
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** How many of the newest deletions the log keeps. */
export const DELETIONS_KEPT = 100_000;

/** The sequence number of the newest deletion, 0 when there was none. */
export function lastDeletion(db: Db): number {
  return (stmt(db, 'SELECT coalesce(max(seq), 0) AS seq FROM learning_deletions').get() as { seq: number }).seq;
}

/**
 * The learnings deleted after deletion `after`, or null when the log no longer reaches back that
 * far (then the caller reads the ledger afresh).
 */
export function deletedSince(db: Db, after: number): { rowid: number; agent: string }[] | null {
  if (lastDeletion(db) === after) return []; // the common case: nothing deleted since, one lookup
  const oldest = (stmt(db, 'SELECT min(seq) AS seq FROM learning_deletions').get() as { seq: number | null }).seq;
  if (oldest !== null && oldest > after + 1) return null;
  return stmt(db, 'SELECT learning_rowid AS rowid, agent FROM learning_deletions WHERE seq > ? ORDER BY seq').all(after) as {
    rowid: number;
    agent: string;
  }[];
}

/** Trims the log to its newest entries (a sweep does this). */
export function trimDeletions(db: Db): void {
  stmt(db, 'DELETE FROM learning_deletions WHERE seq <= (SELECT max(seq) FROM learning_deletions) - ?').run(DELETIONS_KEPT);
}
