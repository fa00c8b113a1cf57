/**
 * Runs in the ledger: recording `run.started` / `run.finished`, counting a finished run against
 * the provisional learnings that were live when it started, and the read side (listing a run's
 * learnings and what changed since the agent's previous run).
 *
 * Each run keeps the ids of the learnings it was given, so "what was it told when it did that?"
 * always has an answer, also after the learning was rejected.
 */
import { Flags, Run, type Learning, type RunOutcome } from '../../../shared/domain.js';
import type { LearningRef } from '../../../shared/api.js';
import { countRun } from '../../rules/ledger.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { equalsWhere } from './where.js';
import { EventRefused, addHistory, markExportPending, normTime } from './learnings.js';
import { utcDay } from '../../rules/time.js';
import { provisionalLearnings, saveLearning } from './learningWrites.js';
import { LEARNING_COLUMNS, toLearning } from './learningRows.js';
import { columnList, jsonColumn, rowReader } from './rowCheck.js';

export interface RunStartedInput {
  run: string;
  agent: string;
  chain: string;
  workflow: string;
  flags: Flags;
  routes: string[];
  learnings: string[];
  answers?: string | null | undefined;
  at: string;
}

export interface RunFinishedInput {
  run: string;
  agent: string;
  outcome: RunOutcome;
  at: string;
}

/** What decides whether a run event can be applied: what is recorded of its run id. */
export interface RecordedRun {
  agent: string;
  finished_at: string | null;
}

/** The ledger's record of `run` (its start time too), or undefined when no start is recorded. */
export function recordedRun(db: Db, run: string): (RecordedRun & { started_at: string }) | undefined {
  return stmt(db, 'SELECT agent, started_at, finished_at FROM runs WHERE run = ?').get(run) as
    | (RecordedRun & { started_at: string })
    | undefined;
}

/**
 * Why a `run.started` cannot be applied given what is recorded of its run id (`recorded`), or
 * null when it can. The one rule, asked by ingest (`applyRunStarted`) and by `run start` before
 * it appends (with the ledger read-only and the lines not yet ingested on top).
 */
export function whyRunStartRefused(recorded: RecordedRun | undefined, e: { run: string }): string | null {
  return recorded ? `run ${e.run} has already started (duplicate run id)` : null;
}

/**
 * Why a `run.finished` cannot be applied given what is recorded of its run id, or null: a finish
 * without a recorded start, a second finish, or a finish naming another agent. Asked by ingest
 * (`applyRunFinished`) and by `run finish`, as `whyRunStartRefused`.
 */
export function whyRunFinishRefused(recorded: RecordedRun | undefined, e: { run: string; agent: string }): string | null {
  if (!recorded) return `run ${e.run} finished but has no recorded run.started`;
  if (recorded.finished_at !== null) return `run ${e.run} has already finished (at ${recorded.finished_at})`;
  if (recorded.agent !== e.agent) return `run ${e.run} belongs to agent ${recorded.agent}, not ${e.agent}`;
  return null;
}

