/**
 * The ledger's safety copies and a ledger that cannot be opened, through the CLI in-process.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  backupLedger,
  backupsDir,
  KEEP_BACKUPS,
  listBackups,
  newestBackup,
  restoreBackup,
  RestoreRefused,
} from '../../electron/node/backup.js';
import { ledgerPath, openDb } from '../../electron/node/store/db.js';
import { cli as runCliIn } from '../support/cli.js';
import { proposed } from '../support/events.js';
import { appendEvents } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';
import { queryFile } from '../support/ledger.js';

let factory: string;
freshFactoryEachTest('layover-backup-', (dir) => (factory = dir));

/** `layover-desk ARGV` in-process, run in the factory folder (each call names --factory itself). */
const cli = (...argv: string[]) => runCliIn(argv, factory);

async function ingest(): Promise<void> {
  const result = await cli('ingest', '--factory', factory);
  expect(result.code).toBe(0);
}

function learnings(file: string): unknown[] {
  return queryFile(file, 'SELECT id, agent, text, state, last_at FROM learnings ORDER BY id');
}

/** A factory with a ledger holding three learnings. */
async function seedLedger(): Promise<void> {
  const at = new Date().toISOString();
  appendEvents(
    factory,
    ...[
      'the staging database resets every sunday night',
      'integration tests need the VPN on port 8443',
      'the docs site builds with mkdocs',
    ].map((text) => proposed({ at, agent: 'builder', text, impact: 'high' })),
  );
  await ingest();
  expect(learnings(ledgerPath(factory))).toHaveLength(3);
}

/** Files beside the ledger, to see that a failed open left nothing behind. */
function deskFiles(): string[] {
  return fs.readdirSync(path.join(factory, '.layover')).sort();
}

describe('safety copies', () => {
  it('the safety copy opens and holds the same learnings', async () => {
    await seedLedger();
    const result = await cli('backup', '--factory', factory, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const info = JSON.parse(result.stdout) as { name: string; file: string };
    expect(info.name).toMatch(/^ledger-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.sqlite$/);
    expect(path.dirname(info.file)).toBe(backupsDir(factory));

    expect(fs.readdirSync(backupsDir(factory))).toEqual([info.name]); // no temporary left behind
    expect(learnings(info.file)).toEqual(learnings(ledgerPath(factory)));
    const copy = openDb(info.file);
    expect(copy.prepare('SELECT count(*) AS n FROM learnings').get()).toEqual({ n: 3 });
    copy.close();
  });

  it('only the newest 7 copies are kept', async () => {
    await seedLedger();
    const db = openDb(ledgerPath(factory));
    try {
      for (let i = 0; i < 9; i++) await backupLedger(db, factory, new Date(Date.UTC(2026, 10, 1 + i, 3, 0, 0)));
    } finally {
      db.close();
    }
    const names = listBackups(factory).map((b) => b.name);
    expect(names).toHaveLength(KEEP_BACKUPS);
    expect(names[0]).toBe('ledger-2026-11-09T03-00-00Z.sqlite');
    expect(names.at(-1)).toBe('ledger-2026-11-03T03-00-00Z.sqlite');
    expect(newestBackup(factory)?.name).toBe(names[0]);
  });

  it('backups lists the copies newest first, and says so when there are none', async () => {
    expect((await cli('backups', '--factory', factory)).stdout).toMatch(/No safety copies/);
    await seedLedger();
    const db = openDb(ledgerPath(factory));
    await backupLedger(db, factory, new Date('2026-11-01T00:00:00Z'));
    await backupLedger(db, factory, new Date('2026-11-02T00:00:00Z'));
    db.close();
    const result = await cli('backups', '--factory', factory, '--json');
    expect(result.code).toBe(0);
    const { rows } = JSON.parse(result.stdout) as { rows: { name: string; at: string }[] };
    expect(rows.map((r) => r.at)).toEqual(['2026-11-02T00:00:00.000Z', '2026-11-01T00:00:00.000Z']);
  });

  it('a half-written copy that a killed process left is removed by the next backup, one being written by a live process is kept', async () => {
    await seedLedger();
    const { spawnSync } = await import('node:child_process');
    const gone = spawnSync(process.execPath, ['-e', '']).pid!; // a process that has exited
    fs.mkdirSync(backupsDir(factory), { recursive: true });
    const stale = [`.ledger-2026-11-19T08-00-00Z.sqlite.${gone}.0123456789ab.tmp`, `.ledger-2026-11-19T08-00-00Z.sqlite.${gone}.0123456789ab.tmp-journal`];
    const live = `.ledger-2026-11-19T09-00-00Z.sqlite.${process.pid}.0123456789ab.tmp`;
    for (const name of [...stale, live]) fs.writeFileSync(path.join(backupsDir(factory), name), 'half a copy');

    const result = await cli('backup', '--factory', factory, '--json');
    expect(result.code).toBe(0);
    const info = JSON.parse(result.stdout) as { name: string };
    expect(fs.readdirSync(backupsDir(factory)).sort()).toEqual([live, info.name].sort());
  });

  it('backup of a factory without a ledger is refused', async () => {
    const result = await cli('backup', '--factory', factory);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no ledger/);
  });
});

