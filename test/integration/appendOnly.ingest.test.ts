/**
 * A day file the Desk has read is only ever appended to (docs/factory-format.md#reading-events):
 * one that shrank below what was read, or whose bytes before that changed, is refused as a whole
 * and said so on every command until the operator has it read again from the start, and then
 * what the ledger already holds is recognised and not applied twice.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { queryLedger } from '../support/ledger.js';
import { TestFactory } from '../support/testFactory.js';

let factories: TestFactory[] = [];
afterEach(() => {
  for (const f of factories) f.remove();
  factories = [];
});

function factoryWithRuns(count: number): TestFactory {
  const f = new TestFactory();
  factories.push(f);
  for (let i = 1; i <= count; i++) f.start('builder', `old_${i}`);
  return f;
}

/** Replaces the day file with `lines` run starts named `prefix_N`, as a tool rewriting it would. */
function rewrite(f: TestFactory, prefix: string, lines: number): void {
  const at = (i: number) => new Date(Date.parse('2026-03-01T12:00:00.000Z') + i * 1000).toISOString();
  const body = Array.from({ length: lines }, (_, i) =>
    JSON.stringify({ type: 'run.started', at: at(i), run: `${prefix}_${i + 1}`, agent: 'builder', chain: 'c', workflow: 'w', flags: {}, routes: [], learnings: [] }),
  );
  fs.writeFileSync(f.file(), `${body.join('\n')}\n`);
}

const runs = (f: TestFactory): number => queryLedger<{ n: number }>(f.dir, 'SELECT count(*) AS n FROM runs')[0]!.n;

describe('a day file is only ever appended to', () => {
  it('a file replaced by a shorter one is refused as a whole, with a warning on every command, and nothing of it is read', async () => {
    const f = factoryWithRuns(100);
    expect((await f.ingest()).applied).toBe(100);
    rewrite(f, 'new', 10);

    const again = await f.cli('ingest', '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: 0, refused_files: [{ file: 'events/2026-03-01.jsonl' }] });
    expect(again.stderr).toMatch(/^warning: events\/2026-03-01\.jsonl is refused: the file is \d+ bytes, shorter than the \d+ already read: it was cut or replaced; read it again from the start with `layover-desk ingest --reread 2026-03-01\.jsonl`/m);
    const listing = await f.cli('runs');
    expect(listing.stderr).toContain('warning: events/2026-03-01.jsonl is refused');
    expect(runs(f)).toBe(100);
  });

  it('a file rewritten with more lines is refused too: nothing is read from the middle of it', async () => {
    const f = factoryWithRuns(100);
    await f.ingest();
    rewrite(f, 'new', 150);
    const again = await f.ingest();
    expect(again.applied).toBe(0);
    expect(runs(f)).toBe(100);
    expect((await f.cli('runs')).stderr).toMatch(/the bytes before the \d+ already read have changed: the file was rewritten/);
  });

  it('read again from the start, a rewritten file adds only what the ledger does not hold, once', async () => {
    const f = factoryWithRuns(100);
    f.propose('builder', 'cache the docker layers between the nightly builds');
    await f.ingest();
    // The same 101 events written again differently (another key order), then 50 new runs.
    const lines = fs.readFileSync(f.file(), 'utf8').trim().split('\n').map((line) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(line)).reverse())));
    const extra = Array.from({ length: 50 }, (_, i) =>
      JSON.stringify({ type: 'run.started', at: '2026-03-02T00:00:00.000Z', run: `more_${i}`, agent: 'builder', chain: 'c', workflow: 'w', flags: {}, routes: [], learnings: [] }),
    );
    fs.writeFileSync(f.file(), `${[...lines, ...extra].join('\n')}\n`);
    expect((await f.ingest()).applied).toBe(0);

    const reread = await f.cli('ingest', '--reread', '2026-03-01.jsonl', '--json');
    expect(reread.code).toBe(0);
    expect(JSON.parse(reread.stdout)).toMatchObject({ applied: 50, refused: [], refused_files: [] });
    expect(runs(f)).toBe(150);
    expect(queryLedger(f.dir, 'SELECT count(*) AS n FROM proposals')).toEqual([{ n: 1 }]);
    expect((await f.cli('runs')).stderr).not.toContain('refused');

    // Once read to its end the file is an ordinary one again: a duplicate appended now is refused.
    f.start('builder', 'more_1');
    expect((await f.ingest()).refused).toEqual([expect.objectContaining({ reason: 'run more_1 has already started (duplicate run id)' })]);
  });

  it('reading again a file the ledger never read is refused with the reason', async () => {
    const f = factoryWithRuns(1);
    await f.ingest();
    const result = await f.cli('ingest', '--reread', '1999-01-01.jsonl');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the ledger has not read an events file of that name');
  });
});
