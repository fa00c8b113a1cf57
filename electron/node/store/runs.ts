/**
 * Runs in the ledger: recording `run.started` / `run.finished`, counting a finished run against
 * the provisional learnings that were live when it started, and the read side (listing a run's
 * learnings and what changed since the agent's previous run).
 *
 * Each run keeps the ids of the learnings it was given, so "what was it told when it did that?"
 * always has an answer, also after the learning was rejected.
 */
import { z } from 'zod';
import { Flags, Learning, Run, type HelpRequest, type RunOutcome } from '../../../shared/domain.js';
import { RunProposal, type GivenLearning, type RunOutcomeFilter } from '../../../shared/api.js';
import { isDecisionSnapshot } from '../../rules/ledger.js';
import { standingAt, type CountedRun, type StandingLine } from '../../rules/standing.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { equalsWhere, idSearch, type Condition } from './where.js';
import { EventRefused, addHistory, normTime } from './learnings.js';
import { utcDay } from '../../rules/time.js';
import { countFinishedRun, tallyFinishedRun } from './learningWrites.js';
import { helpOfRun } from './help.js';
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

/** What a finish needs of its run besides {@link RecordedRun}: its seq, start and list of given learnings (JSON text). */
type RecordedRunRow = RecordedRun & { seq: number; started_at: string; learnings: string };

