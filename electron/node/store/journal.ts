/**
 * The ledger's side of the decisions journal (SPEC 6; the file side is ../journal.ts).
 *
 * Everything in the ledger but a person's decisions comes from the event files, so the decisions
 * are journaled too: each one inserts its journal line here, in the very transaction that
 * commits it, and the line is appended to `.layover/decisions.jsonl` after the commit (as the
 * outbox writes chain files). A crash between the two leaves the row unwritten, and the next
 * process that opens the ledger appends it then: the file gets every committed decision exactly
 * once, and never one that was not committed.
 */
import type { Flags } from '../../../shared/domain.js';
import type { Db } from './db.js';

/** One person decision, as the journal holds it: enough to make it again, with the same result. */
export type JournalEntry = { seq: number; at: string; by: string } & (
  | { what: 'reject' | 'keep'; ids: string[]; reason: string | null }
  | { what: 'undo'; ids: string[] }
  | { what: 'reply'; id: string; answer: string; workflow: string; flags: Flags; routes: string[]; chain: string }
  | { what: 'resolve'; id: string }
);

/** A decision as its store function records it; the journal gives it its sequence number. */
export type NewJournalEntry = JournalEntry extends infer E ? (E extends JournalEntry ? Omit<E, 'seq'> : never) : never;

/**
 * Set when a decision is made again from the journal (a restore): it keeps the sequence number
 * it had, and its line is already in the file.
 */
export interface Replaying {
  seq: number;
  /** For a reply: the chain it started, so the chain file comes out the same. */
  chain?: string;
}

/** The sequence number of the last decision the ledger holds (0 for none). */
export function lastJournalSeq(db: Db): number {
  return (db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM decision_journal').get() as { seq: number }).seq;
}

/** Records a decision's journal line; call inside the transaction that commits the decision. */
export function journalDecision(db: Db, entry: NewJournalEntry, replaying?: Replaying): void {
  const seq = replaying?.seq ?? lastJournalSeq(db) + 1;
  const line = JSON.stringify({ seq, ...entry });
  db.prepare('INSERT INTO decision_journal (seq, line, written) VALUES (?, ?, ?)').run(seq, line, replaying ? 1 : 0);
}

/** The journal lines committed but not yet appended to the file, oldest first. */
export function unwrittenJournal(db: Db): { seq: number; line: string }[] {
  return db.prepare('SELECT seq, line FROM decision_journal WHERE written = 0 ORDER BY seq').all() as { seq: number; line: string }[];
}

export function markJournalWritten(db: Db, seq: number): void {
  db.prepare('UPDATE decision_journal SET written = 1 WHERE seq = ?').run(seq);
}
