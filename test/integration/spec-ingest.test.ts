/**
 * The factory folder (docs/factory-format.md#the-factory-folder): what ingesting the events files
 * makes of them, through the CLI in-process on a temporary factory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HELP_CATEGORIES } from '../../shared/domain.js';
import { jsonIn, runIn } from '../support/cli.js';
import { fullRun, helpRequested, proposed, runFinished, runStarted, type EventLine } from '../support/events.js';
import { appendEvents, tempFactory, writeSettings } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';

let factory: string;
freshFactoryEachTest('layover-spec-ingest-', (dir) => (factory = dir));
const extra: Array<() => void> = [];
afterEach(() => {
  vi.useRealTimers();
  for (const remove of extra.splice(0)) remove();
});

async function ingest(dir = factory): Promise<void> {
  const result = await runIn(dir, 'ingest', '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ refused: [] });
}

/** A history with a learning that lapses, one rediscovered, one fresh, and a help request. */
const HISTORY: EventLine[] = [
  proposed({ at: '2026-03-01T08:00:00.000Z', agent: 'builder', text: 'the staging database resets every night at midnight' }),
  proposed({ at: '2026-03-01T08:01:00.000Z', agent: 'builder', text: 'run the migrations before the integration suite' }),
  ...fullRun('builder', 'r1', '2026-03-01T09:00:00.000Z', '2026-03-01T09:30:00.000Z'),
  ...fullRun('builder', 'r2', '2026-03-02T09:00:00.000Z', '2026-03-02T09:30:00.000Z'),
  proposed({ at: '2026-03-02T10:00:00.000Z', agent: 'builder', text: 'Run the migrations before the integration suite!' }),
  runStarted({ at: '2026-03-03T09:00:00.000Z', run: 'r3', agent: 'builder', chain: 'c3', workflow: 'release', flags: { publish: true } }),
  helpRequested({ at: '2026-03-03T09:05:00.000Z', id: 'hlp_1', agent: 'builder', run: 'r3', chain: 'c3' }),
  runFinished({ at: '2026-03-03T09:30:00.000Z', run: 'r3', agent: 'builder', outcome: 'stopped' }),
];