describe('a ledger that cannot be opened', () => {
  it('a corrupt ledger file is reported, naming the file and the newest copy, and is not overwritten', async () => {
    await seedLedger();
    const db = openDb(ledgerPath(factory));
    const copy = await backupLedger(db, factory, new Date('2026-11-20T08:00:00Z'));
    db.close();
    const garbage = Buffer.from('this is not an SQLite database at all, it was overwritten by a sync tool\n'.repeat(200));
    fs.writeFileSync(ledgerPath(factory), garbage);
    const filesBefore = deskFiles();

    for (const argv of [['sweep', '--factory', factory], ['backup', '--factory', factory]]) {
      const result = await cli(...argv);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(ledgerPath(factory));
      expect(result.stderr).toContain(copy.file);
      expect(result.stderr).toMatch(/corrupt/);
    }

    expect(fs.readFileSync(ledgerPath(factory)).equals(garbage)).toBe(true);
    expect(deskFiles()).toEqual(filesBefore);
  });

  it('a ledger with a newer schema is refused and left untouched', async () => {
    await seedLedger();
    const raw = new Database(ledgerPath(factory));
    raw.pragma('user_version = 99');
    raw.close();
    const bytes = fs.readFileSync(ledgerPath(factory));

    const result = await cli('sweep', '--factory', factory);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(ledgerPath(factory));
    expect(result.stderr).toMatch(/newer/);
    expect(result.stderr).toMatch(/no safety copy/);
    expect(fs.readFileSync(ledgerPath(factory)).equals(bytes)).toBe(true);
  });

  it('a ledger locked by another program is reported as locked and left alone', async () => {
    await seedLedger();
    const holder = new Database(ledgerPath(factory));
    try {
      holder.pragma('locking_mode = EXCLUSIVE');
      holder.exec("BEGIN EXCLUSIVE; INSERT INTO sweeps (at, report) VALUES ('x', '{}');");
      const result = await cli('sweep', '--factory', factory);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(ledgerPath(factory));
      expect(result.stderr).toMatch(/locked.*close the other program/s);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(await cli('sweep', '--factory', factory)).toMatchObject({ code: 0, stderr: '' });
  });

  it('a sound ledger passes the full check every writing command makes, and a factory without a history gets a new one', async () => {
    fs.mkdirSync(path.join(factory, 'events')); // a factory, with nothing the Desk wrote yet
    expect(fs.existsSync(ledgerPath(factory))).toBe(false);
    expect(await cli('sweep', '--factory', factory)).toMatchObject({ code: 0, stderr: '' });
    expect(fs.existsSync(ledgerPath(factory))).toBe(true);
    await seedLedger();
    expect(await cli('sweep', '--factory', factory)).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('restoring a safety copy', () => {
  it('restore moves the bad file aside and brings back the copy', async () => {
    await seedLedger();
    const before = learnings(ledgerPath(factory));
    const db = openDb(ledgerPath(factory));
    const copy = await backupLedger(db, factory, new Date('2026-11-20T08:00:00Z'));
    db.close();
    const garbage = Buffer.from('garbage '.repeat(1000));
    fs.writeFileSync(ledgerPath(factory), garbage);
    fs.writeFileSync(`${ledgerPath(factory)}-wal`, 'stale wal');

    const result = await cli('restore', '--factory', factory, copy.name);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);

    expect(learnings(ledgerPath(factory))).toEqual(before);
    expect(await cli('sweep', '--factory', factory)).toMatchObject({ code: 0, stderr: '' }); // passes the full check
    const aside = fs.readdirSync(path.join(factory, '.layover')).filter((n) => n.includes('.broken-'));
    expect(aside.sort()).toEqual([expect.stringMatching(/^ledger\.sqlite\.broken-[\dTZ-]+$/), expect.stringMatching(/-wal$/)]);
    const brokenFile = path.join(factory, '.layover', aside.find((n) => !n.endsWith('-wal'))!);
    expect(fs.readFileSync(brokenFile).equals(garbage)).toBe(true);
    expect(result.stdout).toContain(brokenFile);
    expect(fs.existsSync(copy.file)).toBe(true); // the copy itself stays
  });

  it('restore takes only the name of a listed copy, never a path', async () => {
    await seedLedger();
    const db = openDb(ledgerPath(factory));
    const copy = await backupLedger(db, factory, new Date('2026-11-20T08:00:00Z'));
    db.close();
    const bytes = fs.readFileSync(ledgerPath(factory));
    for (const name of [copy.file, `../backups/${copy.name}`, '../ledger.sqlite', 'ledger-2026-01-01T00-00-00Z.sqlite']) {
      const result = await cli('restore', '--factory', factory, name);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(copy.name);
    }
    expect((await cli('restore', '--factory', factory)).code).toBe(2);
    expect(fs.readFileSync(ledgerPath(factory)).equals(bytes)).toBe(true);
  });

  it('a copy that is itself damaged is refused before anything is moved', async () => {
    await seedLedger();
    fs.mkdirSync(backupsDir(factory), { recursive: true });
    const name = 'ledger-2026-11-20T08-00-00Z.sqlite';
    fs.writeFileSync(path.join(backupsDir(factory), name), 'not a database'.repeat(100));
    const bytes = fs.readFileSync(ledgerPath(factory));
    const filesBefore = deskFiles();
    expect(() => restoreBackup(factory, name)).toThrow(RestoreRefused);
    expect(fs.readFileSync(ledgerPath(factory)).equals(bytes)).toBe(true);
    expect(deskFiles()).toEqual(filesBefore); // nothing moved aside, no temporary copy left
  });

  it('restore --help says the Desk must be closed and the old file is kept', async () => {
    const result = await cli('restore', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/never deleted/);
    expect(result.stdout).toMatch(/Close the Desk/);
  });
});
