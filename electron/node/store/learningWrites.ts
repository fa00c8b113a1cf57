/**
 * Writing learnings back to the ledger, directly or once per ingest batch.
 *
 * Why a batch writes learnings once. A finished run takes a run off every provisional learning
 * of its agent that was live before it started (docs/rules.md#counting-runs). Written row by row,
 * that is a row update per provisional learning per finished run, which was a fifth of ingest's
 * time; and the same learnings are updated again by the next run, and the next. During an ingest
 * batch the changed learnings are kept here instead, in memory, and written once when the batch
 * commits, in the same transaction as everything else of the batch (so exactly-once is
 * untouched: a batch is still all or nothing, docs/factory-format.md#reading-events).
 *
 * While a batch is open, every read of a learning the batch may have changed goes through
 * {@link withChanges}, so the rules always see the newest state. Outside a batch (a person's
 * decisions, tests) writes go straight to the ledger.
 */
import type { Learning } from '../../../shared/domain.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { LEARNING_COLUMNS, NEXT_CHANGED, toLearning } from './learningRows.js';

interface Batch {
  /** Learnings changed in this batch, by id, not written yet. */
  changed: Map<string, Learning>;
  /** The same learnings as the ledger holds them (as they were before their first change in the batch). */
  stored: Map<string, Learning>;
  /** The same, per agent. */
  changedOf: Map<string, Map<string, Learning>>;
  /** Per agent, its provisional learnings as the batch sees them (loaded at first use). */
  provisional: Map<string, Map<string, Learning>>;
}

const batches = new WeakMap<Db, Batch>();

/** Starts keeping changed learnings in memory until {@link endLearningBatch}. */
export function beginLearningBatch(db: Db): void {
  batches.set(db, { changed: new Map(), stored: new Map(), changedOf: new Map(), provisional: new Map() });
}

/** Writes every learning changed in the batch (inside the batch's transaction) and ends it. */
export function endLearningBatch(db: Db): void {
  const batch = batches.get(db);
  batches.delete(db);
  if (!batch || batch.changed.size === 0) return;
  writeLearnings(db, [...batch.changed.values()].map((l) => ({ after: l, before: batch.stored.get(l.id)! })));
}

/** The fields a write can change (text, agent and id never do). */
const MUTABLE = ['state', 'proposals', 'rediscoveries', 'echoes', 'runs_left', 'last_at', 'live_since', 'lapsed_at', 'decided_by', 'decided_at', 'reason'] as const;

/** A learning to write, and the same learning as the ledger holds it now. */
interface Write {
  after: Learning;
  before: Learning;
}

/**
 * Writes learnings, each with only the fields that differ from what the ledger holds, and a
 * `changed` stamp above every earlier one (a learning with nothing different is not written).
 *
 * Why only the changed fields: SQLite rewrites every index that holds a column a statement sets,
 * whether or not its value changes. Nearly every write of a batch is a finished run taking one off
 * `runs_left`, which no index holds; writing all the fields made each of those rewrite the
 * (agent, state) and lapse-time index entries too, four times the cost of the write itself
 * (measured on a ledger of 42,000 learnings, 1,500 rows a batch). The writes that set the same
 * fields share one prepared statement (a handful of shapes: counted, lapsed, echoed, decided…).
 */
function writeLearnings(db: Db, writes: readonly Write[]): void {
  let stamp = (stmt(db, `SELECT ${NEXT_CHANGED} AS next`).get() as { next: number }).next;
  for (const { after, before } of writes) {
    const fields = MUTABLE.filter((field) => after[field] !== before[field]);
    if (fields.length === 0) continue;
    stmt(db, `UPDATE learnings SET ${fields.map((field) => `${field} = ?`).join(', ')}, changed = ? WHERE id = ?`).run(
      ...fields.map((field) => after[field]),
      stamp++,
      after.id,
    );
  }
}

/**
 * Runs `work` (inside the caller's transaction) with the learnings it saves written once, at its
 * end: what a person's decision over thousands of learnings needs. Within an open batch it just
 * runs: that batch writes them.
 */
export function inLearningBatch<T>(db: Db, work: () => T): T {
  if (batches.has(db)) return work();
  beginLearningBatch(db);
  try {
    const result = work();
    endLearningBatch(db);
    return result;
  } finally {
    abandonLearningBatch(db);
  }
}

/** Ends the batch without writing: its transaction is being rolled back. */
export function abandonLearningBatch(db: Db): void {
  batches.delete(db);
}


function track(batch: Batch, l: Learning): void {
  const provisional = batch.provisional.get(l.agent);
  if (!provisional) return;
  if (l.state === 'provisional') provisional.set(l.id, l);
  else provisional.delete(l.id);
}

/**
 * Writes back the mutable fields of a learning (text, agent and id never change). `before` is the
 * learning as the caller read it, which is what the ledger (or the open batch) holds: only the
 * fields that differ from it are written.
 */
export function saveLearning(db: Db, l: Learning, before: Learning): void {
  const batch = batches.get(db);
  if (!batch) return writeLearnings(db, [{ after: l, before }]);
  if (!batch.stored.has(l.id)) batch.stored.set(l.id, before);
  batch.changed.set(l.id, l);
  let ofAgent = batch.changedOf.get(l.agent);
  if (!ofAgent) batch.changedOf.set(l.agent, (ofAgent = new Map()));
  ofAgent.set(l.id, l);
  track(batch, l);
}

/** Tells an open batch about a learning just inserted (inserts are written at once). */
export function noteInsertedLearning(db: Db, l: Learning): void {
  const batch = batches.get(db);
  if (batch) track(batch, l);
}

/** `learnings` as read from the ledger, with the batch's newer versions in their place. */
export function withChanges(db: Db, learnings: Learning[]): Learning[] {
  const batch = batches.get(db);
  if (!batch || batch.changed.size === 0) return learnings;
  return learnings.map((l) => batch.changed.get(l.id) ?? l);
}

/**
 * The agent's provisional learnings, as of now (the batch's changes included), oldest activity
 * first. The order is the order of the lapse lines a finished run writes, so it must not depend
 * on where batches begin (a killed ingest resumes at another line and must end in the same
 * ledger): read from the ledger in order of last activity, as a batch's own list grows (a
 * learning that becomes provisional again joins at the end). The order is asked for, not left to
 * whichever index the read takes.
 */
export function provisionalLearnings(db: Db, agent: string): Learning[] {
  const batch = batches.get(db);
  const read = (): Learning[] =>
    stmt(db, `SELECT ${LEARNING_COLUMNS} FROM learnings WHERE agent = ? AND state = 'provisional' ORDER BY last_at, rowid`).all(agent).map(toLearning);
  if (!batch) return read();
  let provisional = batch.provisional.get(agent);
  if (!provisional) {
    provisional = new Map();
    for (const l of withChanges(db, read())) if (l.state === 'provisional') provisional.set(l.id, l);
    for (const l of batch.changedOf.get(agent)?.values() ?? []) if (l.state === 'provisional') provisional.set(l.id, l);
    batch.provisional.set(agent, provisional);
  }
  return [...provisional.values()];
}
