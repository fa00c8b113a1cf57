/**
 * Reject by origin (docs/rules.md#a-persons-decisions): every learning first proposed in a run, or
 * in any run of a chain, rejected in one decision — on a real factory, its events ingested by the
 * CLI, the decision made by the store and by `layover-desk reject --run/--chain`.
 *
 * The story the events tell (provisional_runs = 1, so one run lapses a learning):
 * - chain c1: run r1 discovers A and B; run r2 discovers C and echoes A; r1 also discovers L,
 *   which r2 (started after it was live) lapses.
 * - chain c2: run r3 discovers D, echoes C (found in c1), and rediscovers L (found in c1).
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../electron/node/store/db.js';
import { ORIGIN_QUERIES, decideLearnings, originLearnings, undoDecisions } from '../../electron/node/store/decisions.js';
import { readJournal } from '../../electron/node/journal.js';
import { jsonIn, runIn } from '../support/cli.js';
import { proposed, runFinished, runStarted } from '../support/events.js';
import { appendEvents, writeSettings } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';
import { withTestLedger } from '../support/ledger.js';

let factory: string;
freshFactoryEachTest('layover-origin-', (dir) => (factory = dir));

const TEXT = {
  A: 'the integration tests need the redis container running first',
  B: 'pnpm install fails behind the proxy unless the registry is set in npmrc',
  C: 'the staging database resets every sunday night at two',
  D: 'the docs site builds with mkdocs material theme only',
  L: 'release tags must be signed with the team gpg key',
};
type Name = keyof typeof TEXT;

async function ok(...argv: string[]): Promise<string> {
  const result = await runIn(factory, ...argv);
  expect({ argv, code: result.code, stderr: result.stderr }).toEqual({ argv, code: 0, stderr: '' });
  return result.stdout;
}

/** Writes the story above and ingests it; returns each learning's id by its name. */
async function story(): Promise<Record<Name, string>> {
  writeSettings(factory, '[learnings]\nprovisional_runs = 1\n');
  const p = (at: string, run: string, name: Name) => proposed({ at: `2026-11-20T${at}:00.000Z`, agent: 'builder', text: TEXT[name], run });
  const t = (at: string) => `2026-11-20T${at}:00.000Z`;
  appendEvents(
    factory,
    runStarted({ at: t('08:00'), run: 'r1', agent: 'builder', chain: 'c1' }),
    p('08:01', 'r1', 'A'),
    p('08:02', 'r1', 'B'),
    p('08:03', 'r1', 'L'),
    runFinished({ at: t('08:10'), run: 'r1', agent: 'builder', outcome: 'failed' }),
    runStarted({ at: t('09:00'), run: 'r2', agent: 'builder', chain: 'c1' }),
    p('09:01', 'r2', 'C'),
    p('09:02', 'r2', 'A'),
    runFinished({ at: t('09:10'), run: 'r2', agent: 'builder', outcome: 'failed' }),
    runStarted({ at: t('10:00'), run: 'r3', agent: 'builder', chain: 'c2' }),
    p('10:01', 'r3', 'D'),
    p('10:02', 'r3', 'C'),
    p('10:03', 'r3', 'L'),
  );
  await ok('ingest');
  const listed = await jsonIn<{ id: string; text: string }[]>(factory, 'learnings');
  const ids = Object.fromEntries(Object.entries(TEXT).map(([name, text]) => [name, listed.find((l) => l.text === text)!.id]));
  return ids as Record<Name, string>;
}

const states = (db: Db) =>
  Object.fromEntries((db.prepare('SELECT text, state, runs_left FROM learnings').all() as { text: string; state: string; runs_left: number }[]).map((l) => [
    (Object.keys(TEXT) as Name[]).find((n) => TEXT[n] === l.text),
    `${l.state}/${l.runs_left}`,
  ]));

/** The states of `names` in `before` after a rejection: rejected, with the runs left they had. */
const rejected = (before: Record<string, string>, names: Name[]) =>
  Object.fromEntries(names.map((name) => [name, `rejected/${before[name]!.split('/')[1]}`]));

const NOW = new Date('2026-11-21T12:00:00.000Z');