/** Records a run's start; a second start of the same run id is refused. */
export function applyRunStarted(db: Db, e: RunStartedInput): void {
  const refused = whyRunStartRefused(recordedRun(db, e.run), e);
  if (refused !== null) throw new EventRefused(refused);
  const at = normTime(e.at);
  const given = [...new Set(e.learnings)];
  // The next seq is read first and inserted as a value: the same insert with `RETURNING seq`
  // cost about twice as much (SQLite buffers a returning statement's rows before the first one).
  const { seq } = stmt(db, 'SELECT coalesce(max(seq), 0) + 1 AS seq FROM runs').get() as { seq: number };
  stmt(
    db,
    `INSERT INTO runs (run, seq, agent, chain, workflow, flags, routes, learnings, answers, started_at, day)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    e.run,
    seq,
    e.agent,
    e.chain,
    e.workflow,
    JSON.stringify(e.flags),
    JSON.stringify(e.routes),
    JSON.stringify(given),
    e.answers ?? null,
    at,
    utcDay(at),
  );
  // One statement links every given learning the ledger knows (schema migration 5).
  if (given.length > 0) {
    stmt(
      db,
      `INSERT OR IGNORE INTO run_given (learning_rowid, run_seq)
       SELECT l.rowid, ? FROM json_each(?) j JOIN learnings l ON l.id = j.value`,
    ).run(seq, JSON.stringify(given));
  }
}

export interface RunFinishedResult {
  /** Learnings that lapsed because of this run. */
  lapsed: string[];
}

/**
 * Records a run's end and counts it against the agent's provisional learnings that were live
 * before it started. A finish without a recorded start, a second finish, or a finish naming
 * another agent is refused: the ledger cannot tell which learnings that run saw.
 */
export function applyRunFinished(db: Db, e: RunFinishedInput): RunFinishedResult {
  const row = recordedRun(db, e.run);
  const refused = whyRunFinishRefused(row, e);
  if (refused !== null) throw new EventRefused(refused);
  if (!row) throw new Error('unreachable: a finish without a recorded start is refused above');
  const at = normTime(e.at);
  stmt(db, 'UPDATE runs SET finished_at = ?, outcome = ? WHERE run = ?').run(at, e.outcome, e.run);

  // countRun decides for each provisional learning of the agent; in an ingest batch the changes
  // are written once when the batch commits (learningWrites.ts), not once per finished run.
  const lapsed: string[] = [];
  const run = { agent: e.agent, started_at: row.started_at, finished_at: at };
  for (const learning of provisionalLearnings(db, e.agent)) {
    const after = countRun(learning, run);
    if (!after) continue;
    saveLearning(db, after);
    if (after.state === 'lapsed') {
      lapsed.push(after.id);
      addHistory(db, {
        learning_id: after.id,
        at,
        kind: 'lapsed',
        run: e.run,
        reason: 'ran out of runs',
        state_before: 'provisional',
        state_after: 'lapsed',
      });
    }
  }
  if (lapsed.length > 0) markExportPending(db, [e.agent]);
  return { lapsed };
}

// ---------------------------------------------------------------------------------------------
// Read side

/**
 * A run's row: the `Run` record (shared/domain.ts) with its flags, routes and learnings stored as
 * JSON text. The columns are the record's field names.
 */
const RunRow = Run.extend({
  flags: jsonColumn(Flags),
  routes: jsonColumn(Run.shape.routes),
  learnings: jsonColumn(Run.shape.learnings),
});

/** Every field of a run, in the schema's order: the runs columns a record is read from. */
export const RUN_FIELDS = Run.keyof().options;

export const RUN_COLUMNS = columnList(RUN_FIELDS);

/** A row read with `RUN_COLUMNS`, checked by the `Run` schema (rowCheck.ts). */
export const toRun = rowReader(RunRow, (row) => `run ${String(row.run)}`);

export interface ListRunsInput {
  agent?: string | undefined;
  chain?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/** Runs, newest first. */
export function listRuns(db: Db, input: ListRunsInput = {}): { total: number; rows: Run[] } {
  const where = equalsWhere({ agent: input.agent, chain: input.chain });
  const total = (stmt(db, `SELECT count(*) AS n FROM runs ${where.sql}`).get(where.params) as { n: number }).n;
  const rows = stmt(db, `SELECT ${RUN_COLUMNS} FROM runs ${where.sql} ORDER BY seq DESC LIMIT @limit OFFSET @offset`)
    .all({ ...where.params, limit: input.limit ?? 100, offset: input.offset ?? 0 })
    .map(toRun);
  return { total, rows };
}

export interface RunDetail {
  run: Run;
  given: LearningRef[];
  previous: string | null;
  added: string[];
  removed: string[];
}

/** A run with the learnings it was given and what changed since the agent's previous run. */
export function runDetail(db: Db, runId: string): RunDetail | undefined {
  const row = stmt(db, `SELECT seq, ${RUN_COLUMNS} FROM runs WHERE run = ?`).get(runId) as { seq: number } | undefined;
  if (!row) return undefined;
  const run = toRun(row);
  const learnings = new Map(
    stmt(db, `SELECT ${LEARNING_COLUMNS} FROM learnings WHERE id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(run.learnings))
      .map(toLearning)
      .map((l): [string, Learning] => [l.id, l]),
  );
  const given: LearningRef[] = [];
  for (const id of run.learnings) {
    const l = learnings.get(id);
    if (l) given.push({ id: l.id, text: l.text, state: l.state, impact: l.impact });
  }
  const prev = stmt(db, `SELECT run, learnings FROM runs WHERE agent = ? AND seq < ? ORDER BY seq DESC LIMIT 1`)
    .get(run.agent, row.seq) as { run: string; learnings: string } | undefined;
  const before = new Set(prev ? (JSON.parse(prev.learnings) as string[]) : []);
  const now = new Set(run.learnings);
  return {
    run,
    given,
    previous: prev?.run ?? null,
    added: prev ? run.learnings.filter((id) => !before.has(id)) : [],
    removed: prev ? [...before].filter((id) => !now.has(id)) : [],
  };
}
