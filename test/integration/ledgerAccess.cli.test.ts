/**
 * Every command reaches a factory the same way (docs/cli.md#every-command: 0 done, 2 refused or bad
 * input, 1 failure): the same trouble gives the same exit code and message whichever command meets
 * it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { backupLedger } from '../../electron/node/backup.js';
import { ledgerPath, openDb } from '../../electron/node/store/db.js';
import { runIn } from '../support/cli.js';
import { AGENT_COMMANDS, LEDGER_COMMANDS } from '../support/commands.js';
import { proposed } from '../support/events.js';
import { appendEvents, writeSettings } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';

let factory: string;
freshFactoryEachTest('layover-access-', (dir) => (factory = dir));

/** A ledger with one learning in it, and a safety copy of it. */
async function ledgerWithCopy(): Promise<{ file: string }> {
  appendEvents(factory, proposed({ at: '2026-11-20T08:00:00.000Z', agent: 'builder', text: 'the docs site builds with mkdocs' }));
  expect((await runIn(factory, 'ingest')).code).toBe(0);
  const db = openDb(ledgerPath(factory));
  try {
    return await backupLedger(db, factory, new Date('2026-11-20T09:00:00Z'));
  } finally {
    db.close();
  }
}

describe('how a command reaches its factory', () => {
  it('a folder that is not a factory yet is refused (exit 2) by every command that opens the ledger, and is made one only with --create', async () => {
    for (const argv of LEDGER_COMMANDS.filter(([name]) => name !== 'backup')) {
      const result = await runIn(factory, ...argv);
      expect({ argv, code: result.code }).toEqual({ argv, code: 2 });
      expect(result.stderr).toContain(`${factory} is not a factory yet (no events/, layover.toml or .layover/ in it): check --factory, or give --create`);
    }
    expect(fs.readdirSync(factory)).toEqual([]);
    const created = await runIn(factory, 'ingest', '--create');
    expect(created.code).toBe(0);
    expect(fs.existsSync(ledgerPath(factory))).toBe(true);
    expect((await runIn(factory, 'learnings')).code).toBe(0);
  });

  it('a factory folder that does not exist is refused (exit 2) by every command, named, and not created', async () => {
    const missing = path.join(factory, 'no-such-factory');
    for (const argv of [...LEDGER_COMMANDS, ...AGENT_COMMANDS, ['backups'], ['restore', 'ledger-2026-11-20T09-00-00Z.sqlite']]) {
      const result = await runIn(missing, ...argv);
      expect({ argv, code: result.code }).toEqual({ argv, code: 2 });
      expect(result.stderr).toContain(`the factory folder ${missing} does not exist`);
    }
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('a ledger that cannot be opened fails (exit 1) every command that needs it, naming the file and the newest copy, and is not written to', async () => {
    const copy = await ledgerWithCopy();
    const garbage = Buffer.from('not a ledger: a sync tool wrote over it\n'.repeat(300));
    fs.writeFileSync(ledgerPath(factory), garbage);
    for (const argv of LEDGER_COMMANDS) {
      const result = await runIn(factory, ...argv);
      expect({ argv, code: result.code }).toEqual({ argv, code: 1 });
      expect(result.stderr).toContain(ledgerPath(factory));
      expect(result.stderr).toContain(copy.file);
      expect(result.stderr).toMatch(/layover-desk restore --factory .* ledger-2026-11-20T09-00-00Z\.sqlite/);
      expect(result.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    }
    expect(fs.readFileSync(ledgerPath(factory)).equals(garbage)).toBe(true);
  });

  it('the agent side is not held up by a ledger that cannot be opened: ingest checks again later', async () => {
    await ledgerWithCopy();
    fs.writeFileSync(ledgerPath(factory), 'not a ledger');
    for (const argv of AGENT_COMMANDS) {
      const result = await runIn(factory, ...argv);
      expect({ argv, code: result.code, stderr: result.stderr }).toEqual({ argv, code: 0, stderr: '' });
    }
  });

  it('a refused layover.toml is reported on stderr, naming the key, by every command that reads the settings', async () => {
    writeSettings(factory, '[learnings]\nmax_per_run = 0\n');
    for (const argv of [...LEDGER_COMMANDS.filter(([name]) => name !== 'sweep'), AGENT_COMMANDS[0]!]) {
      const result = await runIn(factory, ...argv);
      expect({ argv, stderr: result.stderr }).toEqual({ argv, stderr: expect.stringMatching(/layover\.toml.*learnings\.max_per_run = 0/) });
    }
    const sweep = await runIn(factory, 'sweep');
    expect(sweep.code).toBe(2);
    expect(sweep.stderr).toMatch(/not sweeping: .*learnings\.max_per_run = 0/);
  });

  it('a refusal by the store (an unknown request) is exit 2 with its message, not a stack trace', async () => {
    fs.mkdirSync(path.join(factory, 'events'));
    const unknown = await runIn(factory, 'resolve', '--request', 'hlp_nope', '--by', 'Ana');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/hlp_nope/);
    expect(unknown.stderr).not.toMatch(/\n\s+at /);
  });
});
