/**
 * A damaged ledger is never written to, never copied, and always explained (docs/rules.md#retention-sweeps, issue 10):
 * real demo factories, real safety copies, real bytes of the ledger file overwritten.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch, type Envelope } from '../../shared/api.js';
import { backupLedger, backupsDir, KEEP_BACKUPS, listBackups } from '../../electron/node/backup.js';
import { createDemoFactory } from '../../electron/node/demo.js';
import { Desk } from '../../electron/node/desk.js';
import { LedgerOpenError, ledgerPath, openDb } from '../../electron/node/store/db.js';
import { runIn } from '../support/cli.js';
import { LEDGER_COMMANDS } from '../support/commands.js';
import { damageLedgerFile } from '../support/ledger.js';
import { proposed } from '../support/events.js';
import { appendEvents, eventually, writeSettings } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';

let factory: string;
freshFactoryEachTest('layover-damage-', (dir) => (factory = dir));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Every file under `dir` with a digest of its bytes, to see that nothing changed. SQLite's
 * shared-memory index (-shm) and an empty -wal are what opening a WAL database creates, not
 * content; a -wal holding anything is a write.
 */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('-shm')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = fs.readFileSync(file);
    if (entry.name.endsWith('-wal') && bytes.length === 0) continue;
    out[path.relative(dir, file)] = createHash('sha256').update(bytes).digest('hex');
  }
  return out;
}

/** The demo factory, a safety copy made by `layover-desk backup`, then the ledger damaged. */
async function damagedDemo(): Promise<{ copy: { name: string; file: string } }> {
  createDemoFactory(factory);
  const made = await runIn(factory, 'backup', '--json');
  expect(made.code).toBe(0);
  const copy = JSON.parse(made.stdout) as { name: string; file: string };
  damageLedgerFile(ledgerPath(factory));
  return { copy };
}

/** The words of the restore command the message tells the operator to type. */
function restoreWords(stderr: string): string[] {
  const line = stderr.split('\n').find((l) => l.startsWith('To restore it: layover-desk restore '));
  expect(line).toBeDefined();
  return line!.slice('To restore it: layover-desk '.length).split(' ');
}

