/**
 * An older ledger's schema is upgraded off the host's event loop (electron/node/ledgerUpgrade.ts):
 * a migration can copy a whole table, seconds at a real factory's size, and on the host's thread
 * that would be as long a freeze of the window.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../shared/api.js';
import { Desk } from '../../electron/node/desk.js';
import { ledgerPath } from '../../electron/node/store/db.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../electron/node/store/schema.js';
import { tempFactory, type TempFactory } from '../support/factory.js';

/** The version before migration 12, which copies the runs table whole. */
const BEFORE_RUNS_COPY = 11;

let current: TempFactory | null = null;
afterEach(() => {
  current?.remove();
  current = null;
});

/** A factory whose ledger a Desk of schema version `version` wrote, with `runs` runs in it. */
function factoryWithLedgerAt(version: number, runs: number): string {
  current = tempFactory('layover-upgrade-');
  const file = ledgerPath(current.dir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const migration of MIGRATIONS.slice(0, version)) db.exec(migration);
  db.pragma(`user_version = ${version}`);
  const start = db.prepare(
    `INSERT INTO runs (seq, run, agent, chain, workflow, flags, routes, learnings, started_at, day)
     VALUES (?, ?, 'builder', 'chain-1', 'build', '{}', '[]', '[]', '2026-11-20T10:00:00.000Z', '2026-11-20')`,
  );
  db.transaction(() => {
    for (let i = 0; i < runs; i++) start.run(i + 1, `run-${i}`);
  })();
  db.close();
  return current.dir;
}

const versionOf = (factory: string): number => {
  const db = new Database(ledgerPath(factory), { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

describe('upgrading an older ledger', () => {
  it('runs in a thread of its own: the host’s event loop turns while the Desk opens an older ledger', async () => {
    const factory = factoryWithLedgerAt(BEFORE_RUNS_COPY, 2_000);
    let turns = 0;
    // Opening does nothing else that waits on the event loop, so a timer can only fire during
    // the open if the upgrade ran elsewhere.
    const ticker = setInterval(() => turns++, 1);
    const desk = await Desk.open(factory, { host: 'browser', osUser: 'tester', watch: false });
    clearInterval(ticker);
    try {
      expect(turns).toBeGreaterThan(0);
      expect(versionOf(factory)).toBe(SCHEMA_VERSION);
      const runs = await dispatch(desk.handlers, 'runs.list', { limit: 5 });
      expect(runs.ok && (runs.value as { total: number }).total).toBe(2_000);
    } finally {
      await desk.close();
    }
  });

  it('leaves a ledger of this version to the host’s own open, which takes no thread and no wait', async () => {
    const factory = factoryWithLedgerAt(SCHEMA_VERSION, 10);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const desk = await Desk.open(factory, { host: 'browser', osUser: 'tester', watch: false });
    clearInterval(ticker);
    await desk.close();
    expect(turns).toBe(0);
  });

  it('still refuses an empty ledger of a factory with a history instead of giving it a schema', async () => {
    current = tempFactory('layover-upgrade-');
    const factory = current.dir;
    fs.mkdirSync(path.join(factory, 'learnings'), { recursive: true });
    fs.writeFileSync(path.join(factory, 'learnings', 'builder.json'), '[]\n');
    fs.mkdirSync(path.dirname(ledgerPath(factory)), { recursive: true });
    fs.writeFileSync(ledgerPath(factory), '');
    const desk = await Desk.open(factory, { host: 'browser', osUser: 'tester', watch: false });
    try {
      const info = await dispatch(desk.handlers, 'desk.info', {});
      expect(info.ok && (info.value as { ledger_problem: { message: string } | null }).ledger_problem?.message).toContain('is empty (0 bytes)');
      expect(fs.statSync(ledgerPath(factory)).size).toBe(0);
    } finally {
      await desk.close();
    }
  });
});
