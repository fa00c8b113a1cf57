/**
 * The ledger's side of the decisions journal (docs/factory-format.md#the-decisions-journal; the
 * file side is ../journal.ts).
 *
 * Everything in the ledger but a person's decisions comes from the event files, so the decisions
 * are journaled too: each one inserts its journal line here, in the very transaction that
 * commits it, and the line is appended to `.layover/decisions.jsonl` after the commit (as the
 * outbox writes chain files). A crash between the two leaves the row unwritten, and the next
 * process that opens the ledger appends it then: the file gets every committed decision exactly
 * once, and never one that was not committed.
 */
import type { Flags, FlagsChanged } from '../../../shared/domain.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';

/**
 * A learning a decision changed: its id, and what it is (agent and text) for a ledger made again
 * from the events, where the same learning was given a new id when its proposal was read again.
 */
export interface JournaledLearning {
  id: string;
  agent: string;
  text: string;
}

/**
 * How far ingest had read when a decision was made: the lines read of the newest events file
 * (files are read in name order, so the older ones were read through). A restore reads the
 * events up to here before it makes the decision again, so events and decisions come back in
 * the order they happened. Null when nothing had been read.
 */
export interface EventsPosition {
  file: string;
  lines: number;
}

/** One person decision, as the journal holds it: enough to make it again, with the same result. */
export type JournalEntry = { seq: number; at: string; by: string; events: EventsPosition | null } & (
  | { what: 'reject' | 'keep'; learnings: JournaledLearning[]; reason: string | null }
  | { what: 'undo'; learnings: JournaledLearning[] }
  | {
      what: 'reply';
      id: string;
      answer: string;
      workflow: string;
      flags: Flags;
      routes: string[];
      chain: string;
      /** Present when the reply changed inherited flags on purpose (docs/rules.md#help-requests-and-replies). */
      flags_changed?: FlagsChanged;
    }
  | { what: 'resolve'; id: string }
);

/** A decision as its store function records it; the journal gives it its sequence number and events position. */
export type NewJournalEntry = JournalEntry extends infer E ? (E extends JournalEntry ? Omit<E, 'seq' | 'events'> : never) : never;

/**
 * Set when a decision is made again from the journal (a restore): it keeps the sequence number
 * it had, and its line is already in the file.
 */
export interface Replaying {
  seq: number;
  events: EventsPosition | null;
  /** For a reply: the chain it started, so the chain file comes out the same. */
  chain?: string;
}

/** The sequence number of the last decision the ledger holds (0 for none). */
export function lastJournalSeq(db: Db): number {
  return (stmt(db, 'SELECT coalesce(max(seq), 0) AS seq FROM decision_journal').get() as { seq: number }).seq;
}

/** Records a decision's journal line; call inside the transaction that commits the decision. */
export function journalDecision(db: Db, entry: NewJournalEntry, replaying?: Replaying): void {
  const seq = replaying?.seq ?? lastJournalSeq(db) + 1;
  const events = replaying ? replaying.events : eventsPosition(db);
  const line = JSON.stringify({ seq, ...entry, events });
  stmt(db, 'INSERT INTO decision_journal (seq, line, written) VALUES (?, ?, ?)').run(seq, line, replaying ? 1 : 0);
}

/** Where ingest stands now (see `EventsPosition`). */
export function eventsPosition(db: Db): EventsPosition | null {
  const row = stmt(db, 'SELECT name, lines FROM event_files ORDER BY name DESC LIMIT 1').get() as { name: string; lines: number } | undefined;
  return row ? { file: row.name, lines: row.lines } : null;
}

/** Whether ingest has read at least as far as `position`. */
export function eventsReached(db: Db, position: EventsPosition | null): boolean {
  if (position === null) return true;
  const row = stmt(db, 'SELECT lines FROM event_files WHERE name = ?').get(position.file) as { lines: number } | undefined;
  return row !== undefined && row.lines >= position.lines;
}

/**
 * The journal lines committed but not yet appended to the file, oldest first, each as the UTF-8
 * bytes the ledger holds (its text encoding is SQLite's default, UTF-8, never changed), which are
 * the bytes the file gets. Bytes, not text: a bulk decision's line is megabytes (2.2 MB for 10,000
 * learnings with their texts), and read as text it was decoded into a string only to be encoded
 * back for the file: a 10,000-learning reject's append took 29–42 ms that way, 5–23 ms now
 * (docs/performance-log.md#session-13-the-three-figures-at-the-edge-taken-apart).
 */
export function unwrittenJournal(db: Db): { seq: number; line: Buffer }[] {
  return stmt(db, 'SELECT seq, CAST(line AS BLOB) AS line FROM decision_journal WHERE written = 0 ORDER BY seq').all() as { seq: number; line: Buffer }[];
}

/**
 * The ids the journaled learnings have in this ledger: the same id when it is there, else the
 * newest learning of the same agent with the same text (a ledger made again from the events).
 */
export function learningIdsNow(db: Db, learnings: readonly JournaledLearning[]): string[] {
  const byId = stmt<[string], { id: string }>(db, 'SELECT id FROM learnings WHERE id = ?');
  const byText = stmt<[string, string], { id: string }>(db, 'SELECT id FROM learnings WHERE agent = ? AND text = ? ORDER BY rowid DESC LIMIT 1');
  return learnings.map((l) => byId.get(l.id)?.id ?? byText.get(l.agent, l.text)?.id ?? l.id);
}

export function markJournalWritten(db: Db, seq: number): void {
  stmt(db, 'UPDATE decision_journal SET written = 1 WHERE seq = ?').run(seq);
}
