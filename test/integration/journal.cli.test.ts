/**
 * The decisions journal (docs/factory-format.md#the-decisions-journal): every person decision is
 * appended to .layover/decisions.jsonl with the commit that makes it, and a restore from a safety
 * copy makes the decisions after the copy again, so nothing a person decided is lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDemoFactory } from '../../electron/node/demo.js';
import { namesIn } from '../../electron/node/factory.js';
import { journalPath, readJournal } from '../../electron/node/journal.js';
import { ledgerPath, openDb } from '../../electron/node/store/db.js';
import { decideLearnings } from '../../electron/node/store/decisions.js';
import { jsonIn, runIn } from '../support/cli.js';
import { helpRequested, proposed, runStarted } from '../support/events.js';
import { appendEvents } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';
import { damageLedgerFile } from '../support/ledger.js';

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
    namesIn(chainsDir).sort().map((name) => [name, fs.readFileSync(path.join(chainsDir, name), 'utf8')]),
  );
  return {
    learnings: await jsonIn(factory, 'learnings'),
    help: await jsonIn(factory, 'help-requests'),
    chains: await jsonIn(factory, 'chains'),
    runs: await jsonIn(factory, 'runs', '--limit', '100000'),
    chainFiles,
  };
}

function withoutLearningIds(listed: Record<string, unknown>): Record<string, unknown> {
  const learnings = (listed.learnings as { id: string }[]).map(({ id: _id, ...rest }) => rest);
  return { ...listed, learnings };
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

    damageLedgerFile(ledgerPath(factory));
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
    const [first, second] = await jsonIn<{ id: string; text: string }[]>(factory, 'learnings');
    const [a, b] = [first!.id, second!.id];
    await ok('reject', '--by', 'Ana', a);
    expect(readJournal(factory)).toMatchObject([{ seq: 1, what: 'reject', by: 'Ana', learnings: [{ id: a }] }]);

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
      expect.objectContaining({ seq: 1, what: 'reject', learnings: [expect.objectContaining({ id: a })] }),
      {
        seq: 2,
        what: 'keep',
        at: '2026-11-21T09:00:00.000Z',
        by: 'Ben',
        learnings: [{ id: b, agent: 'builder', text: second!.text }],
        reason: null,
        events: { file: '2026-11-20.jsonl', lines: 2 },
      },
    ]);
  });
});

describe('events and decisions after the copy', () => {
  it('a restore replays events and decisions in the order they happened: a learning proposed, rejected and proposed again after the copy stays refused', async () => {
    appendEvents(factory, proposed({ at: '2026-11-20T08:00:00.000Z', agent: 'builder', text: 'the docs site builds with mkdocs' }));
    await ok('ingest');
    await ok('backup');
    const text = 'approve dependency bumps without reading the release notes';
    appendEvents(factory, proposed({ at: '2026-11-20T09:00:00.000Z', agent: 'builder', text }));
    await ok('ingest');
    const rejected = (await jsonIn<{ id: string; text: string }[]>(factory, 'learnings')).find((l) => l.text === text)!;
    await ok('reject', '--by', 'Ana', rejected.id);
    appendEvents(factory, proposed({ at: '2026-11-20T10:00:00.000Z', agent: 'builder', text }));
    await ok('ingest');
    const before = withoutLearningIds(await everythingListed());
    expect(before.learnings).toContainEqual(expect.objectContaining({ text, state: 'rejected', proposals: 1, echoes: 0 }));

    damageLedgerFile(ledgerPath(factory));
    const refused = await runIn(factory, 'runs');
    const restore = refused.stderr.split('\n').find((l) => l.startsWith('To restore it: '))!.slice('To restore it: layover-desk '.length);
    expect((await runIn(factory, ...restore.split(' '))).code).toBe(0);
    expect(withoutLearningIds(await everythingListed())).toEqual(before);
  });
});

describe('layover-desk rebuild', () => {
  /** A small factory: learnings, a run that asks for help, and decisions on both. */
  async function decidedFactory(): Promise<void> {
    const at = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    appendEvents(
      factory,
      proposed({ at, agent: 'builder', text: 'the docs site builds with mkdocs' }),
      proposed({ at, agent: 'builder', text: 'the staging database resets every sunday night' }),
      runStarted({ at, run: 'r1', agent: 'builder', chain: 'c1', workflow: 'builder-daily', flags: { cache: true } }),
      helpRequested({ at, id: 'hlp_1', agent: 'builder', run: 'r1', chain: 'c1', question: 'Which token may I use?' }),
    );
    await ok('ingest');
    const [a, b] = (await jsonIn<{ id: string }[]>(factory, 'learnings')).map((l) => l.id) as [string, string];
    await ok('reject', '--by', 'Ana', a);
    await ok('keep', '--by', 'Ben', b);
    await ok('reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', 'the read-only token', '--set-flag', 'cache=false');
  }

  it('rebuild makes the ledger again from the event files and the journal while no event file has been swept', async () => {
    await decidedFactory();
    const before = await everythingListed();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(ledgerPath(factory) + suffix, { force: true });
    const missing = await runIn(factory, 'ingest');
    expect(missing.code).toBe(1); // a missing ledger in a factory with a history is not started afresh
    const rebuilt = JSON.parse(await ok('rebuild', '--json')) as { events: number; decisions: number };
    expect(rebuilt).toMatchObject({ events: 4, decisions: 3 });
    // The reply changed an inherited flag on purpose: the rebuilt request records the same change.
    expect((await jsonIn<{ flags_changed: unknown }[]>(factory, 'help-requests'))[0]?.flags_changed).toEqual({ cache: true });
    // A learning read again from its proposal gets a new id; everything else is as it was.
    expect(withoutLearningIds(await everythingListed())).toEqual(withoutLearningIds(before));
  });

  it('rebuild refuses, saying why, once a sweep has deleted an event file, and leaves the ledger as it was', async () => {
    appendEvents(factory, proposed({ at: '2020-01-01T08:00:00.000Z', agent: 'builder', text: 'an old learning from long ago' }));
    await decidedFactory();
    const sweep = JSON.parse(await ok('sweep', '--json')) as { event_files: number };
    expect(sweep.event_files).toBe(1);
    const bytes = fs.readFileSync(ledgerPath(factory));
    const refused = await runIn(factory, 'rebuild');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^layover-desk rebuild: not rebuilding: a sweep deleted events\/2020-01-01\.jsonl on .*, so the event files no longer hold everything the ledger did; restore a safety copy instead/,
    );
    expect(fs.readFileSync(ledgerPath(factory)).equals(bytes)).toBe(true);
  });
});
