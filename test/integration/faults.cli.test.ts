/**
 * When the machine misbehaves (issue 10, docs/cli.md#every-command): a full disk, a read-only file
 * system, a file where a folder belongs. Each is one line naming the path and what to do, exit 1,
 * no stack trace (unless --debug), and nothing is lost. Real file systems: a small tmpfs that fills
 * up and a read-only bind mount (see ../support/mounts.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerPath } from '../../electron/node/store/db.js';
import { runIn } from '../support/cli.js';
import { LISTING_COMMANDS } from '../support/commands.js';
import { proposed } from '../support/events.js';
import { appendEvents } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';
import { queryLedger } from '../support/ledger.js';
import { readOnlyView, smallDisk, type Mounted } from '../support/mounts.js';

let factory: string;
freshFactoryEachTest('layover-faults-', (dir) => (factory = dir));

const mounts: Mounted[] = [];
afterEach(() => {
  for (const mounted of mounts.splice(0).reverse()) mounted.release();
});

/** What a message that is not a stack trace looks like: no "    at fn (file:line)" lines. */
const STACK_LINE = /\n\s+at /;

/** `count` proposals with different texts, a few hundred bytes of ledger each. */
function proposals(count: number, from = 0): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) =>
    proposed({
      at: new Date(Date.UTC(2026, 10, 20, 8, 0, 0, from + i)).toISOString(),
      agent: 'builder',
      text: `the staging host number ${from + i} needs the vpn profile ${(from + i) * 7919} before the deploy step`,
    }),
  );
}

describe('a full disk', () => {
  it('ingest on a full disk fails with one line naming the ledger, loses nothing, and once space is freed applies every line exactly once', async () => {
    const disk = smallDisk(24 * 1024 * 1024);
    mounts.push(disk);
    const root = path.join(disk.dir, 'factory');
    fs.mkdirSync(root);
    appendEvents(root, ...proposals(1));
    const first = await runIn(root, 'ingest');
    expect(first.stderr).toBe('');
    appendEvents(root, ...proposals(3000, 1));
    // Fill what is left but a little: the ledger cannot grow by the 3,000 learnings.
    const free = fs.statfsSync(disk.dir);
    const filler = path.join(disk.dir, 'filler');
    fs.writeFileSync(filler, Buffer.alloc(Math.max(0, free.bavail * free.bsize - 64 * 1024)));

    const full = await runIn(root, 'ingest');
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/^layover-desk ingest: .*ledger\.sqlite: the disk is full \(SQLITE_FULL\): nothing was lost .*free some space and run it again\n$/);
    expect(full.stderr).not.toMatch(STACK_LINE);

    fs.rmSync(filler);
    const again = await runIn(root, 'ingest');
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(queryLedger(root, 'SELECT count(*) AS n FROM proposals')).toEqual([{ n: 3001 }]);
    expect(queryLedger(root, 'SELECT count(*) AS n FROM learnings')).toEqual([{ n: 3001 }]);
  });
});

describe('a read-only factory', () => {
  async function readOnlyFactory(): Promise<string> {
    appendEvents(factory, ...proposals(3));
    expect((await runIn(factory, 'ingest')).code).toBe(0);
    const view = readOnlyView(factory);
    mounts.push(view);
    return view.dir;
  }

  it('a read-only factory can still be listed: every listing shows what the ledger holds', async () => {
    const readOnly = await readOnlyFactory();
    for (const argv of LISTING_COMMANDS) {
      const writable = await runIn(factory, ...argv, '--json');
      const listed = await runIn(readOnly, ...argv, '--json');
      expect({ argv, code: listed.code, stderr: listed.stderr }).toEqual({ argv, code: 0, stderr: '' });
      expect(listed.stdout).toBe(writable.stdout);
    }
    expect(fs.readdirSync(path.join(readOnly, '.layover'))).toEqual(fs.readdirSync(path.join(factory, '.layover')));
  });

  it('a command that writes in a read-only factory fails with one line saying so and what to do, not that the ledger is broken', async () => {
    const readOnly = await readOnlyFactory();
    const ingest = await runIn(readOnly, 'ingest');
    expect(ingest.code).toBe(1);
    expect(ingest.stderr).toBe(
      `layover-desk ingest: ${path.join(readOnly, '.layover')} cannot be written (read-only file system or no permission): nothing was written; ` +
        'make it writable and run it again — listings (learnings, runs, help-requests, chains) still work\n',
    );
    const propose = await runIn(readOnly, 'propose', '--agent', 'builder', 'Run the migrations before the integration test suite.');
    expect(propose.code).toBe(1);
    expect(propose.stderr).toMatch(/^layover-desk propose: .*events.*\.jsonl is on a read-only file system \(EROFS\): nothing was written; .*\n$/);
    for (const result of [ingest, propose]) {
      expect(result.stderr).not.toMatch(/damaged|restore/);
      expect(result.stderr).not.toMatch(STACK_LINE);
    }
    expect(fs.existsSync(ledgerPath(factory))).toBe(true);
  });
});

describe('a file where a folder of the factory belongs', () => {
  it('events/ being a file is one line naming it for the agent side and for ingest; --debug adds the stack trace', async () => {
    fs.writeFileSync(path.join(factory, 'events'), 'not a folder');
    const events = path.join(factory, 'events');
    const propose = await runIn(factory, 'propose', '--agent', 'builder', 'Run the migrations before the integration test suite.');
    expect(propose).toEqual({
      code: 1,
      stdout: '',
      stderr: `layover-desk propose: ${events}: a file is where a folder belongs (EEXIST): a folder of the factory is needed there; move the file aside and run it again\n`,
    });
    const ingest = await runIn(factory, 'ingest');
    expect(ingest.code).toBe(1);
    expect(ingest.stderr).toBe(
      `layover-desk ingest: ${events}: part of this path is a file where a folder belongs (ENOTDIR): a folder of the factory is needed there; move the file aside and run it again\n`,
    );
    const debug = await runIn(factory, 'propose', '--debug', '--agent', 'builder', 'Run the migrations before the integration test suite.');
    expect(debug.code).toBe(1);
    expect(debug.stderr).toContain('(EEXIST)');
    expect(debug.stderr).toMatch(STACK_LINE);
    expect(fs.readFileSync(events, 'utf8')).toBe('not a folder');
  });
});
