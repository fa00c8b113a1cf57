/**
 * Schema migration 8 (store/schema.ts): the proposal log and the history keep each thing once,
 * behind views with their old names. A ledger written by the Desk before it (schema version 7)
 * must answer every question exactly as the same ledger written after it does, and go on
 * changing the same way (an undo, a sweep, a restore with the journal replayed after it).
 *
 * The version-7 ledger is made from a version-8 one: version 7's schema (its migrations, which
 * are never edited) filled from the views, which present every row with the columns version 7
 * kept. That is exactly what the version-7 Desk wrote for the same events and decisions.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDemoFactory } from '../../electron/node/demo.js';
import { backupName, backupsDir, restoreBackup } from '../../electron/node/backup.js';
import { catchUpRestored, flushJournal } from '../../electron/node/journal.js';
import { sweep } from '../../electron/node/sweep.js';
import { dailyStats, lastEventAt, listProposals, listRefused, refusalsByRule } from '../../electron/node/store/activity.js';
import { ledgerPath, openDb, type Db } from '../../electron/node/store/db.js';
import { learningDetail, queryLearnings } from '../../electron/node/store/learningQueries.js';
import { ftsQuery } from '../../electron/node/store/learningList.js';
import { decideLearnings, undoDecisions } from '../../electron/node/store/decisions.js';
import { MIGRATIONS } from '../../electron/node/store/schema.js';
import { worthALook } from '../../electron/node/store/worth.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { PROPOSAL_OUTCOMES } from '../../shared/domain.js';
import { tempFactory, type TempFactory } from '../support/factory.js';

const VERSION_7 = 7;
const EVERYTHING = 1_000_000;
/** The demo's clock: its events lie in the days before it. */
const DEMO_NOW = new Date('2026-11-20T12:00:00.000Z');
const DAY_MS = 86_400_000;

/** Writes `source`'s content as the version-7 Desk kept it, to the new file `file`. */
function writeAsVersion7(source: Db, file: string): void {
  const old = new Database(file);
  for (const migration of MIGRATIONS.slice(0, VERSION_7)) old.exec(migration);
  old.pragma(`user_version = ${VERSION_7}`);
  old.exec(`ATTACH DATABASE '${source.name}' AS src`);
  const tables = old
    .prepare(`SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'learnings_fts%' AND name NOT LIKE 'sqlite_%'`)
    .pluck()
    .all() as string[];
  old.transaction(() => {
    for (const table of tables) {
      if (table === 'run_given') {
        // Version 7 kept a run's links as rows as well (until migration 13): the ids of its list
        // the ledger knows.
        old.exec(`INSERT OR IGNORE INTO main.run_given (learning_rowid, run_seq)
          SELECT l.rowid, r.seq FROM src.runs r, json_each(r.learnings) j JOIN src.learnings l ON l.id = j.value`);
        continue;
      }
      const columns = (old.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]).join(', ');
      old.exec(`INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM src.${table}`);
    }
    old.exec(`INSERT INTO learnings_fts (learnings_fts) VALUES ('rebuild')`);
  })();
  old.exec('DETACH DATABASE src');
  old.close();
}

/** Searches for words of the demo's learnings: whole, as a prefix, two at once, with an underscore, with digits. */
const SEARCHES = ['lockfile', 'the', 'integ', 'npm ci', 'node_modules', 'better-sqlite3', 'sql query'];

/** The rowids each search matches, asked of the search index directly (any schema version). */
function searchedRowids(file: string): Record<string, number[]> {
  const db = new Database(file, { readonly: true });
  try {
    const match = db.prepare('SELECT rowid FROM learnings_fts WHERE learnings_fts MATCH ? ORDER BY rowid').pluck();
    return Object.fromEntries(SEARCHES.map((search) => [search, match.all(ftsQuery(search)) as number[]]));
  } finally {
    db.close();
  }
}

/** Every answer the Desk gives from the ledger about learnings and proposals. */
function answers(db: Db): Record<string, unknown> {
  const learnings = queryLearnings(db, { limit: EVERYTHING });
  const byOutcome = Object.fromEntries(PROPOSAL_OUTCOMES.map((outcome) => [outcome, listProposals(db, { outcome, limit: EVERYTHING })]));
  const agents = learnings.agents;
  return {
    learnings,
    searched: Object.fromEntries(SEARCHES.map((search) => [search, queryLearnings(db, { filter: { search }, limit: EVERYTHING }).rows.map((l) => l.id)])),
    proposals: listProposals(db, { limit: EVERYTHING }),
    firstPage: listProposals(db, { limit: 7, offset: 3 }),
    byOutcome,
    byAgent: Object.fromEntries(agents.map((agent) => [agent, listProposals(db, { agent, limit: EVERYTHING })])),
    refusals: refusalsByRule(db),
    refused: listRefused(db, { limit: EVERYTHING }),
    daily: dailyStats(db, 120, DEMO_NOW),
    last: lastEventAt(db),
    details: learnings.rows.map((l) => learningDetail(db, l.id, DEFAULT_SETTINGS.learnings.max_per_run)),
    // Worth a look reads counts a later migration fills from what the ledger already holds.
    worth: worthALook(db),
    worthCounts: ['learning_run_counts', 'agent_run_counts', 'learning_same_chain'].map((table) =>
      db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all(),
    ),
  };
}

let demo: TempFactory;
let upgraded: TempFactory;

