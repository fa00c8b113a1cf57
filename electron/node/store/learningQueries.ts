/**
 * The read side of the learnings ledger, shaped exactly as `shared/api.ts` returns it:
 * the filtered, sorted, paged list with its per-state counts, and one learning's detail with
 * its history and the evidence of the runs it was given.
 *
 * The list's filters, sorts and counts come from the in-memory list (`learningList.ts`); only a
 * page's rows and a detail's history and evidence are read with SQL.
 */
import { HistoryEntry, type DecisionKind, type Learning, type Run } from '../../../shared/domain.js';
import type { LearningFilter, NextRun, RunEvidence, StateCounts } from '../../../shared/api.js';
import { decisionsOn, wilsonLower } from '../../rules/ledger.js';
import { nextRunPlace } from '../exporter.js';
import type { Db } from './db.js';
import { listPage, type LearningSort } from './learningList.js';
import { stmt } from './statements.js';
import { LEARNING_FIELDS, getLearning, toLearning } from './learningRows.js';
import { RUN_FIELDS, toRun } from './runs.js';
import { columnList, rowReader } from './rowCheck.js';

export interface LearningQuery {
  filter?: LearningFilter | undefined;
  sort?: LearningSort | undefined;
  dir?: 'asc' | 'desc' | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

export interface LearningPage {
  total: number;
  rows: Learning[];
  counts: StateCounts;
  agents: string[];
}

/**
 * A page of the learnings list (filters, sort, search, counts: see `learningList.ts`), with the
 * page's learnings read from the ledger.
 */
export function queryLearnings(db: Db, query: LearningQuery = {}): LearningPage {
  const page = listPage(db, {
    filter: query.filter ?? {},
    sort: query.sort ?? 'last_at',
    dir: query.dir === 'asc' ? 'asc' : 'desc',
    offset: query.offset ?? 0,
    limit: query.limit ?? 100,
  });
  // The page's rows in one statement, in page order: a statement run per row cost about as much
  // as choosing and sorting the page.
  const rows = stmt(db, `SELECT ${columnList(LEARNING_FIELDS, 'l')} FROM json_each(?) j JOIN learnings l ON l.rowid = j.value ORDER BY j.key`)
    .all(JSON.stringify(page.rowids))
    .map(toLearning);
  return { total: page.total, rows, counts: page.counts, agents: page.agents };
}

function evidence(row: { runs: number; succeeded: number | null }): RunEvidence {
  const succeeded = row.succeeded ?? 0;
  return { runs: row.runs, succeeded, wilson_lower: wilsonLower(succeeded, row.runs) };
}

export interface LearningDetail {
  learning: Learning;
  history: HistoryEntry[];
  given: RunEvidence;
  agent_overall: RunEvidence;
  runs: Run[];
  next_run: NextRun;
  decisions: DecisionKind[];
}

/** Most runs listed in a learning's detail (newest first); the evidence counts them all. */
export const DETAIL_RUNS = 200;

/**
 * A line of a learning's history, read by the columns of its record's fields (and the learning's
 * id, to name it if it does not check out) and checked by its schema (rowCheck.ts).
 */
const toHistoryEntry = rowReader(HistoryEntry, (row) => `history line of ${String(row.learning_id)} at ${String(row.at)}`);

/** One learning's detail; `maxPerRun` is the cap its agent's next run is given (`[learnings]`). */
export function learningDetail(db: Db, id: string, maxPerRun: number): LearningDetail | undefined {
  const learning = getLearning(db, id);
  if (!learning) return undefined;
  const history = stmt(
    db,
    `SELECT learning_id, ${columnList(HistoryEntry.keyof().options)} FROM learning_history
     WHERE learning_id = ? ORDER BY seq`,
  ).all(id)
    .map(toHistoryEntry);
  // From the counts the ledger keeps as runs finish (schema migration 10, kept by triggers),
  // as Worth a look reads them: counting the runs here read every run the learning was given,
  // for every detail opened.
  const none = { runs: 0, succeeded: 0 };
  const given = (stmt(
    db,
    'SELECT runs, succeeded FROM learning_run_counts WHERE learning_rowid = (SELECT rowid FROM learnings WHERE id = ?)',
  ).get(id) ?? none) as { runs: number; succeeded: number };
  const overall = (stmt(db, 'SELECT runs, succeeded FROM agent_run_counts WHERE agent = ?').get(learning.agent) ?? none) as {
    runs: number;
    succeeded: number;
  };
  // A run's links are its own list (schema migration 13), counted for the learnings of its agent:
  // its agent's runs newest first (runs_agent), those whose list names the id. `instr` on the id
  // as the list writes it (JSON, runs.ts) passes over the others without reading their JSON.
  const runs = stmt(
    db,
    `SELECT ${columnList(RUN_FIELDS, 'r')} FROM runs r
     WHERE r.agent = ? AND instr(r.learnings, ?) > 0 AND EXISTS (SELECT 1 FROM json_each(r.learnings) WHERE value = ?)
     ORDER BY r.seq DESC LIMIT ?`,
  ).all(learning.agent, JSON.stringify(id), id, DETAIL_RUNS)
    .map(toRun);
  return {
    learning,
    history,
    given: evidence(given),
    agent_overall: evidence(overall),
    runs,
    next_run: nextRunPlace(db, learning, maxPerRun),
    decisions: decisionsOn(learning.state),
  };
}