describe('a ledger damaged past its first page', () => {
  it('every command that opens it ends in the damaged-ledger message (exit 1, the file, the newest good copy, the restore command, no stack trace) and nothing is written', async () => {
    const { copy } = await damagedDemo();
    const before = snapshot(factory);
    const commands = [...LEDGER_COMMANDS, ['reply', '--request', 'hlp_003', '--by', 'Ana', '--answer', 'take the first one']];
    for (const argv of commands) {
      const result = await runIn(factory, ...argv);
      expect({ argv, code: result.code }).toEqual({ argv, code: 1 });
      expect(result.stderr).toContain(`the ledger ${ledgerPath(factory)} is damaged`);
      expect(result.stderr).toContain(`the newest good safety copy is ${copy.file}`);
      expect(result.stderr).toContain(`To restore it: layover-desk restore --factory ${factory} ${copy.name}`);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stdout).toBe('');
    }
    // Not the ledger, not a chain file, not a learnings file, not a safety copy.
    expect(snapshot(factory)).toEqual(before);
  });

  it('the restore command the message gives brings back a ledger the commands list from again', async () => {
    await damagedDemo();
    const refused = await runIn(factory, 'help-requests');
    expect(refused.code).toBe(1);
    const restored = await runIn(factory, ...restoreWords(refused.stderr));
    expect(restored.code).toBe(0);
    const listed = await runIn(factory, 'help-requests');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('hlp_003');
  });

  it('a safety copy that fails its check is not offered for restore: the newest good one is', async () => {
    const { copy } = await damagedDemo();
    const bad = path.join(backupsDir(factory), 'ledger-2099-01-01T00-00-00Z.sqlite');
    fs.copyFileSync(ledgerPath(factory), bad);
    const result = await runIn(factory, 'runs');
    expect(result.code).toBe(1);
    expect(restoreWords(result.stderr)).toEqual(['restore', '--factory', factory, copy.name]);
  });

  it('a damaged ledger is never copied, so its copies cannot push a good one out of the seven kept', async () => {
    createDemoFactory(factory);
    const db = openDb(ledgerPath(factory));
    cleanups.push(() => {
      if (db.open) db.close();
    });
    for (let day = 1; day <= KEEP_BACKUPS; day++) await backupLedger(db, factory, new Date(Date.UTC(2026, 10, day, 3)));
    const kept = listBackups(factory).map((b) => b.name);
    db.close();
    damageLedgerFile(ledgerPath(factory));
    const damaged = openDb(ledgerPath(factory));
    cleanups.push(() => {
      damaged.close();
    });
    for (let day = 20; day < 23; day++) {
      const attempt = backupLedger(damaged, factory, new Date(Date.UTC(2026, 10, day, 3)));
      await expect(attempt).rejects.toThrow(LedgerOpenError);
      await expect(attempt).rejects.toThrow(/is damaged.*no safety copy was made/);
    }
    expect(listBackups(factory).map((b) => b.name)).toEqual(kept);
    expect(fs.readdirSync(backupsDir(factory)).sort()).toEqual([...kept].sort()); // no temporary left behind
  });

  it('the copy just made is never rotated out, even when seven copies are dated later (a clock set back)', async () => {
    createDemoFactory(factory);
    const db = openDb(ledgerPath(factory));
    cleanups.push(() => {
      if (db.open) db.close();
    });
    for (let day = 1; day <= KEEP_BACKUPS; day++) await backupLedger(db, factory, new Date(Date.UTC(2030, 0, day)));
    const made = await backupLedger(db, factory, new Date(Date.UTC(2026, 10, 30)));
    expect(listBackups(factory).map((b) => b.name)).toContain(made.name);
  });

  it('a safety copy is compact: the free pages deleted rows leave in the ledger are not copied', async () => {
    createDemoFactory(factory);
    const raw = new Database(ledgerPath(factory));
    raw.exec('CREATE TABLE scratch (filler BLOB)');
    const insert = raw.prepare('INSERT INTO scratch VALUES (randomblob(4096))');
    for (let i = 0; i < 1000; i++) insert.run();
    raw.exec('DROP TABLE scratch');
    raw.pragma('wal_checkpoint(TRUNCATE)');
    raw.close();
    const ledgerSize = fs.statSync(ledgerPath(factory)).size;
    const result = await runIn(factory, 'backup', '--json');
    expect(result.code).toBe(0);
    const copy = JSON.parse(result.stdout) as { size: number };
    expect(copy.size).toBeLessThan(ledgerSize - 1000 * 4096 * 0.9);
  });
});

