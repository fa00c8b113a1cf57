/**
 * Writing learnings back to the ledger, directly or once per ingest batch, and the batch's new
 * search entries last (see {@link addSearchEntry}).
 *
 * Why a batch writes learnings once. A finished run takes a run off every provisional learning
 * of its agent that was live before it started (docs/rules.md#counting-runs). Written row by row,
 * that is a row update per provisional learning per finished run, which was a fifth of ingest's
 * time; and the same learnings are updated again by the next run, and the next. During an ingest
 * batch the changed learnings are kept here instead, in memory, and written once when the batch
 * commits, in the same transaction as everything else of the batch (so exactly-once is
 * untouched: a batch is still all or nothing, docs/factory-format.md#reading-events).
 *
 * Within the batch the runs themselves are counted lazily too (see {@link AgentCount}). While a
 * batch is open, every read of a learning the batch may have changed goes through
 * {@link withChanges}, which brings it up to date first, so the rules always see the newest
 * state. Outside a batch (a person's decisions, tests) writes go straight to the ledger.
 */
import type { Learning } from '../../../shared/domain.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { LEARNING_COLUMNS, MUTABLE_FIELDS, NEXT_CHANGED, toLearning, type MutableField } from './learningRows.js';
import { countRuns, runsToLapse, type FinishedRun } from '../../rules/ledger.js';
import { RunTally, type TalliedRun } from './runTally.js';

interface Batch {
  /** Learnings changed in this batch, by id, not written yet. */
  changed: Map<string, Learning>;
  /** The same learnings as the ledger holds them (as they were before their first change in the batch). */
  stored: Map<string, Learning>;
  /** The same, per agent. */
  changedOf: Map<string, Map<string, Learning>>;
  /** Per agent, its runs finished in the batch and its provisional learnings (loaded at the agent's first finished run). */
  counting: Map<string, AgentCount>;
  /** Worth a look's counts of the runs finished in the batch, written at its end (runTally.ts). */
  tally: RunTally;
  /** The search entries of the learnings inserted in the batch, written last (see {@link addSearchEntry}). */
  searchEntries: { rowid: number; text: string }[];
}

/** A finished run, with its id for the lapse lines it writes. */
export type BatchFinishedRun = FinishedRun & { run: string };

/** A provisional learning of the batch, with how many of its agent's finished runs it has been brought up to. */
interface Counted {
  learning: Learning;
  /** The first run of `AgentCount.finished` not applied to `learning` yet. */
  upTo: number;
  /** The number of finished runs at which it can lapse at the earliest: its key in `AgentCount.due`. */
  due: number;
  /** Its place among the agent's provisional learnings (see {@link provisionalOf}). */
  place: number;
}

/**
 * Counting an agent's finished runs lazily. Counted run by run, every finished run took one off
 * each provisional learning of its agent, in memory: a fifth of ingest's CPU time with the write
 * at the end of the batch (two dozen provisional learnings an agent, every run). Instead each
 * learning is brought up to date with the runs finished since (`countRuns` in rules/ledger.ts, the
 * same rule) only when it is read, written or could lapse: a run counts at most one against it, so
 * it cannot lapse before `upTo + runsToLapse` runs have finished, and a finished run looks only at
 * the learnings due at its count. So lapses are found at the run that causes them, in the order
 * the agent's learnings are kept, and the lapse lines are written exactly as before.
 */
interface AgentCount {
  finished: BatchFinishedRun[];
  provisional: Map<string, Counted>;
  due: Map<number, Set<Counted>>;
  places: number;
}

const batches = new WeakMap<Db, Batch>();

/** Starts keeping changed learnings in memory until {@link endLearningBatch}. */
export function beginLearningBatch(db: Db): void {
  batches.set(db, { changed: new Map(), stored: new Map(), changedOf: new Map(), counting: new Map(), tally: new RunTally(), searchEntries: [] });
}

/** Writes every learning changed in the batch (inside the batch's transaction) and ends it. */
export function endLearningBatch(db: Db): void {
  const batch = batches.get(db);
  batches.delete(db);
  if (!batch) return;
  for (const count of batch.counting.values()) for (const c of count.provisional.values()) upToDate(batch, count, c);
  if (batch.changed.size > 0) writeLearnings(db, [...batch.changed.values()].map((l) => ({ after: l, before: batch.stored.get(l.id)! })));
  batch.tally.write(db);
  for (const { rowid, text } of batch.searchEntries) writeSearchEntry(db, rowid, text);
}