describe('reject by origin', () => {
  it('a run’s origin is the learnings it discovered — not those it only echoed or rediscovered', async () => {
    const id = await story();
    withTestLedger(factory, (db) => {
      expect(originLearnings(db, { run: 'r3' }).map((l) => l.id)).toEqual([id.D]);
      expect(originLearnings(db, { run: 'r2' }).map((l) => l.id)).toEqual([id.C]);
      expect(originLearnings(db, { run: 'r1' }).map((l) => l.id)).toEqual([id.A, id.B, id.L]);
      expect(originLearnings(db, { run: 'no-such-run' })).toEqual([]);
    });
  });

  it('a chain’s origin is what any of its runs discovered, and only that', async () => {
    const id = await story();
    withTestLedger(factory, (db) => {
      const before = states(db);
      const result = decideLearnings(db, 'reject', { origin: { chain: 'c1' } }, { by: 'Ana', reason: 'bad chain', now: NOW });
      expect(result.changed).toEqual([id.A, id.B, id.L, id.C]);
      expect(states(db)).toEqual({ ...before, ...rejected(before, ['A', 'B', 'L', 'C']) });
    });
  });

  it('a learning already rejected is left unchanged, and undo restores every learning the origin rejection changed', async () => {
    const id = await story();
    withTestLedger(factory, (db) => {
      decideLearnings(db, 'reject', { ids: [id.B] }, { by: 'Ben', now: NOW });
      const before = states(db);
      const result = decideLearnings(db, 'reject', { origin: { run: 'r1' } }, { by: 'Ana', now: NOW });
      expect(result.changed).toEqual([id.A, id.L]);
      expect(result.unchanged).toEqual([id.B]);
      expect(states(db).B).toBe(before.B);
      expect(undoDecisions(db, result.changed, { by: 'Ana', now: NOW }).changed).toEqual([id.A, id.L]);
      expect(states(db)).toEqual(before);
    });
  });

  it('a decision sorts the learnings its target names into changed, unchanged and missing in the target\'s order, whether named by ids, a filter or an origin', async () => {
    const id = await story();
    withTestLedger(factory, (db) => {
      decideLearnings(db, 'reject', { ids: [id.B] }, { by: 'Ben', now: NOW });
      const before = states(db);
      const keep = (target: Parameters<typeof decideLearnings>[2]) => {
        const result = decideLearnings(db, 'keep', target, { by: 'Ana', now: NOW });
        const kept = states(db);
        expect(undoDecisions(db, result.changed, { by: 'Ana', now: NOW }).changed).toEqual(result.changed);
        expect(states(db)).toEqual(before);
        return { result, kept };
      };
      // Named ids: in the order given, each once; an id naming nothing is missing.
      const byIds = keep({ ids: [id.L, id.B, id.A, id.A, 'lrn_none'] });
      expect(byIds.result).toMatchObject({ changed: [id.L, id.A], unchanged: [id.B], missing: ['lrn_none'] });
      expect(byIds.kept).toEqual({ ...before, L: 'confirmed/' + before.L!.split('/')[1], A: 'confirmed/' + before.A!.split('/')[1] });
      // An origin: in the order its run discovered them.
      const byOrigin = keep({ origin: { run: 'r1' } });
      expect(byOrigin.result).toMatchObject({ changed: [id.A, id.L], unchanged: [id.B], missing: [] });
      expect(byOrigin.kept).toEqual(byIds.kept);
      // A filter: every match, oldest first.
      const byFilter = keep({ filter: { agent: 'builder' } });
      expect(byFilter.result).toMatchObject({ changed: [id.A, id.L, id.C, id.D], unchanged: [id.B], missing: [] });
    });
  });

  it('the journal records a rejection by origin as the ids it resolved to, so a replay rejects the same learnings', async () => {
    const id = await story();
    await ok('reject', '--by', 'Ana', '--run', 'r3');
    const last = readJournal(factory).at(-1)!;
    expect(last).toMatchObject({ what: 'reject', by: 'Ana', learnings: [{ id: id.D, agent: 'builder', text: TEXT.D }] });
  });

  it('layover-desk reject --run and --chain reject what the run or chain discovered, and name each one rejected', async () => {
    const id = await story();
    expect(await ok('reject', '--by', 'Ana', '--run', 'r2')).toBe(`rejected ${id.C}\n`);
    const chain = await runIn(factory, 'reject', '--by', 'Ana', '--chain', 'c1');
    expect(chain.stdout).toBe(`rejected ${id.A}\nrejected ${id.B}\nrejected ${id.L}\n`);
    expect(chain.stderr).toBe(`not changed: ${id.C} (already rejected)\n`);
    const listed = await jsonIn<{ id: string; state: string }[]>(factory, 'learnings', '--state', 'rejected');
    expect(listed.map((l) => l.id).sort()).toEqual([id.A, id.B, id.C, id.L].sort());
  });

  it('the window\'s reject by origin refuses a run or chain the ledger has no record of, as the CLI does', async () => {
    await story();
    withTestLedger(factory, (db) => {
      expect(() => decideLearnings(db, 'reject', { origin: { run: 'r9' } }, { by: 'Ana', now: NOW })).toThrow('no run r9 is recorded; nothing was changed');
      expect(() => decideLearnings(db, 'reject', { origin: { chain: 'c9' } }, { by: 'Ana', now: NOW })).toThrow('no chain c9 is recorded; nothing was changed');
    });
  });

  it('reject by origin refuses, changing nothing, a run or chain the ledger has no record of, and ids given beside an origin', async () => {
    const id = await story();
    const unknown = await runIn(factory, 'reject', '--by', 'Ana', '--run', 'r9');
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({ code: 2, stderr: 'layover-desk reject: no run r9 is recorded; nothing was changed\n' });
    const chain = await runIn(factory, 'reject', '--by', 'Ana', '--chain', 'c9');
    expect({ code: chain.code, stderr: chain.stderr }).toEqual({ code: 2, stderr: 'layover-desk reject: no chain c9 is recorded; nothing was changed\n' });
    const mixed = await runIn(factory, 'reject', '--by', 'Ana', '--run', 'r1', id.D);
    expect({ code: mixed.code, stderr: mixed.stderr }).toEqual({ code: 2, stderr: 'layover-desk reject: give learning ids or --run, not both\n' });
    expect(await jsonIn(factory, 'learnings', '--state', 'rejected')).toEqual([]);
  });

  it('an origin is found through the indexes (runs by chain, the proposal log by run), never by reading the whole log', async () => {
    await story();
    withTestLedger(factory, (db) => {
      const plan = (sql: string, param: string) =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(param) as { detail: string }[]).map((row) => row.detail).join('\n');
      const runPlan = plan(ORIGIN_QUERIES.run, 'r1');
      const chainPlan = plan(ORIGIN_QUERIES.chain, 'c1');
      for (const detail of [runPlan, chainPlan]) {
        expect(detail).toMatch(/SEARCH p USING INDEX proposal_log_run/);
        expect(detail).not.toMatch(/SCAN (p|r|l)\b/);
      }
      expect(chainPlan).toMatch(/SEARCH r USING (COVERING )?INDEX runs_chain/);
    });
  });
});
