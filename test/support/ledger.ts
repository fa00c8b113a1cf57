/** Looking into a factory's ledger from a test, and a ledger of its own for tests of the store. */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, beforeEach } from 'vitest';
import { ledgerPath, openDb, type Db } from '../../electron/node/store/db.js';
import { tempFactory } from './factory.js';

/** Rows of `sql` from the SQLite file `file`, opened read-only and closed again. */
export function queryFile<T = Record<string, unknown>>(file: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Rows of `sql` from the factory's ledger, opened read-only and closed again. */
export function queryLedger<T = Record<string, unknown>>(factory: string, sql: string, ...params: unknown[]): T[] {
  return queryFile<T>(ledgerPath(factory), sql, ...params);
}

/** Runs `fn` with the factory's ledger open (read-write, migrated), closing it after. */
export function withTestLedger<T>(factory: string, fn: (db: Db) => T): T {
  const db = openDb(ledgerPath(factory));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** A fresh factory with its ledger open; `remove()` closes it and deletes the folder. */
export function tempLedger(prefix = 'layover-ledger-'): TestLedger & { remove(): void } {
  const { dir, remove } = tempFactory(prefix);
  const db = openDb(ledgerPath(dir));
  return {
    factory: dir,
    db,
    remove: () => {
      db.close();
      remove();
    },
  };
}

/** A fresh factory with its ledger open: the folder and the open ledger. */
export interface TestLedger {
  factory: string;
  db: Db;
}

/**
 * A fresh factory with its ledger open for every test of the file, handed to `use` before each
 * test and closed and deleted after it, as `freshFactoryEachTest` does for a bare folder:
 * `let db: Db; freshLedgerEachTest('x-', (ledger) => ({ db } = ledger));`. A `beforeEach` of the
 * file registered after it sees the ledger already open.
 */
export function freshLedgerEachTest(prefix: string, use: (ledger: TestLedger) => void): void {
  let current: ReturnType<typeof tempLedger> | null = null;
  beforeEach(() => {
    current = tempLedger(prefix);
    use(current);
  });
  afterEach(() => {
    current?.remove();
    current = null;
  });
}

/** Where the tests damage a ledger: past its first page, which is all a plain open reads. */
const DAMAGE_FROM = 4096;
const DAMAGE_BYTES = 100;
const DAMAGE_MASK = 0x5a;

/**
 * Damages a ledger file as issue 10 did: XORs bytes 4096–4195 with 0x5a. The file still opens;
 * SQLite's check (and any statement that reads those pages) finds the damage.
 */
export function damageLedgerFile(file: string): void {
  const bytes = fs.readFileSync(file);
  for (let i = DAMAGE_FROM; i < DAMAGE_FROM + DAMAGE_BYTES; i++) bytes[i] = bytes[i]! ^ DAMAGE_MASK;
  fs.writeFileSync(file, bytes);
}

interface RunCountRow {
  rowid?: number;
  agent?: string;
  runs: number;
  succeeded: number;
}

/**
 * Worth a look's finished-run counts as the ledger keeps them (learning_run_counts, agent_run_counts),
 * only the rows with runs, in key order.
 */
export function keptRunCounts(db: Db): { learnings: RunCountRow[]; agents: RunCountRow[] } {
  return {
    learnings: db.prepare('SELECT learning_rowid AS rowid, runs, succeeded FROM learning_run_counts WHERE runs > 0 ORDER BY 1').all() as RunCountRow[],
    agents: db.prepare('SELECT agent, runs, succeeded FROM agent_run_counts WHERE runs > 0 ORDER BY 1').all() as RunCountRow[],
  };
}

/**
 * The same counts taken afresh by the rule (docs/rules.md#worth-a-look), in plain code: every
 * finished run counts for its agent, and for each learning of that agent its list names.
 */
export function recountedRuns(db: Db): { learnings: RunCountRow[]; agents: RunCountRow[] } {
  const learningOf = new Map(
    (db.prepare('SELECT rowid, id, agent FROM learnings').all() as { rowid: number; id: string; agent: string }[]).map((l) => [l.id, l]),
  );
  const learnings = new Map<number, RunCountRow>();
  const agents = new Map<string, RunCountRow>();
  const runs = db.prepare('SELECT agent, learnings, outcome FROM runs WHERE finished_at IS NOT NULL').all() as {
    agent: string;
    learnings: string;
    outcome: string | null;
  }[];
  const add = <K>(map: Map<K, RunCountRow>, key: K, row: RunCountRow, succeeded: boolean) => {
    const counts = map.get(key) ?? map.set(key, row).get(key)!;
    counts.runs += 1;
    if (succeeded) counts.succeeded += 1;
  };
  for (const run of runs) {
    const succeeded = run.outcome === 'succeeded';
    add(agents, run.agent, { agent: run.agent, runs: 0, succeeded: 0 }, succeeded);
    for (const id of new Set(JSON.parse(run.learnings) as string[])) {
      const learning = learningOf.get(id);
      if (learning?.agent === run.agent) add(learnings, learning.rowid, { rowid: learning.rowid, runs: 0, succeeded: 0 }, succeeded);
    }
  }
  const byKey = <K extends number | string>(map: Map<K, RunCountRow>) => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  return { learnings: byKey(learnings), agents: byKey(agents) };
}

/** The runs with a start and no finish yet, oldest first: what a test finishes through `applyRunFinished`. */
export function openRuns(db: Db): { run: string; agent: string; started_at: string }[] {
  return db.prepare('SELECT run, agent, started_at FROM runs WHERE finished_at IS NULL ORDER BY seq').all() as { run: string; agent: string; started_at: string }[];
}
