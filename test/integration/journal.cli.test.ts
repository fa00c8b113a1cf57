/**
 * The decisions journal (SPEC 6): every person decision is appended to .layover/decisions.jsonl
 * with the commit that makes it, and a restore from a safety copy makes the decisions after the
 * copy again, so nothing a person decided is lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDemoFactory } from '../../electron/node/demo.js';
import { journalPath, readJournal } from '../../electron/node/journal.js';
import { ledgerPath, openDb } from '../../electron/node/store/db.js';
import { decideLearnings } from '../../electron/node/store/learnings.js';
import { jsonIn, runIn } from '../support/cli.js';
import { proposed } from '../support/events.js';
import { appendEvents, freshFactoryEachTest } from '../support/factory.js';

let factory: string;
freshFactoryEachTest('layover-journal-', (dir) => (factory = dir));

/** Runs a command that must succeed. */
async function ok(...argv: string[]): Promise<string> {
  const result = await runIn(factory, ...argv);
  expect({ argv, code: result.code, stderr: result.stderr }).toEqual({ argv, code: 0, stderr: '' });
  return result.stdout;
}

/** What the operator sees of the factory: every listing, and the chain files the Tower starts. */
async function everythingListed(): Promise<Record<string, unknown>> {
  const chainsDir = path.join(factory, 'chains');
  const chainFiles = Object.fromEntries(
    fs.readdirSync(chainsDir).sort().map((name) => [name, fs.readFileSync(path.join(chainsDir, name), 'utf8')]),
  );
  return {
    learnings: await jsonIn(factory, 'learnings'),
    help: await jsonIn(factory, 'help-requests'),
    chains: await jsonIn(factory, 'chains'),
    runs: await jsonIn(factory, 'runs', '--limit', '100000'),
    chainFiles,
  };
}

function xorPastFirstPage(file: string): void {
  const bytes = fs.readFileSync(file);
  for (let i = 4096; i < 4196; i++) bytes[i] = bytes[i]! ^ 0x5a;
  fs.writeFileSync(file, bytes);
}

describe('the decisions journal', () => {
  it('a restored ledger equals the lost one: decide, reply, back up, decide more, damage, restore → identical listings and chain files', async () => {
    createDemoFactory(factory);
    const provisional = (await jsonIn<{ id: string; state: string }[]>(factory, 'learnings', '--state', 'provisional')).map((l) => l.id);
    expect(provisional.length).toBeGreaterThanOrEqual(3);
    const [first, second, third] = provisional as [string, string, string];
    await ok('reject', '--by', 'Ana', '--reason', 'not true any more', first);
    await ok('reply', '--request', 'hlp_003', '--by', 'Ana', '--answer', 'take the first pull request');
    await ok('backup');
    await ok('keep', '--by', 'Ben', second);
    await ok('reject', '--by', 'Ben', third);
    await ok('undo', '--by', 'Ana', first);
    await ok('resolve', '--request', 'hlp_002', '--by', 'Ben');
    await ok('reply', '--request', 'hlp_001', '--by', 'Ana', '--answer', 'publish to the beta channel first');
    const before = await everythingListed();
    expect(readJournal(factory).map((e) => e.what).slice(-7)).toEqual(['reject', 'reply', 'keep', 'reject', 'undo', 'resolve', 'reply']);

    xorPastFirstPage(ledgerPath(factory));
    const refused = await runIn(factory, 'learnings');
    expect(refused.code).toBe(1);
    const restore = refused.stderr.split('\n').find((l) => l.startsWith('To restore it: '))!.slice('To restore it: layover-desk '.length);
    const restored = await runIn(factory, ...restore.split(' '));
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('5 journaled decisions');

    expect(await everythingListed()).toEqual(before);
  });

  it('a decision committed but not yet in the file (a crash between the two) is appended by the next command, once, and a torn last line is cut off first', async () => {
    appendEvents(
      factory,
      proposed({ at: '2026-11-20T08:00:00.000Z', agent: 'builder', text: 'the docs site builds with mkdocs' }),
      proposed({ at: '2026-11-20T08:01:00.000Z', agent: 'builder', text: 'the staging database resets every sunday night' }),
    );
    await ok('ingest');
    const [a, b] = (await jsonIn<{ id: string }[]>(factory, 'learnings')).map((l) => l.id) as [string, string];
    await ok('reject', '--by', 'Ana', a);
    expect(readJournal(factory)).toMatchObject([{ seq: 1, what: 'reject', by: 'Ana', ids: [a] }]);

    // The commit happens, the process dies before the append, and the append before it was torn.
    fs.appendFileSync(journalPath(factory), '{"seq":2,"at":"2026-11-2');
    const db = openDb(ledgerPath(factory));
    decideLearnings(db, 'keep', { ids: [b] }, { by: 'Ben', now: new Date('2026-11-21T09:00:00.000Z') });
    db.close();

    await ok('ingest');
    await ok('ingest');
    const lines = fs.readFileSync(journalPath(factory), 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line) as { seq: number })).toEqual([
      expect.objectContaining({ seq: 1, what: 'reject', ids: [a] }),
      { seq: 2, what: 'keep', at: '2026-11-21T09:00:00.000Z', by: 'Ben', ids: [b], reason: null },
    ]);
  });
});