/** Counts a finished run for Worth a look (runTally.ts): at the end of an open batch, or at once. */
export function tallyFinishedRun(db: Db, run: TalliedRun): void {
  const batch = batches.get(db);
  if (batch) return batch.tally.add(run);
  const once = new RunTally();
  once.add(run);
  once.write(db);
}

/**
 * Adds a new learning's search entry (`learnings_fts`), at the end of an open batch or at once.
 *
 * Why last in a batch. FTS5 keeps the entries of a transaction in memory and writes them as one
 * segment at commit, but it must write them out at every statement savepoint of the transaction
 * too, and SQLite opens one for each statement that can write several rows and fail halfway: a
 * run's finish, for one, while a trigger kept Worth a look's counts (until schema migration 14,
 * runTally.ts). In an ingest batch that meant a small segment written, and later merged, for
 * nearly every finished run: each finish cost four times as much as the same update in a
 * transaction without FTS (measured with `perf` on 100,000 events: `fts5SavepointMethod`
 * flushing under `sqlite3VtabSavepoint`). Written after every other write of the batch, the
 * entries go out once, at commit. Nothing in a batch reads the search index, and the batch
 * commits or rolls back as a whole, so no reader sees a learning without its entry.
 */
export function addSearchEntry(db: Db, rowid: number, text: string): void {
  const batch = batches.get(db);
  if (batch) batch.searchEntries.push({ rowid, text });
  else writeSearchEntry(db, rowid, text);
}

function writeSearchEntry(db: Db, rowid: number, text: string): void {
  stmt(db, 'INSERT INTO learnings_fts (rowid, text) VALUES (?, ?)').run(rowid, text);
}

/** A learning to write, and the same learning as the ledger holds it now. */
interface Write {
  after: Learning;
  before: Learning;
}

/**
 * Writes learnings, each with only the fields that differ from what the ledger holds (of
 * `MUTABLE_FIELDS`, made from the schema in learningRows.ts), and a
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
  let stamp = (stmt(db, NEXT_STAMP).get() as { next: number }).next;
  for (const { after, before } of writes) {
    const fields: MutableField[] = [];
    let shape = 0;
    MUTABLE_FIELDS.forEach((field, bit) => {
      if (after[field] === before[field]) return;
      fields.push(field);
      shape |= 1 << bit;
    });
    if (shape === 0) continue;
    stmt(db, updateOf(shape, fields)).run(...fields.map((field) => after[field]), stamp++, after.id);
  }
}

const NEXT_STAMP = `SELECT ${NEXT_CHANGED} AS next`;

/** The UPDATE of each set of fields, keyed by the set as bits in `MUTABLE_FIELDS` order (a learning has far fewer than 31 fields): made once each (statements.ts). */
const updates = new Map<number, string>();