/** The demo factory (ledger at version 8) and a copy of it whose ledger is the same at version 7. */
beforeEach(() => {
  demo = tempFactory('layover-upgrade-demo-');
  upgraded = tempFactory('layover-upgrade-old-');
  createDemoFactory(demo.dir, { now: DEMO_NOW });
  fs.cpSync(demo.dir, upgraded.dir, { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(ledgerPath(upgraded.dir) + suffix, { force: true });
  const db = openDb(ledgerPath(demo.dir));
  writeAsVersion7(db, ledgerPath(upgraded.dir));
  db.close();
});

afterEach(() => {
  demo.remove();
  upgraded.remove();
});

function versionOf(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

describe('a ledger written at schema version 7, upgraded', () => {
  it('answers every listing, the refused view, each learning\'s detail and the daily counts as the ledger written at version 8 does', () => {
    expect(versionOf(ledgerPath(upgraded.dir))).toBe(VERSION_7);
    const searchedBefore = searchedRowids(ledgerPath(upgraded.dir));
    expect(Object.values(searchedBefore).every((rowids) => rowids.length > 0)).toBe(true);
    const fresh = openDb(ledgerPath(demo.dir));
    const old = openDb(ledgerPath(upgraded.dir));
    try {
      // The demo exercises what the upgrade rewrites: texts kept once, decisions with undo data.
      expect((fresh.prepare('SELECT count(*) FROM proposal_log WHERE text IS NULL').pluck().get() as number) > 0).toBe(true);
      expect((fresh.prepare('SELECT count(*) FROM learning_history WHERE undo IS NOT NULL').pluck().get() as number) > 0).toBe(true);
      expect(old.prepare('SELECT count(*) FROM proposal_log WHERE text IS NULL').pluck().get()).toBe(
        fresh.prepare('SELECT count(*) FROM proposal_log WHERE text IS NULL').pluck().get(),
      );
      expect(answers(old)).toEqual(answers(fresh));
      // The search index made again without its token counts finds exactly what it found.
      expect(searchedRowids(ledgerPath(upgraded.dir))).toEqual(searchedBefore);
    } finally {
      fresh.close();
      old.close();
    }
  });

  it('goes on as the version-8 ledger does: a decision, its undo and a sweep that deletes lapsed learnings whose proposals stay', () => {
    const fresh = openDb(ledgerPath(demo.dir));
    const old = openDb(ledgerPath(upgraded.dir));
    try {
      const lapsedAt = fresh.prepare(`SELECT max(coalesce(lapsed_at, last_at)) FROM learnings WHERE state = 'lapsed'`).pluck().get() as string;
      // After every lapsed learning's keep_lapsed_days, well inside the proposal log's retention.
      const sweepAt = new Date(Date.parse(lapsedAt) + (DEFAULT_SETTINGS.learnings.keep_lapsed_days + 1) * DAY_MS);
      const target = (fresh.prepare(`SELECT id FROM learnings WHERE state = 'provisional' ORDER BY id LIMIT 2`).pluck().all() as string[]);
      expect(target).toHaveLength(2);
      for (const [db, factory] of [[fresh, demo.dir], [old, upgraded.dir]] as const) {
        decideLearnings(db, 'reject', { ids: target }, { by: 'ops', reason: 'too vague', now: new Date(DEMO_NOW.getTime() + 1000) });
        undoDecisions(db, [target[0]!], { by: 'ops', now: new Date(DEMO_NOW.getTime() + 2000) });
        const logged = listProposals(db, { limit: EVERYTHING });
        const report = sweep(db, factory, DEFAULT_SETTINGS, sweepAt);
        expect(report.lapsed_learnings).toBeGreaterThan(0);
        expect(report.proposals).toBe(0);
        // The proposals that made the swept learnings read as they did, texts and impacts included.
        expect(db.prepare('SELECT count(*) FROM proposal_log WHERE learning_id NOT IN (SELECT id FROM learnings)').pluck().get()).toBeGreaterThan(0);
        expect(listProposals(db, { limit: EVERYTHING })).toEqual(logged);
      }
      expect(answers(old)).toEqual(answers(fresh));
    } finally {
      fresh.close();
      old.close();
    }
  });

  it('restored from a version-7 safety copy and caught up from the journal, equals the ledger it replaces', () => {
    const db = openDb(ledgerPath(demo.dir));
    const copyAt = new Date(DEMO_NOW.getTime() + 1000);
    fs.mkdirSync(backupsDir(demo.dir), { recursive: true });
    const name = backupName(copyAt);
    writeAsVersion7(db, path.join(backupsDir(demo.dir), name));
    const target = db.prepare(`SELECT id FROM learnings WHERE state = 'provisional' ORDER BY id LIMIT 3`).pluck().all() as string[];
    decideLearnings(db, 'keep', { ids: target }, { by: 'ops', now: new Date(copyAt.getTime() + 1000) });
    undoDecisions(db, [target[1]!], { by: 'ops', now: new Date(copyAt.getTime() + 2000) });
    flushJournal(db, demo.dir);
    const lost = answers(db);
    db.close();

    restoreBackup(demo.dir, name, new Date(copyAt.getTime() + 3000));
    const restored = openDb(ledgerPath(demo.dir));
    try {
      expect(catchUpRestored(restored, demo.dir, DEFAULT_SETTINGS).decisions).toBe(2);
      expect(answers(restored)).toEqual(lost);
    } finally {
      restored.close();
    }
  });
});
