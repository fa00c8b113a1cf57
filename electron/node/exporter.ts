/**
 * Writes what an agent's next run is given: `learnings/<agent>.json`, in the docs/rules.md#learnings order,
 * at most `max_per_run` learnings, atomically (a run starting while it is written reads the old
 * list or the new one, never half).
 *
 * Which agents need a new file is recorded in the ledger (`export_pending`) in the same
 * transaction as the change, and cleared only after the file is written, so a crash in between
 * leaves the mark and the next export catches up.
 */
import type { z } from 'zod';
import type { NextRun } from '../../shared/api.js';
import { Learning } from '../../shared/domain.js';
import { compareForRun, isActive } from '../rules/ledger.js';
import { isAgentName } from '../rules/events.js';
import type { Db } from './store/db.js';
import { fsyncFolder, writeFileAtomic } from './atomicFile.js';
import { factoryPaths, learningsFileFor } from './factory.js';
import { stmt } from './store/statements.js';
import { rowReader } from './store/rowCheck.js';
import { ACTIVE_SQL } from './store/learningRows.js';

/** What a run is told of a learning: a part of the one Learning schema. */
const ExportedLearning = Learning.pick({ id: true, text: true, state: true, impact: true });
export type ExportedLearning = z.infer<typeof ExportedLearning>;

/** A row of the run order, with what the rule sorts by: checked by its schema (store/rowCheck.ts). */
const toRunOrderRow = rowReader(ExportedLearning.extend({ agent: Learning.shape.agent, last_at: Learning.shape.last_at }), (row) => `learning ${String(row.id)}`);

export interface LearningsFile {
  agent: string;
  generated_at: string;
  learnings: ExportedLearning[];
}

/**
 * The order a run is given its agent's learnings in, as SQL: {@link compareForRun} (the rule,
 * docs/rules.md#learnings) spelled for SQLite. The export and the detail's "in the next run?"
 * both rank with this one clause, so the rank the window shows is the place in the file the run
 * reads; a second spelling could drift and show "rank 4" for a learning the run never sees.
 */
const RUN_ORDER_SQL = `CASE state WHEN 'confirmed' THEN 0 ELSE 1 END, CASE impact WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END, last_at DESC, id ASC`;

/**
 * The learnings a run of each of `agents` is given now, in order, at most `maxPerRun` each: one
 * query over the (agent, state) index for all of them, as a decision over ten thousand learnings
 * re-exports every agent at once and the person waits for it.
 */
export function activeForRuns(db: Db, agents: readonly string[], maxPerRun: number): Map<string, ExportedLearning[]> {
  const rows = stmt(
    db,
    `SELECT agent, id, text, state, impact, last_at FROM (
       SELECT agent, id, text, state, impact, last_at, row_number() OVER (PARTITION BY agent ORDER BY ${RUN_ORDER_SQL}) AS place
       FROM learnings WHERE agent IN (SELECT value FROM json_each(?)) AND ${ACTIVE_SQL})
     WHERE place <= ?`,
  ).all(JSON.stringify(agents), Math.max(0, maxPerRun)).map(toRunOrderRow);
  const byAgent = new Map(agents.map((agent) => [agent, [] as typeof rows]));
  for (const row of rows) byAgent.get(row.agent)!.push(row);
  // The SQL order is the rule's order; sorting again with the rule keeps the two from drifting.
  return new Map([...byAgent].map(([agent, given]) => [agent, given.sort(compareForRun).map(({ id, text, state, impact }) => ({ id, text, state, impact }))]));
}

/** The learnings a run of `agent` is given now, in order, at most `maxPerRun`. */
export function activeForRun(db: Db, agent: string, maxPerRun: number): ExportedLearning[] {
  return activeForRuns(db, [agent], maxPerRun).get(agent)!;
}

/**
 * Where a learning stands for its agent's next run: its place in the run order among the agent's
 * given learnings, and whether that place is within the `max_per_run` cap. Display only
 * (docs/window.md#learnings): it answers "why did the run not see this?" without opening files.
 */
export function nextRunPlace(db: Db, learning: Pick<Learning, 'id' | 'agent' | 'state'>, maxPerRun: number): NextRun {
  if (!isActive(learning.state)) return { place: 'not_given', state: learning.state };
  const cap = Math.max(0, maxPerRun);
  const row = stmt(
    db,
    `SELECT place, total FROM (
       SELECT id, row_number() OVER (ORDER BY ${RUN_ORDER_SQL}) AS place, count(*) OVER () AS total
       FROM learnings WHERE agent = ? AND ${ACTIVE_SQL})
     WHERE id = ?`,
  ).get(learning.agent, learning.id) as { place: number; total: number } | undefined;
  if (!row) throw new Error(`learning ${learning.id} of ${learning.agent} is ${learning.state} but not among its agent's given learnings`);
  if (row.place > cap) return { place: 'below_cap', rank: row.place, cap };
  return { place: 'in_run', rank: row.place, of: Math.min(row.total, cap), cap };
}

/**
 * Writes the files of `agents` (their learnings read in one query), then flushes `learnings/`
 * once. The callers clear the export marks only after this returns: a mark cleared before the
 * folder is on disk could outlive a rename a power cut undid, and the agent would be given its old
 * list until its next change. One flush for all the files, not one each: an ingest batch touching
 * 50 agents would pay 50.
 */
function exportAgents(db: Db, factory: string, agents: readonly string[], maxPerRun: number): void {
  if (agents.length === 0) return;
  const now = new Date();
  for (const [agent, learnings] of activeForRuns(db, agents, maxPerRun)) {
    if (!isAgentName(agent)) throw new Error(`refusing to export for the agent name ${JSON.stringify(agent)}`);
    const file: LearningsFile = { agent, generated_at: now.toISOString(), learnings };
    writeFileAtomic(learningsFileFor(factory, agent), `${JSON.stringify(file, null, 2)}\n`);
  }
  fsyncFolder(factoryPaths(factory).learnings);
}

/**
 * Writes the file of every agent marked as pending, then clears their marks (one statement). A
 * write that fails leaves every mark, so the next export writes them all again. Returns the agents.
 */
export function exportPending(db: Db, factory: string, maxPerRun: number): string[] {
  const agents = stmt(db, 'SELECT agent FROM export_pending ORDER BY agent').all().map((row) => (row as { agent: string }).agent);
  exportAgents(db, factory, agents, maxPerRun);
  if (agents.length > 0) stmt(db, 'DELETE FROM export_pending WHERE agent IN (SELECT value FROM json_each(?))').run(JSON.stringify(agents));
  return agents;
}

/** Re-writes every agent's file (after `max_per_run` changed, or on request). */
export function exportAll(db: Db, factory: string, maxPerRun: number): string[] {
  const agents = stmt(db, 'SELECT DISTINCT agent FROM learnings ORDER BY agent').all().map((row) => (row as { agent: string }).agent);
  exportAgents(db, factory, agents, maxPerRun);
  stmt(db, 'DELETE FROM export_pending').run();
  return agents;
}

/** Reads an agent's exported file; an absent file means no learnings yet. */
export function readLearningsFile(text: string): LearningsFile {
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as LearningsFile).learnings)) {
    throw new Error('not a learnings file (no "learnings" list)');
  }
  return parsed as LearningsFile;
}