function updateOf(shape: number, fields: readonly MutableField[]): string {
  let sql = updates.get(shape);
  if (sql === undefined) updates.set(shape, (sql = `UPDATE learnings SET ${fields.map((field) => `${field} = ?`).join(', ')}, changed = ? WHERE id = ?`));
  return sql;
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


/** Keeps the batch's record of `l` (its newest version) and, once its agent counts runs, its place among the provisional ones. */
function keep(batch: Batch, l: Learning, before: Learning): void {
  if (!batch.stored.has(l.id)) batch.stored.set(l.id, before);
  batch.changed.set(l.id, l);
  let ofAgent = batch.changedOf.get(l.agent);
  if (!ofAgent) batch.changedOf.set(l.agent, (ofAgent = new Map()));
  ofAgent.set(l.id, l);
  track(batch, l);
}

function track(batch: Batch, l: Learning): void {
  const count = batch.counting.get(l.agent);
  if (!count) return;
  const c = count.provisional.get(l.id);
  if (c) count.due.get(c.due)?.delete(c);
  if (l.state !== 'provisional') {
    count.provisional.delete(l.id);
    return;
  }
  // A learning stays where it is while it stays provisional; one that becomes provisional again joins at the end.
  const counted: Counted = { learning: l, upTo: count.finished.length, due: 0, place: c ? c.place : count.places++ };
  count.provisional.set(l.id, counted);
  schedule(count, counted);
}

function schedule(count: AgentCount, c: Counted): void {
  c.due = c.upTo + runsToLapse(c.learning);
  let due = count.due.get(c.due);
  if (!due) count.due.set(c.due, (due = new Set()));
  due.add(c);
}

/** Brings a provisional learning up to date with its agent's runs finished since; the lapse, if any, is the caller's to see. */
function upToDate(batch: Batch, count: AgentCount, c: Counted): Learning {
  if (c.upTo === count.finished.length) return c.learning;
  const before = c.learning;
  const after = countRuns(before, count.finished, c.upTo);
  c.upTo = count.finished.length;
  if (after) keep(batch, after.learning, before);
  return after ? after.learning : before;
}

/**
 * Writes back the mutable fields of a learning (text, agent and id never change). `before` is the
 * learning as the caller read it, which is what the ledger (or the open batch) holds: only the
 * fields that differ from it are written.
 */
export function saveLearning(db: Db, l: Learning, before: Learning): void {
  const batch = batches.get(db);
  if (!batch) return writeLearnings(db, [{ after: l, before }]);
  keep(batch, l, before);
}

/** Tells an open batch about a learning just inserted (inserts are written at once). */
export function noteInsertedLearning(db: Db, l: Learning): void {
  const batch = batches.get(db);
  if (batch) track(batch, l);
}

/** `learnings` as read from the ledger, with the batch's newer versions in their place (counted up to the last finished run). */
export function withChanges(db: Db, learnings: Learning[]): Learning[] {
  const batch = batches.get(db);
  if (!batch || (batch.changed.size === 0 && batch.counting.size === 0)) return learnings;
  return learnings.map((l) => {
    const count = batch.counting.get(l.agent);
    const c = count?.provisional.get(l.id);
    return c ? upToDate(batch, count!, c) : (batch.changed.get(l.id) ?? l);
  });
}

const PROVISIONAL_OF_AGENT = `SELECT ${LEARNING_COLUMNS} FROM learnings WHERE agent = ? AND state = 'provisional' ORDER BY last_at, rowid`;

/**
 * The agent's provisional learnings as the batch sees them, loaded at its first finished run.
 * Their order is the order of the lapse lines a finished run writes, so it must not depend on
 * where batches begin (a killed ingest resumes at another line and must end in the same ledger):
 * read from the ledger in order of last activity, as a batch's own list grows (a learning that
 * becomes provisional again joins at the end). The order is asked for, not left to whichever
 * index the read takes.
 */
function provisionalOf(db: Db, batch: Batch, agent: string): AgentCount {
  let count = batch.counting.get(agent);
  if (!count) {
    const read = stmt(db, PROVISIONAL_OF_AGENT).all(agent).map(toLearning);
    const provisional = new Map<string, Learning>();
    for (const l of withChanges(db, read)) if (l.state === 'provisional') provisional.set(l.id, l);
    for (const l of batch.changedOf.get(agent)?.values() ?? []) if (l.state === 'provisional') provisional.set(l.id, l);
    count = { finished: [], provisional: new Map(), due: new Map(), places: 0 };
    batch.counting.set(agent, count);
    for (const l of provisional.values()) track(batch, l);
  }
  return count;
}

/**
 * Counts a finished run against its agent's provisional learnings (docs/rules.md#counting-runs)
 * and returns those it lapsed, in the agent's order. Inside an ingest batch the others are
 * brought up to date only when read or written (see {@link AgentCount}); outside one, in a batch
 * of this run alone.
 */
export function countFinishedRun(db: Db, run: BatchFinishedRun): Learning[] {
  const batch = batches.get(db);
  if (!batch) return inLearningBatch(db, () => countFinishedRun(db, run));
  const count = provisionalOf(db, batch, run.agent);
  count.finished.push(run);
  const due = count.due.get(count.finished.length);
  if (!due) return [];
  count.due.delete(count.finished.length);
  const lapsed: Learning[] = [];
  for (const c of [...due].sort((a, b) => a.place - b.place)) {
    const l = upToDate(batch, count, c);
    if (l.state === 'lapsed') lapsed.push(l);
    else if (count.provisional.get(l.id) === c) schedule(count, c);
  }
  return lapsed;
}
