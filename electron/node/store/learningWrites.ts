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
import { LEARNING_COLUMNS, MUTABLE_FIELDS, NEXT_CHANGED, toLearning } from './learningRows.js';

interface Batch {
  /** Learnings changed in this batch, by id, not written yet. */
  changed: Map<string, Learning>;
  /** The same, per agent. */
  changedOf: Map<string, Map<string, Learning>>;
  /** Per agent, its provisional learnings as the batch sees them (loaded at first use). */
  provisional: Map<string, Map<string, Learning>>;
}

const batches = new WeakMap<Db, Batch>();

/** Starts keeping changed learnings in memory until {@link endLearningBatch}. */
export function beginLearningBatch(db: Db): void {
  batches.set(db, { changed: new Map(), changedOf: new Map(), provisional: new Map() });
}

/** Writes every learning changed in the batch (inside the batch's transaction) and ends it. */
export function endLearningBatch(db: Db): void {
  const batch = batches.get(db);
  batches.delete(db);
  if (!batch || batch.changed.size === 0) return;
  writeLearnings(db, [...batch.changed.values()]);
}

/**
 * Writes learnings in one statement: a batch can change thousands (a finished run counts against
 * every provisional learning of its agent; a person rejects ten thousand at once). Each gets a
 * `changed` stamp above every earlier one. The fields it writes are `MUTABLE_FIELDS`, made from the schema (learningRows.ts).
 */
function writeLearnings(db: Db, learnings: readonly Learning[]): void {
  const rows = learnings.map((l) => [l.id, ...MUTABLE_FIELDS.map((field) => l[field])]);
  stmt(
    db,
    `UPDATE learnings SET ${MUTABLE_FIELDS.map((field, i) => `${field} = j.value ->> ${i + 1}`).join(', ')}, changed = ${NEXT_CHANGED}
     FROM json_each(?) j WHERE learnings.id = j.value ->> 0`,
  ).run(JSON.stringify(rows));
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

/** Writes back the mutable fields of a learning (`MUTABLE_FIELDS`: text, agent and id never change). */
export function saveLearning(db: Db, l: Learning): void {
  const batch = batches.get(db);
  if (!batch) return writeLearnings(db, [l]);
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