/** The ledger's record of `run`, or undefined when no start is recorded. */
export function recordedRun(db: Db, run: string): RecordedRunRow | undefined {
  return stmt(db, 'SELECT seq, agent, started_at, finished_at, learnings FROM runs WHERE run = ?').get(run) as RecordedRunRow | undefined;
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

/**
 * Records a run's start; a second start of the same run id is refused. The insert itself finds a
 * duplicate (it adds no row when the run id is taken), so a start reads nothing first; only then
 * is the recorded run read, for the refusal's words.
 */
export function applyRunStarted(db: Db, e: RunStartedInput): void {
  const at = normTime(e.at);
  // The learnings given are the run's list, once each: its finish counts them (schema migration 13).
  const given = JSON.stringify([...new Set(e.learnings)]);
  // The seq is the table's key (schema migration 12): SQLite gives the new row the next one.
  const inserted = stmt(
    db,
    `INSERT INTO runs (run, agent, chain, workflow, flags, routes, learnings, answers, started_at, day)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run) DO NOTHING`,
  ).run(
    e.run,
    e.agent,
    e.chain,
    e.workflow,
    JSON.stringify(e.flags),
    JSON.stringify(e.routes),
    given,
    e.answers ?? null,
    at,
    utcDay(at),
  );
  if (inserted.changes === 0) throw new EventRefused(whyRunStartRefused(recordedRun(db, e.run), e) ?? `run ${e.run} could not be recorded`);
}

export interface RunFinishedResult {
  /** Learnings that lapsed because of this run. */
  lapsed: string[];
}

/**
 * Records a run's end and counts it against the agent's provisional learnings that were live
 * before it started. A finish without a recorded start, a second finish, or a finish naming
 * another agent is refused: the ledger cannot tell which learnings that run saw. When some lapsed,
 * the agent's learnings file is due again: the caller marks it (ingest does, once a batch).
 */
export function applyRunFinished(db: Db, e: RunFinishedInput): RunFinishedResult {
  const row = recordedRun(db, e.run);
  const refused = whyRunFinishRefused(row, e);
  if (refused !== null) throw new EventRefused(refused);
  if (!row) throw new Error('unreachable: a finish without a recorded start is refused above');
  const at = normTime(e.at);
  // By the seq just read (the table's key), so the run id is looked up once.
  stmt(db, 'UPDATE runs SET finished_at = ?, outcome = ? WHERE seq = ?').run(at, e.outcome, row.seq);
  tallyFinishedRun(db, { agent: row.agent, learnings: row.learnings, succeeded: e.outcome === 'succeeded' });

  // Counted lazily in an ingest batch (learningWrites.ts): only the learnings this run lapses are seen here.
  const lapsed: string[] = [];
  for (const learning of countFinishedRun(db, { run: e.run, agent: e.agent, started_at: row.started_at, finished_at: at })) {
    lapsed.push(learning.id);
    addHistory(db, {
      learning_id: learning.id,
      at,
      kind: 'lapsed',
      run: e.run,
      reason: 'ran out of runs',
      state_before: 'provisional',
      state_after: 'lapsed',
    });
  }
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
  workflow?: string | undefined;
  /** A finished run's outcome, or `running` for a run with no finish yet. */
  outcome?: RunOutcomeFilter | undefined;
  /** A run, chain or help request id, or the start of one (docs/window.md#runs). */
  search?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/**
 * The WHERE clause of a runs listing. Every condition goes through an index: agent, chain,
 * workflow and outcome by their own (schema migrations 1 and 9), a searched id as a range of the
 * run's key, of the chain index and of the requests' key (the runs that filed a request whose id
 * starts so) — an id or its prefix, never a scan for a substring, so a search stays quick on a
 * factory with a hundred thousand runs. Exported for the test that holds it to the indexes.
 */
export function runsWhere(input: ListRunsInput): { sql: string; params: Record<string, unknown> } {
  const outcome: Condition | null =
    input.outcome === 'running' ? { sql: 'outcome IS NULL' } : input.outcome ? { sql: 'outcome = @outcome', params: { outcome: input.outcome } } : null;
  const search = idSearch(
    `run >= @lo AND run < @hi OR chain >= @lo AND chain < @hi
     OR run IN (SELECT h.run FROM help_requests h WHERE h.id >= @lo AND h.id < @hi)`,
    input.search,
  );
  return equalsWhere({ agent: input.agent, chain: input.chain, workflow: input.workflow }, undefined, [outcome, search]);
}

/** Runs, newest first, narrowed by the filters given. */
export function listRuns(db: Db, input: ListRunsInput = {}): { total: number; rows: Run[] } {
  const where = runsWhere(input);
  const total = (stmt(db, `SELECT count(*) AS n FROM runs ${where.sql}`).get(where.params) as { n: number }).n;
  const rows = stmt(db, `SELECT ${RUN_COLUMNS} FROM runs ${where.sql} ORDER BY seq DESC LIMIT @limit OFFSET @offset`)
    .all({ ...where.params, limit: input.limit ?? 100, offset: input.offset ?? 0 })
    .map(toRun);
  return { total, rows };
}

/**
 * Every workflow a run has, for the runs filter's choices. Apart from the listing because it
 * depends on neither the filter nor the page: asked with every page it was a scan of the runs'
 * workflow index per page turned and per key typed in the search.
 */
export function listWorkflows(db: Db): string[] {
  // Rows mapped, not `.pluck()`: a mode switched on a cached statement sticks to it (statements.ts).
  return (stmt(db, 'SELECT DISTINCT workflow FROM runs ORDER BY workflow').all() as { workflow: string }[]).map((r) => r.workflow);
}

export interface RunDetail {
  run: Run;
  given: GivenLearning[];
  proposed: RunProposal[];
  asked: HelpRequest[];
  previous: string | null;
  added: string[];
  removed: string[];
}

/** What the run detail reads of a learning it was given, checked by the `Learning` schema's own fields. */
const toGivenRow = rowReader(Learning.pick({ id: true, text: true, impact: true, state: true, first_at: true }), (row) => `learning ${String(row.id)}`);

/** A proposal of the run with its learning's state now, checked by the API's `RunProposal` schema. */
const toRunProposal = rowReader(RunProposal, (row) => `proposal of run ${String(row.run)} at ${String(row.at)}`);

/** The given learnings of the agent's previous run, as the run's record stores them. */
const PREVIOUS_LEARNINGS = rowReader(z.object({ run: z.string(), learnings: jsonColumn(Run.shape.learnings) }), (row) => `run ${String(row.run)}`);

/**
 * Each learning the run was given as it stood when the run started (rules/standing.ts): its
 * history lines from before the start, read in one query for all of them, and the agent's runs
 * that finished before the start since the earliest of them was first proposed, counted by the
 * replay. `provisionalRuns` is the setting in force: what a proposal or rediscovery gave.
 */
function givenAsTheyStood(db: Db, run: Run, provisionalRuns: number): GivenLearning[] {
  const ids = JSON.stringify(run.learnings);
  const rows = new Map(
    stmt(db, 'SELECT id, text, impact, state, first_at FROM learnings WHERE id IN (SELECT value FROM json_each(?))')
      .all(ids)
      .map((r) => {
        const given = toGivenRow(r);
        return [given.id, given];
      }),
  );
  if (rows.size === 0) return [];
  const lines = new Map<string, StandingLine[]>();
  const history = stmt(
    db,
    `SELECT learning_id, at, kind, state_after, undo FROM learning_history
     WHERE learning_id IN (SELECT value FROM json_each(?)) AND at < ? ORDER BY seq`,
  ).all(ids, run.started_at) as (Omit<StandingLine, 'undo'> & { learning_id: string; undo: string | null })[];
  for (const { learning_id, undo, ...line } of history) {
    let own = lines.get(learning_id);
    if (!own) lines.set(learning_id, (own = []));
    const snapshot = undo === null ? null : (JSON.parse(undo) as unknown);
    own.push({ ...line, undo: isDecisionSnapshot(snapshot) ? snapshot : null });
  }
  const earliest = [...rows.values()].reduce((min, r) => (r.first_at < min ? r.first_at : min), run.started_at);
  const counted = stmt(
    db,
    `SELECT started_at, finished_at FROM runs
     WHERE agent = ? AND finished_at IS NOT NULL AND finished_at < ? AND started_at > ? ORDER BY finished_at`,
  ).all(run.agent, run.started_at, earliest) as CountedRun[];
  const given: GivenLearning[] = [];
  for (const id of run.learnings) {
    const row = rows.get(id);
    if (!row) continue;
    const then = standingAt(lines.get(id) ?? [], counted, run.started_at, provisionalRuns);
    given.push({ id, text: row.text, impact: row.impact, state: then?.state ?? null, runs_left: then?.runs_left ?? null, now: row.state });
  }
  return given;
}

/**
 * A run with what it was given (as it stood then), what it proposed (with what became of each
 * learning since), what it asked, and what changed in what it was given since the agent's
 * previous run.
 */
export function runDetail(db: Db, runId: string, provisionalRuns: number): RunDetail | undefined {
  const row = stmt(db, `SELECT seq, ${RUN_COLUMNS} FROM runs WHERE run = ?`).get(runId) as { seq: number } | undefined;
  if (!row) return undefined;
  const run = toRun(row);
  const proposed = stmt(
    db,
    `SELECT p.at, p.agent, p.run, p.text, p.impact, p.outcome, p.learning_id, p.reason, 1 AS count, l.state AS now
     FROM proposals p LEFT JOIN learnings l ON l.id = p.learning_id WHERE p.run = ? ORDER BY p.seq`,
  )
    .all(runId)
    .map(toRunProposal);
  const prevRow = stmt(db, `SELECT run, learnings FROM runs WHERE agent = ? AND seq < ? ORDER BY seq DESC LIMIT 1`).get(run.agent, row.seq);
  const prev = prevRow === undefined ? undefined : PREVIOUS_LEARNINGS(prevRow);
  const before = new Set(prev?.learnings ?? []);
  const now = new Set(run.learnings);
  return {
    run,
    given: givenAsTheyStood(db, run, provisionalRuns),
    proposed,
    asked: helpOfRun(db, runId),
    previous: prev?.run ?? null,
    added: prev ? run.learnings.filter((id) => !before.has(id)) : [],
    removed: prev ? [...before].filter((id) => !now.has(id)) : [],
  };
}