describe('a zero-byte or missing ledger in a factory with a history', () => {
  /** A factory with a ledger, learnings files and a safety copy. */
  async function factoryWithHistory(): Promise<{ name: string }> {
    appendEvents(factory, proposed({ at: '2026-11-20T08:00:00.000Z', agent: 'builder', text: 'the docs site builds with mkdocs' }));
    expect((await runIn(factory, 'ingest')).code).toBe(0);
    const made = await runIn(factory, 'backup', '--json');
    expect(made.code).toBe(0);
    return JSON.parse(made.stdout) as { name: string };
  }

  it('a zero-byte ledger beside a safety copy is damage: refused with the restore offer, not started afresh', async () => {
    const copy = await factoryWithHistory();
    fs.writeFileSync(ledgerPath(factory), '');
    for (const argv of [['ingest'], ['learnings'], ['reply', '--request', 'hlp_1', '--answer', 'yes']]) {
      const result = await runIn(factory, ...argv);
      expect({ argv, code: result.code }).toEqual({ argv, code: 1 });
      expect(result.stderr).toContain(`the ledger ${ledgerPath(factory)} is empty (0 bytes), but this factory has a history (1 safety copy, learnings files)`);
      expect(result.stderr).toContain(`To restore it: layover-desk restore --factory ${factory} ${copy.name}`);
    }
    expect(fs.statSync(ledgerPath(factory)).size).toBe(0);
  });

  it('a missing ledger in a factory with learnings files is damage: refused, and no new ledger is made', async () => {
    await factoryWithHistory();
    fs.rmSync(backupsDir(factory), { recursive: true });
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(ledgerPath(factory) + suffix, { force: true });
    const result = await runIn(factory, 'ingest');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the ledger ${ledgerPath(factory)} is missing, but this factory has a history (learnings files)`);
    expect(result.stderr).toContain('there is no safety copy yet');
    expect(fs.existsSync(ledgerPath(factory))).toBe(false);
  });

  it('a factory without a history gets its first ledger as before', async () => {
    appendEvents(factory, proposed({ at: '2026-11-20T08:00:00.000Z', agent: 'builder', text: 'the docs site builds with mkdocs' }));
    const result = await runIn(factory, 'ingest');
    expect(result.code).toBe(0);
    expect(fs.statSync(ledgerPath(factory)).size).toBeGreaterThan(0);
  });
});

describe('the running Desk and a damaged ledger', () => {
  async function openDesk() {
    const desk = await Desk.open(factory, { host: 'browser', osUser: 'tester', watch: true });
    cleanups.push(() => desk.close());
    const call = (channel: string, input: unknown): Promise<Envelope> => dispatch(desk.handlers, channel, input);
    const info = async () => {
      const envelope = await call('desk.info', {});
      if (!envelope.ok) throw new Error(envelope.error.message);
      return envelope.value as { ledger_check: string; ledger_problem: { file: string; message: string; newest_backup: string | null } | null };
    };
    return { desk, call, info };
  }

  it('the Desk checks its ledger in the background at start; from a failed check on it writes nothing and offers the newest good copy', async () => {
    const { copy } = await damagedDemo();
    appendEvents(factory, proposed({ at: new Date().toISOString(), agent: 'builder', text: 'a line the Desk must not apply to a damaged ledger' }));
    // New good settings, which a Desk keeps in the ledger as the last good ones: not in a damaged one.
    writeSettings(factory, '[learnings]\nprovisional_runs = 7\n');
    const before = snapshot(factory);
    const { desk, call, info } = await openDesk();
    const failed = await eventually(async () => {
      const now = await info();
      return now.ledger_check === 'failed' ? now : undefined;
    }, 'the check fails');
    await desk.idle();
    expect(failed.ledger_problem).toMatchObject({ file: ledgerPath(factory), newest_backup: copy.name });
    expect(failed.ledger_problem!.message).toContain('is damaged');
    const reply = await call('help.reply', { id: 'hlp_003', answer: 'take the first one', by: 'Ana' });
    expect(reply).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringContaining('is damaged') } });
    expect(snapshot(factory)).toEqual(before);
  });

  it('restoring from the window makes the decisions journaled since the copy again before the window sees the ledger', async () => {
    createDemoFactory(factory);
    const made = await runIn(factory, 'backup', '--json');
    const copy = JSON.parse(made.stdout) as { name: string };
    expect((await runIn(factory, 'resolve', '--request', 'hlp_002', '--by', 'Ben')).code).toBe(0);
    expect((await runIn(factory, 'reply', '--request', 'hlp_003', '--by', 'Ana', '--answer', 'take the first one')).code).toBe(0);
    const listed = async () => JSON.parse((await runIn(factory, 'help-requests', '--json')).stdout) as unknown[];
    const before = await listed();
    damageLedgerFile(ledgerPath(factory));
    const { call, info } = await openDesk();
    await eventually(async () => (await info()).ledger_check === 'failed', 'the check fails');
    const restored = await call('ledger.restore', { backup: copy.name });
    expect(restored).toMatchObject({ ok: true, value: { ledger_problem: null } });
    await eventually(async () => (await info()).ledger_check === 'passed', 'the restored ledger passes its check');
    expect(await listed()).toEqual(before);
  });

  it('a sound ledger passes the check and the Desk goes on ingesting', async () => {
    appendEvents(factory, proposed({ at: '2026-11-20T08:00:00.000Z', agent: 'builder', text: 'the docs site builds with mkdocs' }));
    const { desk, info } = await openDesk();
    await desk.idle();
    expect((await info()).ledger_check).toBe('passed');
    expect(fs.existsSync(path.join(factory, 'learnings', 'builder.json'))).toBe(true);
  });
});
