/**
 * The ledger of learnings in SQLite: new learnings and their history. The rules themselves live
 * in `rules/ledger.ts`; this module writes the rows they are about, with a history line for every
 * state change. Taking up a proposal is in `proposals.ts`, run counting in `runs.ts`, a person's
 * decisions in `decisions.ts`.
 *
 * Every function here runs inside the caller's transaction when there is one; the ones a person
 * triggers open their own.
 */
import type { HistoryKind, Learning, LearningState } from '../../../shared/domain.js';
import { fingerprint, type Fingerprint } from '../../rules/sameness.js';
import { utcTime } from '../../rules/time.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { LEARNING_COLUMNS, LEARNING_FIELDS, NEXT_CHANGED } from './learningRows.js';
import { indexNewLearning } from './matching.js';
import { addSearchEntry, noteInsertedLearning } from './learningWrites.js';

/** A line of an events file the ledger cannot take: becomes a refused line, not a crash. */
export class EventRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventRefused';
  }
}

/** Canonical form of an event time, so times compare as text: `2026-01-02T03:04:05.000Z`. */
export function normTime(at: string): string {
  const time = utcTime(at);
  if (time === null) throw new EventRefused(`"${at}" is not a valid time`);
  return time;
}

export interface HistoryLine {
  learning_id: string;
  at: string;
  kind: HistoryKind;
  by?: string | null;
  reason?: string | null;
  run?: string | null;
  state_before: LearningState | null;
  state_after: LearningState;
  undo?: string | null;
}

/** The history's codes for kinds and states, and each kind's usual reason, as schema migration 8 fixed them. */
interface HistoryCodes {
  kinds: Map<string, number>;
  usualReasons: Map<string, string | null>;
  states: Map<string, number>;
}

const historyCodes = new WeakMap<Db, HistoryCodes>();

/** Read from the ledger's own code tables once per connection, so the tables stay the one list of codes. */
function historyCodesOf(db: Db): HistoryCodes {
  let codes = historyCodes.get(db);
  if (!codes) {
    const kinds = stmt(db, 'SELECT code, name, usual_reason FROM history_kinds').all() as { code: number; name: string; usual_reason: string | null }[];
    const states = stmt(db, 'SELECT code, name FROM learning_states').all() as { code: number; name: string }[];
    codes = {
      kinds: new Map(kinds.map((k) => [k.name, k.code])),
      usualReasons: new Map(kinds.map((k) => [k.name, k.usual_reason])),
      states: new Map(states.map((st) => [st.name, st.code])),
    };
    historyCodes.set(db, codes);
  }
  return codes;
}

/** A history line's kind, reason and states as the table stores them. */
export interface EncodedHistory {
  kind: number;
  /** Null when it is the kind's usual reason, which the view puts back (schema migration 8). */
  reason: string | null;
  state_before: number | null;
  state_after: number;
}

/**
 * A history line's kind, reason and states in the ledger's codes: the one encoding, used by
 * every writer of history lines (`addHistory`, and the bulk statements of a decision and of an
 * undo in decisions.ts); the view's insert trigger does the same for lines inserted by hand.
 */
export function encodeHistory(db: Db, h: Pick<HistoryLine, 'kind' | 'reason' | 'state_before' | 'state_after'>): EncodedHistory {
  const codes = historyCodesOf(db);
  const reason = h.reason ?? null;
  return {
    kind: codes.kinds.get(h.kind)!,
    reason: reason === codes.usualReasons.get(h.kind) ? null : reason,
    state_before: h.state_before === null ? null : codes.states.get(h.state_before)!,
    state_after: codes.states.get(h.state_after)!,
  };
}

/**
 * Adds a history line in the codes the ledger keeps (schema migration 8). Straight into the table,
 * not through the view's insert trigger (which does the same for inserts by hand): the trigger's
 * lookups made each line half as dear again, and ingest writes one for nearly every event.
 */
export function addHistory(db: Db, h: HistoryLine): void {
  const encoded = encodeHistory(db, h);
  stmt(
    db,
    `INSERT INTO learning_changes (learning_rowid, at, kind, by, reason, run, state_before, state_after, undo)
     VALUES ((SELECT rowid FROM learnings WHERE id = ?), ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(h.learning_id, h.at, encoded.kind, h.by ?? null, encoded.reason, h.run ?? null, encoded.state_before, encoded.state_after, h.undo ?? null);
}

/** A learning's insert: every field of the schema (learningRows.ts), and the row's first `changed` stamp. */
const INSERT_LEARNING = `INSERT INTO learnings (${LEARNING_COLUMNS}, changed) VALUES (${LEARNING_FIELDS.map(() => '?').join(', ')}, ${NEXT_CHANGED})`;

/** Inserts a new learning with its search entry, and hands its fingerprint to the matching index. */
export function insertLearning(db: Db, l: Learning, fp: Fingerprint = fingerprint(l.text)): void {
  const info = stmt(db, INSERT_LEARNING).run(LEARNING_FIELDS.map((field) => l[field]));
  const rowid = Number(info.lastInsertRowid);
  // Its search entry, here rather than by a trigger (see schema migration 2), last in a batch.
  addSearchEntry(db, rowid, l.text);
  indexNewLearning(db, l.agent, rowid, fp);
  noteInsertedLearning(db, l);
}

/** Marks agents whose exported learnings file must be re-written (cleared by the exporter). */
export function markExportPending(db: Db, agents: Iterable<string>): void {
  const mark = stmt(db, 'INSERT OR IGNORE INTO export_pending (agent) VALUES (?)');
  for (const agent of agents) mark.run(agent);
}