describe('the factory directory (docs/factory-format.md)', () => {
  it('times in the ledger come from the events, never the clock: the same files ingested at different times give identical learnings, runs and requests', async () => {
    writeSettings(factory, '[learnings]\nprovisional_runs = 2\n');
    appendEvents(factory, ...HISTORY);
    const second = tempFactory('layover-spec-ingest-');
    extra.push(second.remove);
    fs.cpSync(factory, second.dir, { recursive: true });

    const snapshot = async (dir: string) => ({
      learnings: await jsonIn<Array<Record<string, unknown>>>(dir, 'learnings'),
      runs: await jsonIn(dir, 'runs'),
      requests: await jsonIn(dir, 'help-requests'),
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-01-01T00:00:00.000Z'));
    await ingest(factory);
    const first = await snapshot(factory);
    vi.setSystemTime(new Date('2031-06-15T12:34:56.000Z'));
    await ingest(second.dir);
    const later = await snapshot(second.dir);
    vi.useRealTimers();

    // Ids are fresh ULIDs in each ledger; everything else is the same.
    const withoutIds = (s: typeof first) => ({
      ...s,
      learnings: s.learnings.map(({ id: _id, ...rest }) => rest).sort((a, b) => String(a.text).localeCompare(String(b.text))),
    });
    expect(withoutIds(later)).toEqual(withoutIds(first));
    const byText = (text: string) => first.learnings.find((l) => String(l.text).startsWith(text));
    expect(byText('the staging')).toMatchObject({
      state: 'lapsed', first_at: '2026-03-01T08:00:00.000Z', last_at: '2026-03-01T08:00:00.000Z',
      live_since: '2026-03-01T08:00:00.000Z', lapsed_at: '2026-03-02T09:30:00.000Z',
    });
    expect(byText('run the migrations')).toMatchObject({
      state: 'provisional', rediscoveries: 1, first_at: '2026-03-01T08:01:00.000Z', last_at: '2026-03-02T10:00:00.000Z',
      live_since: '2026-03-02T10:00:00.000Z', lapsed_at: null, runs_left: 1,
    });
    expect(first.requests).toMatchObject([{ id: 'hlp_1', at: '2026-03-03T09:05:00.000Z' }]);
  });

  it('fields an event type does not name are ignored, and the line is still applied', async () => {
    appendEvents(
      factory,
      runStarted({ at: '2026-03-01T08:00:00.000Z', run: 'r1', agent: 'builder', chain: 'c1', workflow: 'release', flags: { publish: false }, priority: 'urgent', state: 'done' }),
      proposed({ at: '2026-03-01T08:01:00.000Z', agent: 'builder', text: 'the docs site builds with mkdocs', state: 'confirmed', runs_left: 999, id: 'lrn_mine' }),
      helpRequested({ at: '2026-03-01T08:02:00.000Z', id: 'hlp_1', agent: 'builder', run: 'r1', chain: 'c1', workflow: 'yolo', flags: { publish: true }, routes: ['prod'], state: 'answered' }),
      runFinished({ at: '2026-03-01T08:03:00.000Z', run: 'r1', agent: 'builder', runs_left: 0 }),
    );
    await ingest();
    const [learning] = await jsonIn<Array<Record<string, unknown>>>(factory, 'learnings');
    expect(learning).toMatchObject({ state: 'provisional', runs_left: 20, text: 'the docs site builds with mkdocs' });
    expect(learning!.id).not.toBe('lrn_mine');
    const [request] = await jsonIn<Array<Record<string, unknown>>>(factory, 'help-requests');
    expect(request).toMatchObject({ state: 'open', workflow: 'release', flags: { publish: false }, routes: [] });
    const [run] = await jsonIn<Array<Record<string, unknown>>>(factory, 'runs');
    expect(run).toMatchObject({ run: 'r1', outcome: 'succeeded', workflow: 'release' });
  });

  it('each of the six categories is accepted and filed as itself', async () => {
    expect(HELP_CATEGORIES).toEqual(['access', 'clarification', 'decision', 'environment', 'external', 'other']);
    appendEvents(
      factory,
      ...HELP_CATEGORIES.map((category, i) =>
        helpRequested({ at: `2026-03-01T08:0${i}:00.000Z`, id: `hlp_${category}`, agent: 'builder', run: 'r1', chain: 'c1', category }),
      ),
    );
    await ingest();
    const requests = await jsonIn<Array<{ id: string; category: string }>>(factory, 'help-requests');
    expect(requests.map((r) => [r.id, r.category]).sort()).toEqual(HELP_CATEGORIES.map((c) => [`hlp_${c}`, c]).sort());
  });

  it('the files the Desk writes are written whole: no temporary file is left behind and each parses', async () => {
    appendEvents(
      factory,
      ...HISTORY,
      proposed({ at: '2026-03-04T08:00:00.000Z', agent: 'reviewer', text: 'read the changelog before approving a bump' }),
    );
    await ingest();
    const [learning] = await jsonIn<Array<{ id: string }>>(factory, 'learnings', '--agent', 'reviewer');
    expect((await runIn(factory, 'reject', '--by', 'Ana', learning!.id)).code).toBe(0);
    expect((await runIn(factory, 'reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', 'use the bot token')).code).toBe(0);

    const learningsDir = path.join(factory, 'learnings');
    const chainsDir = path.join(factory, 'chains');
    expect(fs.readdirSync(learningsDir).sort()).toEqual(['builder.json', 'reviewer.json']);
    for (const name of fs.readdirSync(learningsDir)) {
      const file = JSON.parse(fs.readFileSync(path.join(learningsDir, name), 'utf8'));
      expect(file.agent).toBe(name.replace(/\.json$/, ''));
    }
    expect(JSON.parse(fs.readFileSync(path.join(learningsDir, 'reviewer.json'), 'utf8')).learnings).toEqual([]);
    const chainFiles = fs.readdirSync(chainsDir);
    expect(chainFiles).toHaveLength(1);
    expect(chainFiles[0]).toMatch(/\.json$/);
    expect(JSON.parse(fs.readFileSync(path.join(chainsDir, chainFiles[0]!), 'utf8'))).toMatchObject({ answers: 'hlp_1', workflow: 'release' });
  });

  it('a learnings file that cannot be written fails the ingest (exit 1) naming it, leaves no temporary file, and is written whole once it can be', async () => {
    appendEvents(factory, proposed({ at: '2026-03-01T08:00:00.000Z', agent: 'builder', text: 'the docs site builds with mkdocs' }));
    await ingest();
    const file = path.join(factory, 'learnings', 'builder.json');
    // The file is replaced by a folder the Desk cannot rename over.
    fs.rmSync(file);
    fs.mkdirSync(path.join(file, 'in-the-way'), { recursive: true });
    appendEvents(factory, proposed({ at: '2026-03-01T08:05:00.000Z', agent: 'builder', text: 'the changelog is generated from commits' }));
    const failed = await runIn(factory, 'ingest');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('builder.json');
    expect(fs.readdirSync(path.join(factory, 'learnings'))).toEqual(['builder.json']);
    // Once the way is clear, the next ingest writes the file whole.
    fs.rmSync(file, { recursive: true });
    await ingest();
    const after = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(after.learnings).toHaveLength(2);
  });
  it('the day files are read in name order, whatever order they were created in', async () => {
    // The later day's file is created first: a run that finished after midnight, and a proposal.
    appendEvents(
      factory,
      runFinished({ at: '2026-03-02T00:10:00.000Z', run: 'r1', agent: 'builder' }),
      proposed({ at: '2026-03-02T00:20:00.000Z', agent: 'builder', text: 'Run the migrations before the integration suite!' }),
    );
    appendEvents(
      factory,
      proposed({ at: '2026-03-01T22:00:00.000Z', agent: 'builder', text: 'run the migrations before the integration suite' }),
      runStarted({ at: '2026-03-01T23:50:00.000Z', run: 'r1', agent: 'builder' }),
    );
    await ingest();
    const [run] = await jsonIn<Array<Record<string, unknown>>>(factory, 'runs');
    expect(run).toMatchObject({ run: 'r1', started_at: '2026-03-01T23:50:00.000Z', finished_at: '2026-03-02T00:10:00.000Z' });
    expect(await jsonIn(factory, 'learnings')).toMatchObject([
      { text: 'run the migrations before the integration suite', echoes: 1, runs_left: 19, first_at: '2026-03-01T22:00:00.000Z' },
    ]);
  });
});
