/**
 * Retention sweeps and safety copies through the CLI, in-process, on a temporary factory whose
 * events are dated in the past and ingested as the Desk would.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { SweepReport } from '../../shared/domain.js';
import { cli as runCliIn } from '../support/cli.js';
import { fullRun, proposed, type EventLine } from '../support/events.js';
import { appendEvents, inTimeOrder, writeSettings } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';
import { queryLedger, withTestLedger } from '../support/ledger.js';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const T0 = Date.now();
const ago = (ms: number) => new Date(T0 - ms).toISOString();

let factory: string;
freshFactoryEachTest('layover-retention-', (dir) => (factory = dir));

/** `layover-desk ARGV` in-process, run in the factory folder (each call names --factory itself). */
const cli = (...argv: string[]) => runCliIn(argv, factory);

/** Catches the ledger up with the events files, as the Desk does. */
async function ingest(): Promise<void> {
  const result = await cli('ingest', '--factory', factory, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ refused: [] });
}

async function decide(kind: 'reject' | 'keep', id: string): Promise<void> {
  const result = await cli(kind, '--factory', factory, '--by', 'Operator', id);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

/** Writes events into the day files their `at` falls on, appending in time order. */
const writeEvents = (events: EventLine[]) => appendEvents(factory, ...inTimeOrder(events));

function run(agent: string, id: string, startedAt: string, finishedAt: string): EventLine[] {
  return fullRun(agent, id, startedAt, finishedAt, { chain: `chain-${id}`, workflow: 'build' });
}

const propose = (agent: string, text: string, at: string) => proposed({ at, agent, text });

/** A learning that lapsed at `lapsedAt`: proposed a week before, then one run (provisional_runs = 1). */
function lapsedLearning(agent: string, text: string, lapsedAt: number): EventLine[] {
  return [propose(agent, text, ago(lapsedAt + 7 * DAY)), ...run(agent, `run-${agent}`, ago(lapsedAt + HOUR), ago(lapsedAt))];
}

const query = <T>(sql: string, ...params: unknown[]) => queryLedger<T>(factory, sql, ...params);

const learningOf = (agent: string) =>
  query<{ id: string; state: string; lapsed_at: string | null }>('SELECT id, state, lapsed_at FROM learnings WHERE agent = ?', agent);
const count = (table: string) => query<{ n: number }>(`SELECT count(*) AS n FROM ${table}`)[0]!.n;

async function sweepJson(): Promise<SweepReport> {
  const result = await cli('sweep', '--factory', factory, '--json');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return SweepReport.parse(JSON.parse(result.stdout));
}

beforeEach(() => {
  writeSettings(factory, '[learnings]\nprovisional_runs = 1\n');
});

describe('a sweep keeps exactly what the retention rules keep', () => {
  it('help requests, runs and the proposal log are kept at 89 days and deleted at 91; the report counts exactly what went', async () => {
    writeEvents([
      ...run('ops', 'r91', ago(91 * DAY + HOUR), ago(91 * DAY)),
      { type: 'help.requested', at: ago(91 * DAY + 30 * 60_000), id: 'h91', agent: 'ops', run: 'r91', chain: 'chain-r91', fatal: true, question: 'old?' },
      ...run('ops', 'r89', ago(89 * DAY + HOUR), ago(89 * DAY)),
      { type: 'help.requested', at: ago(89 * DAY + 30 * 60_000), id: 'h89', agent: 'ops', run: 'r89', chain: 'chain-r89', fatal: true, question: 'recent?' },
      propose('talker', 'the staging database resets every sunday night', ago(91 * DAY)),
      propose('talker', 'integration tests need the VPN on port 8443', ago(89 * DAY)),
    ]);
    await ingest();
    const before = { help: count('help_requests'), runs: count('runs'), proposals: count('proposals'), learnings: count('learnings') };

    const report = await sweepJson();

    expect(query('SELECT id FROM help_requests')).toEqual([{ id: 'h89' }]);
    expect(query('SELECT run FROM runs')).toEqual([{ run: 'r89' }]);
    expect(query('SELECT text FROM proposals')).toEqual([{ text: 'integration tests need the VPN on port 8443' }]);
    expect(report).toMatchObject({
      help_requests: before.help - count('help_requests'),
      runs: before.runs - count('runs'),
      proposals: before.proposals - count('proposals'),
      lapsed_learnings: before.learnings - count('learnings'),
    });
    expect(report).toMatchObject({ help_requests: 1, runs: 1, proposals: 1, lapsed_learnings: 0, chains: 1 });
    // The old chain has nothing left that names it, so it goes too; the recent one stays.
    expect(query('SELECT chain FROM chains ORDER BY chain')).toEqual([{ chain: 'chain-r89' }]);
    // Both proposals made provisional learnings: state, not events, so both stay.
    expect(learningOf('talker').map((l) => l.state)).toEqual(['provisional', 'provisional']);
  });

  it('lapsed learnings are kept 13 days after they lapsed and deleted 15 days after (keep_lapsed_days 14 by default)', async () => {
    writeEvents([
      ...lapsedLearning('lap13', 'the cache key must include the node version', 13 * DAY),
      ...lapsedLearning('lap15', 'the release script needs a clean working tree', 15 * DAY),
    ]);
    await ingest();
    expect(learningOf('lap13')).toMatchObject([{ state: 'lapsed', lapsed_at: ago(13 * DAY) }]);
    expect(learningOf('lap15')).toMatchObject([{ state: 'lapsed', lapsed_at: ago(15 * DAY) }]);

    const report = await sweepJson();

    expect(report.lapsed_learnings).toBe(1);
    expect(learningOf('lap13')).toHaveLength(1);
    expect(learningOf('lap15')).toEqual([]);
    // The deleted learning's history goes with it; the kept one's stays whole.
    expect(query('SELECT DISTINCT learning_id FROM learning_history')).toEqual([{ learning_id: learningOf('lap13')[0]!.id }]);
  });

  it('with keep_lapsed_days = 0 a learning that lapsed a minute ago is deleted at the first sweep', async () => {
    writeSettings(factory, '[learnings]\nprovisional_runs = 1\nkeep_lapsed_days = 0\n');
    writeEvents(lapsedLearning('now', 'the linter config lives in tools/lint', 60_000));
    await ingest();
    expect(learningOf('now')).toMatchObject([{ state: 'lapsed' }]);

    expect((await sweepJson()).lapsed_learnings).toBe(1);
    expect(learningOf('now')).toEqual([]);
  });

  it('a lapsed learning with no lapsed_at (lapsed before it was recorded) is judged by last_at', async () => {
    writeEvents([
      ...lapsedLearning('old', 'the artifacts bucket is in eu-west-1', 2 * DAY),
      ...lapsedLearning('young', 'the mirror syncs every six hours', 2 * DAY),
    ]);
    await ingest();
    // A ledger from before lapsed_at was recorded: only last_at (the proposal) dates the learning.
    withTestLedger(factory, (db) => {
      db.prepare(`UPDATE learnings SET lapsed_at = NULL, last_at = ? WHERE agent = 'old'`).run(ago(15 * DAY));
      db.prepare(`UPDATE learnings SET lapsed_at = NULL, last_at = ? WHERE agent = 'young'`).run(ago(13 * DAY));
    });

    expect((await sweepJson()).lapsed_learnings).toBe(1);
    expect(learningOf('old')).toEqual([]);
    expect(learningOf('young')).toHaveLength(1);
  });

  it('rejected, confirmed and provisional learnings older than every horizon stay', async () => {
    writeEvents([
      propose('rej', 'force-push to main is fine for hotfixes', ago(400 * DAY)),
      propose('conf', 'the e2e suite needs chromium installed', ago(400 * DAY)),
      propose('prov', 'the vendor API rate limit is 100 per minute', ago(400 * DAY)),
    ]);
    await ingest();
    await decide('reject', learningOf('rej')[0]!.id);
    await decide('keep', learningOf('conf')[0]!.id);

    const report = await sweepJson();

    expect(report.lapsed_learnings).toBe(0);
    expect(report.proposals).toBe(3); // the proposal log of 400 days ago goes; the learnings do not
    expect(learningOf('rej')).toMatchObject([{ state: 'rejected' }]);
    expect(learningOf('conf')).toMatchObject([{ state: 'confirmed' }]);
    expect(learningOf('prov')).toMatchObject([{ state: 'provisional' }]);
    // A person's no still holds: the same text proposed again is refused.
    writeEvents([propose('rej', 'force-push to main is fine for hotfixes', new Date().toISOString())]);
    await ingest();
    expect(query(`SELECT outcome FROM proposals WHERE agent = 'rej'`)).toEqual([{ outcome: 'refused' }]);
  });

  it('fully read old events files are deleted; unread and half-read ones are not', async () => {
    const dir = path.join(factory, 'events');
    const read = `${ago(95 * DAY).slice(0, 10)}.jsonl`;
    const recent = `${ago(10 * DAY).slice(0, 10)}.jsonl`;
    const halfRead = `${ago(97 * DAY).slice(0, 10)}.jsonl`;
    const unread = `${ago(100 * DAY).slice(0, 10)}.jsonl`;
    writeEvents([
      propose('talker', 'the docs site builds with mkdocs', ago(95 * DAY)),
      propose('talker', 'the changelog is generated from commits', ago(10 * DAY)),
      propose('talker', 'the half read file still has a complete line', ago(97 * DAY)),
    ]);
    // Its last line is still being written: read up to the line before.
    fs.appendFileSync(path.join(dir, halfRead), '{"type":"learning.prop');
    await ingest();
    // Appeared after the catch-up: not read at all yet.
    writeEvents([propose('talker', 'the unread file is kept until it is read', ago(100 * DAY))]);

    const report = await sweepJson();

    expect(report.event_files).toBe(1);
    expect(fs.readdirSync(dir).sort()).toEqual([halfRead, recent, unread].sort());
    expect(query<{ name: string }>('SELECT name FROM event_files ORDER BY name').map((r) => r.name)).toEqual([halfRead, recent]);
    expect(fs.existsSync(path.join(dir, read))).toBe(false);
  });

  it('after fully read old events files are swept, ingest reads nothing again and the ledger is unchanged', async () => {
    const dir = path.join(factory, 'events');
    const oldDay = ago(95 * DAY).slice(0, 10);
    writeEvents([
      propose('talker', 'the docs site builds with mkdocs', `${oldDay}T08:00:00.000Z`),
      ...run('other', 'old-run', `${oldDay}T09:00:00.000Z`, `${oldDay}T10:00:00.000Z`),
      propose('talker', 'the changelog is generated from commits', ago(10 * DAY)),
    ]);
    await ingest();
    const learningsBefore = query('SELECT * FROM learnings ORDER BY id');
    const report = await sweepJson();
    expect(report.event_files).toBe(1);
    expect(fs.readdirSync(dir)).toEqual([`${ago(10 * DAY).slice(0, 10)}.jsonl`]);

    const again = await cli('ingest', '--factory', factory, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: 0, refused: [], runs_finished: 0 });
    expect(query('SELECT * FROM learnings ORDER BY id')).toEqual(learningsBefore);
    expect(count('proposals')).toBe(1);
    // A line appended to the recent file is read from where the ledger stopped, and only it.
    writeEvents([propose('talker', 'the release script needs a clean working tree', ago(10 * DAY - HOUR))]);
    const next = await cli('ingest', '--factory', factory, '--json');
    expect(JSON.parse(next.stdout)).toMatchObject({ applied: 1, refused: [] });
    expect(count('learnings')).toBe(3);
  });

  it('refused event lines go a whole UTC day at a time, and the report counts them', async () => {
    const dir = path.join(factory, 'events');
    const old = `${ago(91 * DAY).slice(0, 10)}.jsonl`;
    const recent = `${ago(89 * DAY).slice(0, 10)}.jsonl`;
    fs.mkdirSync(dir, { recursive: true });
    // The old file is still being appended to (a partial last line), so it stays, with its refusals' record going.
    fs.writeFileSync(path.join(dir, old), '{"type": "broken\nnot json at all\n{"type":"learning.prop');
    fs.writeFileSync(path.join(dir, recent), 'also not json\n');
    const ingested = await cli('ingest', '--factory', factory, '--json');
    expect(ingested.code).toBe(0);
    expect(JSON.parse(ingested.stdout).refused).toHaveLength(3);

    const report = await sweepJson();

    expect(report.refused_lines).toBe(2);
    expect(query<{ file: string }>('SELECT file FROM refused_lines')).toEqual([{ file: `events/${recent}` }]);
    const again = await cli('sweep', '--factory', factory);
    expect(again.stdout).toMatch(/^Swept at \S+: /);
    expect(again.stdout).not.toMatch(/refused line/);
  });

  it('a sweep prints a readable report without --json naming only what it deleted, and is recorded', async () => {
    writeEvents(lapsedLearning('lap15', 'the release script needs a clean working tree', 15 * DAY));
    await ingest();
    const result = await cli('sweep', '--factory', factory);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Swept at \S+: deleted 1 lapsed learning\.$/m);
    expect(query('SELECT count(*) AS n FROM sweeps')).toEqual([{ n: 1 }]);
    const again = await cli('sweep', '--factory', factory);
    expect(again.stdout).toMatch(/^Swept at \S+: nothing to delete\.$/m);
  });

  it('a layover.toml with errors is refused rather than swept with other settings', async () => {
    writeSettings(factory, '[retention]\ndays = 0\n');
    const result = await cli('sweep', '--factory', factory);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/retention\.days/);
  });

  it('sweep --help explains the rules', async () => {
    const result = await cli('sweep', '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/keep_lapsed_days/);
  });
});
