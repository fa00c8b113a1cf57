/**
 * The read side of the learnings ledger, shaped exactly as `shared/api.ts` returns it:
 * the filtered, sorted, paged list with its per-state counts, and one learning's detail with
 * its history and the evidence of the runs it was given.
 *
 * Filtering, sorting and search happen in SQL (FTS5 for the text), so a page costs the same with
 * a hundred learnings or a hundred thousand.
 */
import type { HistoryEntry, Learning, Run } from '../../../shared/domain.js';
import type { LearningFilter, RunEvidence, StateCounts } from '../../../shared/api.js';
import { LEARNING_SORTS } from '../../../shared/api.js';
import { wilsonLower } from '../../rules/ledger.js';
import type { Db } from './db.js';
import { filterWhere } from './learnings.js';
import { LEARNING_COLUMNS, getLearning, toLearning } from './learningRows.js';
import { RUN_COLUMNS, toRun } from './runs.js';

export type LearningSort = (typeof LEARNING_SORTS)[number];

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

const SORT_SQL: Record<LearningSort, string> = {
  last_at: 'last_at',
  first_at: 'first_at',
  impact: "CASE impact WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END",
  runs_left: 'runs_left',
  rediscoveries: 'rediscoveries',
  echoes: 'echoes',
  agent: 'agent',
  state: "CASE state WHEN 'provisional' THEN 1 WHEN 'confirmed' THEN 2 WHEN 'lapsed' THEN 3 ELSE 4 END",
};

/**
 * The agents that have learnings, found by seeking the index from one agent to the next: one
 * index probe per agent, where `SELECT DISTINCT` would read every learning.
 */
function agentsWithLearnings(db: Db): string[] {
  return (
    db
      .prepare(
        `WITH RECURSIVE next (agent) AS (
           SELECT min(agent) FROM learnings
           UNION ALL
           SELECT (SELECT min(agent) FROM learnings WHERE agent > next.agent) FROM next WHERE next.agent IS NOT NULL)
         SELECT agent FROM next WHERE agent IS NOT NULL`,
      )
      .all() as { agent: string }[]
  ).map((r) => r.agent);
}

export function queryLearnings(db: Db, query: LearningQuery = {}): LearningPage {
  const filter = query.filter ?? {};
  const sortKey = query.sort ?? 'last_at';
  const dir = query.dir === 'asc' ? 'ASC' : 'DESC';
  // `rowid` breaks ties so pages never overlap or skip; with the default sort the whole order
  // then follows the (agent, state, last_at) index and a page reads only its own rows.
  const order =
    sortKey === 'last_at' ? `last_at ${dir}, rowid ${dir}` : `${SORT_SQL[sortKey]} ${dir}, last_at ${dir}, rowid ${dir}`;
  const where = filterWhere(filter);
  const total = (db.prepare(`SELECT count(*) AS n FROM learnings ${where.sql}`).get(where.params) as { n: number }).n;
  // The page is chosen on row ids first, so sorting never carries the texts along.
  const rows = db
    .prepare(
      `SELECT ${LEARNING_COLUMNS} FROM learnings
       WHERE rowid IN (SELECT rowid FROM learnings ${where.sql} ORDER BY ${order} LIMIT @limit OFFSET @offset)
       ORDER BY ${order}`,
    )
    .all({ ...where.params, limit: query.limit ?? 100, offset: query.offset ?? 0 })
    .map(toLearning);

  const others = filterWhere(filter, false);
  const counts: StateCounts = { provisional: 0, confirmed: 0, lapsed: 0, rejected: 0 };
  for (const row of db
    .prepare(`SELECT state, count(*) AS n FROM learnings ${others.sql} GROUP BY state`)
    .all(others.params) as { state: keyof StateCounts; n: number }[]) {
    counts[row.state] = row.n;
  }
  return { total, rows, counts, agents: agentsWithLearnings(db) };
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
}

/** Most runs listed in a learning's detail (newest first); the evidence counts them all. */
export const DETAIL_RUNS = 200;

export function learningDetail(db: Db, id: string): LearningDetail | undefined {
  const learning = getLearning(db, id);
  if (!learning) return undefined;
  const history = db
    .prepare(
      `SELECT at, kind, by, reason, run, state_before, state_after FROM learning_history
       WHERE learning_id = ? ORDER BY seq`,
    )
    .all(id) as HistoryEntry[];
  const given = db
    .prepare(
      `SELECT count(*) AS runs, sum(r.outcome = 'succeeded') AS succeeded
       FROM run_learnings g JOIN runs r ON r.run = g.run
       WHERE g.learning_id = ? AND r.finished_at IS NOT NULL`,
    )
    .get(id) as { runs: number; succeeded: number | null };
  const overall = db
    .prepare(
      `SELECT count(*) AS runs, sum(outcome = 'succeeded') AS succeeded
       FROM runs WHERE agent = ? AND finished_at IS NOT NULL`,
    )
    .get(learning.agent) as { runs: number; succeeded: number | null };
  const runs = db
    .prepare(
      `SELECT ${RUN_COLUMNS.split(', ').map((c) => `r.${c}`).join(', ')}
       FROM run_learnings g JOIN runs r ON r.run = g.run
       WHERE g.learning_id = ? ORDER BY r.seq DESC LIMIT ?`,
    )
    .all(id, DETAIL_RUNS)
    .map(toRun);
  return { learning, history, given: evidence(given), agent_overall: evidence(overall), runs };
}
