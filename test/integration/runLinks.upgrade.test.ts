/**
 * Schema migration 13 (store/schema.ts): a run's links to what it was given are its own list, no
 * longer rows of run_given. A ledger written before it (schema version 12), with runs counted by
 * those rows, must come out of the upgrade with Worth a look's counts exactly what the runs say
 * under the rule (only the learnings of the run's agent count), the table gone, and counting on
 * as a current ledger does.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerPath, openDb, type Db } from '../../electron/node/store/db.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../electron/node/store/schema.js';
import { applyRunFinished, applyRunStarted } from '../../electron/node/store/runs.js';
import { learningDetail } from '../../electron/node/store/learningQueries.js';
import { UNCOUNT_SWEPT_RUNS } from '../../electron/node/sweep.js';
import { COUNT_LEARNINGS } from '../../electron/node/store/runTally.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { tempFactory, type TempFactory } from '../support/factory.js';
import { keptRunCounts, recountedRuns } from '../support/ledger.js';

const VERSION_12 = 12;
const AT = '2026-11-20T08:00:00.000Z';

let factory: TempFactory | undefined;
afterEach(() => factory?.remove());

/** A version-12 ledger: two agents' learnings, runs given them (one given the other agent's too), most finished. */
function version12Ledger(file: string): void {
  const db = new Database(file);
  for (const migration of MIGRATIONS.slice(0, VERSION_12)) db.exec(migration);
  db.pragma(`user_version = ${VERSION_12}`);
  const learning = db.prepare(
    `INSERT INTO learnings (id, agent, text, impact, state, runs_left, first_at, last_at)
     VALUES (?, ?, ?, 'medium', 'provisional', 10, ?, ?)`,
  );
  for (const [id, agent] of [['lrn_b1', 'builder'], ['lrn_b2', 'builder'], ['lrn_s1', 'scout']]) learning.run(id, agent, `text of ${id}`, AT, AT);
  const run = db.prepare(
    `INSERT INTO runs (run, agent, chain, workflow, flags, routes, learnings, started_at, day) VALUES (?, ?, 'c', 'wf', '{}', '[]', ?, ?, '2026-11-20')`,
  );
  const link = db.prepare('INSERT INTO run_given (learning_rowid, run_seq) SELECT l.rowid, r.seq FROM learnings l, runs r WHERE l.id = ? AND r.run = ?');
  const finish = db.prepare('UPDATE runs SET finished_at = ?, outcome = ? WHERE run = ?');
  const runs: [string, string, string[], string | null][] = [
    ['r1', 'builder', ['lrn_b1', 'lrn_b2'], 'succeeded'],
    ['r2', 'builder', ['lrn_b1', 'lrn_s1', 'lrn_unknown'], 'failed'],
    ['r3', 'scout', ['lrn_s1'], 'succeeded'],
    ['r4', 'builder', ['lrn_b2'], null],
  ];
  for (const [id, agent, given, outcome] of runs) {
    run.run(id, agent, JSON.stringify(given), AT);
    for (const learningId of given) link.run(learningId, id);
    if (outcome !== null) finish.run(AT, outcome, id);
  }
  db.close();
}

describe('a ledger written at schema version 12, upgraded', () => {
  it('counts each learning by the runs of its own agent whose list names it, and keeps no table of links', () => {
    factory = tempFactory('layover-links-upgrade-');
    const file = ledgerPath(factory.dir);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    version12Ledger(file);
    const before = new Database(file, { readonly: true });
    const s1Before = before.prepare(`SELECT c.runs FROM learning_run_counts c JOIN learnings l ON l.rowid = c.learning_rowid WHERE l.id = 'lrn_s1'`).pluck().get();
    before.close();
    expect(s1Before).toBe(2);

    const db = openDb(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name LIKE 'run_given%'`).pluck().get()).toBe(0);
      expect(db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'runs_count_finished'`).pluck().get()).toBe(0);
      expect(keptRunCounts(db)).toEqual(recountedRuns(db));
      const given = (id: string) => learningDetail(db, id, DEFAULT_SETTINGS.learnings.max_per_run)!.given;
      expect(given('lrn_s1')).toMatchObject({ runs: 1, succeeded: 1 });
      expect(given('lrn_b1')).toMatchObject({ runs: 2, succeeded: 1 });

      applyRunFinished(db, { run: 'r4', agent: 'builder', outcome: 'succeeded', at: AT });
      applyRunStarted(db, { run: 'r5', agent: 'builder', chain: 'c', workflow: 'wf', flags: {}, routes: [], learnings: ['lrn_b2'], at: AT });
      applyRunFinished(db, { run: 'r5', agent: 'builder', outcome: 'failed', at: AT });
      expect(given('lrn_b2')).toMatchObject({ runs: 3, succeeded: 2 });
      expect(keptRunCounts(db)).toEqual(recountedRuns(db));
    } finally {
      db.close();
    }
  });
});

describe('counting runs', () => {
  function planOf(db: Db, sql: string): string {
    return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array(sql.split('?').length - 1).fill('x')) as { detail: string }[])
      .map((row) => row.detail)
      .join('\n');
  }

  it('the counts of a batch\'s finished runs look each id of their lists up by the learnings\' id, never reading the agent\'s learnings', () => {
    factory = tempFactory('layover-links-plan-');
    const db = openDb(ledgerPath(factory.dir));
    try {
      const plan = planOf(db, COUNT_LEARNINGS);
      expect(plan).toMatch(/SEARCH l USING INDEX sqlite_autoindex_learnings_1 \(id=\?\)/);
      expect(plan).not.toMatch(/learnings_agent_state/);
    } finally {
      db.close();
    }
  });

  it('a sweep takes back its runs\' counts reading only the runs before the horizon, each learning once by its id', () => {
    factory = tempFactory('layover-links-plan-');
    const db = openDb(ledgerPath(factory.dir));
    try {
      const plan = planOf(db, UNCOUNT_SWEPT_RUNS);
      expect(plan).toMatch(/SEARCH r USING INDEX runs_day \(day<\?\)/);
      expect(plan).toMatch(/SEARCH l USING INDEX sqlite_autoindex_learnings_1 \(id=\?\)/);
      expect(plan).not.toMatch(/SCAN (r|l|c)\b/);
    } finally {
      db.close();
    }
  });
});
