/**
 * Writes that must never leave half a file, on real misbehaving disks: a tmpfs that fills up
 * midway through a write (the atomic replace of a file, the append of a journal line), and a
 * writer process killed between its write and its rename.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeStaleTemps, tempFileFor, writeFileAtomic } from '../../electron/node/atomicFile.js';
import { learningsFileFor } from '../../electron/node/factory.js';
import { journalPath, readJournal } from '../../electron/node/journal.js';
import { jsonIn, runIn } from '../support/cli.js';
import { proposed } from '../support/events.js';
import { appendEvents } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';
import { smallDisk, type Mounted } from '../support/mounts.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');

let factory: string;
freshFactoryEachTest('layover-atomic-', (dir) => (factory = dir));

const mounts: Mounted[] = [];
afterEach(() => {
  for (const mounted of mounts.splice(0).reverse()) mounted.release();
});

/** A tmpfs of 256 KiB, released after the test. */
function disk(): string {
  const mounted = smallDisk(256 * 1024);
  mounts.push(mounted);
  return mounted.dir;
}

/** Fills `dir`'s file system until only `leave` bytes are free. */
function fillLeaving(dir: string, leave: number): void {
  const free = fs.statfsSync(dir);
  fs.writeFileSync(path.join(dir, 'filler'), Buffer.alloc(free.bavail * free.bsize - leave));
  expect(fs.statfsSync(dir).bavail * fs.statfsSync(dir).bsize).toBe(leave);
}

describe('a write that fails midway', () => {
  it('a write the disk fills up in the middle of throws, and leaves the old file whole with no temporary file beside it', () => {
    const dir = disk();
    const file = path.join(dir, 'chain.json');
    writeFileAtomic(file, 'the old content\n');
    fillLeaving(dir, 8 * 1024);

    // 8 KiB of the 64 KiB fit: the write starts, then the disk is full.
    expect(() => writeFileAtomic(file, 'x'.repeat(64 * 1024))).toThrow(/ENOSPC/);
    expect(fs.readFileSync(file, 'utf8')).toBe('the old content\n');
    expect(fs.readdirSync(dir).sort()).toEqual(['chain.json', 'filler']);
  });

  it("an agent's learnings file is kept whole when its new list does not fit on the disk, and is written once space is freed", async () => {
    const dir = disk();
    fs.symlinkSync(dir, path.join(factory, 'learnings')); // learnings/ on the small disk, the ledger not
    const at = (i: number) => new Date(Date.UTC(2026, 10, 20, 8, 0, i)).toISOString();
    const text = (i: number) => `the staging host number ${i} needs the vpn profile ${i * 7919} before the deploy step can start`;
    appendEvents(factory, proposed({ at: at(0), agent: 'builder', text: text(0), impact: 'high' }));
    expect(await runIn(factory, 'ingest')).toMatchObject({ code: 0, stderr: '' });
    const file = learningsFileFor(factory, 'builder');
    const before = fs.readFileSync(file, 'utf8');
    expect(JSON.parse(before).learnings).toHaveLength(1);

    fillLeaving(dir, 4 * 1024);
    appendEvents(factory, ...Array.from({ length: 24 }, (_, i) => proposed({ at: at(i + 1), agent: 'builder', text: text(i + 1), impact: 'high' })));
    const full = await runIn(factory, 'ingest');
    expect(full.code).not.toBe(0);
    expect(full.stderr.trim().split('\n')).toHaveLength(1);
    expect(full.stderr).toContain(`${file}: the disk is full`);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.readdirSync(dir).sort()).toEqual(['builder.json', 'filler']);

    fs.rmSync(path.join(dir, 'filler'));
    expect(await runIn(factory, 'ingest')).toMatchObject({ code: 0, stderr: '' });
    const after = JSON.parse(fs.readFileSync(file, 'utf8')) as { learnings: unknown[] };
    expect(after.learnings).toHaveLength(25);
  });
});

describe('a journal line the disk fills up in the middle of', () => {
  it('is not counted as written: the next command cuts off the part that was written and appends the whole line', async () => {
    const dir = disk();
    fs.mkdirSync(path.dirname(journalPath(factory)), { recursive: true });
    fs.symlinkSync(path.join(dir, 'decisions.jsonl'), journalPath(factory)); // the journal on the small disk, the ledger not
    appendEvents(factory, proposed({ at: '2026-11-20T08:00:00.000Z', agent: 'builder', text: 'the docs site builds with mkdocs' }));
    expect(await runIn(factory, 'ingest')).toMatchObject({ code: 0, stderr: '' });
    const [learning] = await jsonIn<{ id: string }[]>(factory, 'learnings');

    fillLeaving(dir, 4 * 1024);
    const reason = Array.from({ length: 150 }, (_, i) => `the mkdocs build ${i} was replaced by a static site generator`).join('; '); // ~10 KB
    const full = await runIn(factory, 'reject', '--by', 'Ana', '--reason', reason, learning!.id);
    expect(full.code).not.toBe(0);
    expect(full.stderr).toContain(`${journalPath(factory)}: the disk is full`);
    expect(fs.statSync(journalPath(factory)).size).toBeGreaterThan(0); // a part of the line is on disk

    fs.rmSync(path.join(dir, 'filler'));
    expect(await runIn(factory, 'ingest')).toMatchObject({ code: 0, stderr: '' });
    expect(readJournal(factory)).toMatchObject([{ seq: 1, what: 'reject', by: 'Ana', reason, learnings: [{ id: learning!.id }] }]);
    expect(fs.readFileSync(journalPath(factory), 'utf8').split('\n')).toHaveLength(2); // one line, then nothing
  });
});

describe('temporary files left behind', () => {
  it('the temporary file of a writer killed between its write and its rename is removed by the next clean-up, that of a live writer is kept', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-temps-'));
    try {
      const target = path.join(dir, 'chn_a.json');
      // A writer that dies as a kill between the write and the rename leaves it.
      const killed = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `import fs from 'node:fs';
           import { tempFileFor } from ${JSON.stringify(path.join(REPO, 'electron', 'node', 'atomicFile.ts'))};
           fs.writeFileSync(tempFileFor(${JSON.stringify(target)}), '{"half');
           process.kill(process.pid, 'SIGKILL');`,
        ],
        { cwd: REPO, encoding: 'utf8' },
      );
      expect(killed.signal).toBe('SIGKILL');
      const [left] = fs.readdirSync(dir);
      expect(left).toMatch(/^\.chn_a\.json\.\d+\.[0-9a-f]{12}\.tmp$/);

      const live = tempFileFor(target);
      fs.writeFileSync(live, '{"being written');
      writeFileAtomic(path.join(dir, 'other.json'), '{}\n');

      expect(removeStaleTemps(dir)).toBe(1);
      expect(fs.readdirSync(dir).sort()).toEqual([path.basename(live), 'other.json'].sort());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
