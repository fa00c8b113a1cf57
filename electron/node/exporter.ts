/**
 * Writes what an agent's next run is given: `learnings/<agent>.json`, in the docs/rules.md#learnings order,
 * at most `max_per_run` learnings, atomically (a run starting while it is written reads the old
 * list or the new one, never half).
 *
 * Which agents need a new file is recorded in the ledger (`export_pending`) in the same
 * transaction as the change, and cleared only after the file is written, so a crash in between
 * leaves the mark and the next export catches up.
 */
import type { Impact, LearningState } from '../../shared/domain.js';
import { compareForRun } from '../rules/ledger.js';
import { isAgentName } from '../rules/events.js';
import type { Db } from './store/db.js';
import { fsyncFolder, writeFileAtomic } from './atomicFile.js';
import { factoryPaths, learningsFileFor } from './factory.js';

export interface ExportedLearning {
  id: string;
  text: string;
  state: LearningState;
  impact: Impact;
}

export interface LearningsFile {
  agent: string;
  generated_at: string;
  learnings: ExportedLearning[];
}

/** The learnings a run of `agent` is given now, in order, at most `maxPerRun`. */
export function activeForRun(db: Db, agent: string, maxPerRun: number): ExportedLearning[] {
  const rows = db
    .prepare(
      `SELECT id, text, state, impact, last_at FROM learnings
       WHERE agent = ? AND state IN ('confirmed', 'provisional')
       ORDER BY CASE state WHEN 'confirmed' THEN 0 ELSE 1 END,
                CASE impact WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END,
                last_at DESC, id ASC
       LIMIT ?`,
    )
    .all(agent, Math.max(0, maxPerRun)) as Array<ExportedLearning & { last_at: string }>;
  // The SQL order is the rule's order; sorting again with the rule keeps the two from drifting.
  rows.sort(compareForRun);
  return rows.map(({ id, text, state, impact }) => ({ id, text, state, impact }));
}

/** Writes `learnings/<agent>.json` for one agent; the folder is flushed by {@link exportAgents}. */
function exportAgent(db: Db, factory: string, agent: string, maxPerRun: number, now: Date): void {
  if (!isAgentName(agent)) throw new Error(`refusing to export for the agent name ${JSON.stringify(agent)}`);
  const file: LearningsFile = { agent, generated_at: now.toISOString(), learnings: activeForRun(db, agent, maxPerRun) };
  writeFileAtomic(learningsFileFor(factory, agent), `${JSON.stringify(file, null, 2)}\n`);
}

/**
 * Writes the files of `agents`, then flushes `learnings/` once. The callers clear the export marks
 * only after this returns: a mark cleared before the folder is on disk could outlive a rename a
 * power cut undid, and the agent would be given its old list until its next change. One flush for
 * all the files, not one each: an ingest batch touching 50 agents would pay 50.
 */
function exportAgents(db: Db, factory: string, agents: readonly string[], maxPerRun: number): void {
  if (agents.length === 0) return;
  const now = new Date();
  for (const agent of agents) exportAgent(db, factory, agent, maxPerRun, now);
  fsyncFolder(factoryPaths(factory).learnings);
}

/**
 * Writes the file of every agent marked as pending, then clears the marks. Returns the agents.
 * A write that fails leaves every mark, so the next export writes them all again.
 */
export function exportPending(db: Db, factory: string, maxPerRun: number): string[] {
  const agents = (db.prepare('SELECT agent FROM export_pending ORDER BY agent').all() as { agent: string }[]).map((r) => r.agent);
  exportAgents(db, factory, agents, maxPerRun);
  const clear = db.prepare('DELETE FROM export_pending WHERE agent = ?');
  db.transaction(() => {
    for (const agent of agents) clear.run(agent);
  })();
  return agents;
}

/** Re-writes every agent's file (after `max_per_run` changed, or on request). */
export function exportAll(db: Db, factory: string, maxPerRun: number): string[] {
  const agents = (db.prepare('SELECT DISTINCT agent FROM learnings ORDER BY agent').all() as { agent: string }[]).map((r) => r.agent);
  exportAgents(db, factory, agents, maxPerRun);
  db.prepare('DELETE FROM export_pending').run();
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
