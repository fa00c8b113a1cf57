/**
 * "Worth a look" on real ledgers (docs/rules.md#worth-a-look): the evidence is read from runs,
 * what they were given and the proposal log, and a dismissal holds until that evidence grows.
 */
import { describe, expect, it } from 'vitest';
import type { RunOutcome } from '../../shared/domain.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import type { Db } from '../../electron/node/store/db.js';
import { applyProposal } from '../../electron/node/store/proposals.js';
import { applyRunFinished, applyRunStarted } from '../../electron/node/store/runs.js';
import { decideLearnings } from '../../electron/node/store/decisions.js';
import { CHAINS_OF_REDISCOVERY, dismissWorth, worthALook } from '../../electron/node/store/worth.js';
import { sweep } from '../../electron/node/sweep.js';
import { learningDetail } from '../../electron/node/store/learningQueries.js';
import { freshLedgerEachTest, keptRunCounts, recountedRuns } from '../support/ledger.js';

let db: Db;
let factory: string;
freshLedgerEachTest('layover-worth-', (made) => ({ db, factory } = made));

/** A long life, so no learning lapses unless a test asks for it. */
const LONG = { ...DEFAULT_SETTINGS.learnings, provisional_runs: 1000 };
const BASE = Date.UTC(2026, 10, 1);
let clock = 0;
function at(): string {
  clock += 1;
  return new Date(BASE + clock * 60_000).toISOString();
}

function propose(db: Db, agent: string, text: string, run: string | null = null, settings = LONG): string {
  const result = applyProposal(db, { agent, text, impact: 'medium', at: at(), run }, settings);
  if (!result.learning_id) throw new Error(`proposal refused: ${result.reason}`);
  return result.learning_id;
}

let runs = 0;
function run(db: Db, agent: string, given: string[], outcome: RunOutcome | null, chain = `chn_${runs + 1}`): string {
  runs += 1;
  const id = `run_${runs}`;
  applyRunStarted(db, { run: id, agent, chain, workflow: 'build', flags: {}, routes: [], learnings: given, at: at() });
  if (outcome) applyRunFinished(db, { run: id, agent, outcome, at: at() });
  return id;
}

function times(n: number, fn: () => void): void {
  for (let i = 0; i < n; i++) fn();
}

function listed(db: Db): Map<string, string[]> {
  return new Map(worthALook(db).entries.map((e) => [e.learning.id, e.reasons]));
}

/** A learning whose runs fail 9 times in 10 while the agent's other 20 runs fail once. */
function failingLearning(db: Db): string {
  const id = propose(db, 'builder', 'always clear the artifact cache before a release build');
  times(9, () => run(db, 'builder', [id], 'failed'));
  run(db, 'builder', [id], 'succeeded');
  times(19, () => run(db, 'builder', [], 'succeeded'));
  run(db, 'builder', [], 'failed');
  return id;
}

/** Learnings never echoed, so the agent's median echo count is 0. */
const QUIET_TEXTS = [
  'the nightly job writes its report to the shared folder',
  'use the second runner for jobs that need a GPU',
  'the billing service answers slowly before nine',
  'tag images with the commit hash, never latest',
];

function entryOf(db: Db, id: string) {
  const entry = worthALook(db).entries.find((e) => e.learning.id === id);
  if (!entry) throw new Error(`${id} is not worth a look`);
  return entry;
}

describe('worth a look', () => {
  it('lists a learning whose runs fail clearly more often than the agent other runs, saying so', () => {
    const id = failingLearning(db);
    const quiet = propose(db, 'builder', 'the staging database resets every night at two');
    times(10, () => run(db, 'builder', [quiet], 'succeeded'));
    const found = listed(db);
    expect(found.get(id)).toEqual([
      "runs given it fail more often: 9 of 10 did not succeed (90%), against 3% of the agent's 30 other runs",
    ]);
    expect(found.has(quiet)).toBe(false);
  });

  it('does not count runs that have not finished, on either side', () => {
    const id = propose(db, 'builder', 'always clear the artifact cache before a release build');
    times(4, () => run(db, 'builder', [id], 'failed'));
    times(10, () => run(db, 'builder', [id], null));
    times(20, () => run(db, 'builder', [], 'succeeded'));
    expect(listed(db).has(id)).toBe(false);
    run(db, 'builder', [id], 'failed');
    expect(listed(db).has(id)).toBe(true);
  });

  it('lists a learning echoed far above its agent norm, and not one echoed once fewer', () => {
    const parroted = propose(db, 'scout', 'the vendor mirror is read only on weekends');
    times(5, () => propose(db, 'scout', 'the vendor mirror is read only on weekends'));
    const almost = propose(db, 'scout', 'retry the flaky login test once before reporting it');
    times(4, () => propose(db, 'scout', 'retry the flaky login test once before reporting it'));
    for (const text of QUIET_TEXTS) propose(db, 'scout', text);
    const found = listed(db);
    expect(found.get(parroted)).toEqual(["echoed 5 times while it was being given: the agent's median is 0 (flagged from 5)"]);
    expect(found.has(almost)).toBe(false);
  });

  it('lists a learning rediscovered from the chain of its first proposal, and not one rediscovered from another chain', () => {
    const short = { ...DEFAULT_SETTINGS.learnings, provisional_runs: 1 };
    const first = run(db, 'scout', [], null, 'chn_same');
    const echoing = propose(db, 'scout', 'the release branch is frozen on fridays', first, short);
    const other = run(db, 'scout', [], null, 'chn_first');
    const independent = propose(db, 'scout', 'the cache server drops keys over one megabyte', other, short);
    run(db, 'scout', [echoing, independent], 'succeeded', 'chn_same');
    const again = run(db, 'scout', [], null, 'chn_same');
    propose(db, 'scout', 'the release branch is frozen on fridays', again, short);
    const elsewhere = run(db, 'scout', [], null, 'chn_elsewhere');
    propose(db, 'scout', 'the cache server drops keys over one megabyte', elsewhere, short);
    const found = listed(db);
    expect(found.get(echoing)).toEqual(['a rediscovery came from chain chn_same, where it was first proposed: not independent']);
    expect(found.has(independent)).toBe(false);
    const rediscovered = db.prepare('SELECT rediscoveries FROM learnings WHERE id IN (?, ?) ORDER BY id').all(echoing, independent);
    expect(rediscovered).toEqual([{ rediscoveries: 1 }, { rediscoveries: 1 }]);
  });

  it('looks only at active learnings: a rejected one is not listed, whatever its evidence', () => {
    const id = failingLearning(db);
    decideLearnings(db, 'reject', { ids: [id] }, { by: 'Ada', now: new Date() });
    expect(listed(db).has(id)).toBe(false);
  });

  it('is display only: computing it leaves every learning and its history as it was', () => {
    failingLearning(db);
    const snapshot = () => ({
      learnings: db.prepare('SELECT * FROM learnings ORDER BY rowid').all(),
      history: db.prepare('SELECT * FROM learning_changes ORDER BY seq').all(),
      journal: db.prepare('SELECT * FROM decision_journal ORDER BY seq').all(),
    });
    const before = snapshot();
    expect(worthALook(db).total).toBe(1);
    expect(snapshot()).toEqual(before);
  });

  it('remembers a dismissal until the evidence changes: dismissed, it stays out through a run that succeeds, and comes back with a failing one', () => {
    const id = failingLearning(db);
    const entry = entryOf(db, id);
    expect(dismissWorth(db, id, entry.fingerprint, 'Ada', new Date())).toBe(true);
    expect(listed(db).has(id)).toBe(false);
    run(db, 'builder', [id], 'succeeded');
    run(db, 'builder', [], 'succeeded');
    expect(listed(db).has(id)).toBe(false);
    run(db, 'builder', [id], 'failed');
    expect(listed(db).get(id)?.[0]).toMatch(/^runs given it fail more often: 10 of 12 did not succeed/);
  });

  it('a dismissal against evidence that has already changed hides nothing', () => {
    const id = failingLearning(db);
    const stale = entryOf(db, id).fingerprint;
    run(db, 'builder', [id], 'failed');
    dismissWorth(db, id, stale, 'Ada', new Date());
    expect(listed(db).has(id)).toBe(true);
  });

  it('a dismissal of a learning the ledger does not have is refused, and a deleted learning takes its dismissal along', () => {
    expect(dismissWorth(db, 'lrn_nope', 'x', 'Ada', new Date())).toBe(false);
    const id = failingLearning(db);
    dismissWorth(db, id, entryOf(db, id).fingerprint, 'Ada', new Date());
    db.prepare('DELETE FROM learnings WHERE id = ?').run(id);
    expect(db.prepare('SELECT count(*) AS n FROM worth_dismissals').get()).toEqual({ n: 0 });
  });

  it('keeps its run counts equal to what the runs and what they were given say, through finishes, a sweep of old runs and a deleted learning', () => {
    const id = failingLearning(db);
    const other = propose(db, 'scout', 'the vendor mirror is read only on weekends');
    times(3, () => run(db, 'scout', [other], 'succeeded'));
    run(db, 'scout', [other], null);
    expect(keptRunCounts(db).learnings).toHaveLength(2);
    expect(keptRunCounts(db)).toEqual(recountedRuns(db));

    db.prepare('DELETE FROM learnings WHERE id = ?').run(id);
    expect(keptRunCounts(db)).toEqual(recountedRuns(db));

    sweep(db, factory, DEFAULT_SETTINGS, new Date(BASE + 400 * 86_400_000));
    expect(db.prepare('SELECT count(*) AS n FROM runs').get()).toEqual({ n: 0 });
    expect(keptRunCounts(db)).toEqual(recountedRuns(db));
  });
});

describe('which runs count for a learning', () => {
  it('a run given a learning of another agent counts for its own agent, never for that learning', () => {
    const id = failingLearning(db);
    times(3, () => run(db, 'scout', [id], 'succeeded'));
    const detail = learningDetail(db, id, DEFAULT_SETTINGS.learnings.max_per_run)!;
    expect([detail.given.runs, detail.given.succeeded]).toEqual([10, 1]);
    expect(detail.runs.map((r) => r.agent)).toEqual(Array(10).fill('builder'));
    expect(keptRunCounts(db).agents).toEqual([
      { agent: 'builder', runs: 30, succeeded: 20 },
      { agent: 'scout', runs: 3, succeeded: 3 },
    ]);
  });

  it('a sweep takes back the counts of the finished runs it deletes, and of no other run', () => {
    const id = failingLearning(db);
    const other = propose(db, 'scout', 'the vendor mirror is read only on weekends');
    run(db, 'scout', [id, other], 'failed');
    run(db, 'builder', [id], null);
    clock += 100 * 24 * 60;
    run(db, 'builder', [id], 'succeeded');
    run(db, 'scout', [other], 'succeeded');
    expect(learningDetail(db, id, DEFAULT_SETTINGS.learnings.max_per_run)!.given).toMatchObject({ runs: 11, succeeded: 2 });
    sweep(db, factory, DEFAULT_SETTINGS, new Date(BASE + 101 * 86_400_000));
    expect(learningDetail(db, id, DEFAULT_SETTINGS.learnings.max_per_run)!.given).toMatchObject({ runs: 1, succeeded: 1 });
    expect(keptRunCounts(db)).toEqual(recountedRuns(db));
    expect(keptRunCounts(db).learnings).toHaveLength(2);
  });

  it('the runs in a learning\'s detail are exactly those of its agent whose list names it, newest first, however alike the ids', () => {
    const id = failingLearning(db);
    const lookalike = `${id}0`;
    const named = run(db, 'builder', [lookalike, id], null);
    run(db, 'builder', [lookalike], 'failed');
    run(db, 'builder', [`x${id}`], 'failed');
    const runsListed = learningDetail(db, id, DEFAULT_SETTINGS.learnings.max_per_run)!.runs.map((r) => r.run);
    const expected = (db.prepare('SELECT run, learnings FROM runs WHERE agent = ? ORDER BY seq DESC').all('builder') as { run: string; learnings: string }[])
      .filter((r) => (JSON.parse(r.learnings) as string[]).includes(id))
      .map((r) => r.run);
    expect(runsListed[0]).toBe(named);
    expect(runsListed).toEqual(expected);
    expect(runsListed).toHaveLength(11);
  });
});

describe('a learning\'s evidence in its detail', () => {
  it('counts the finished runs given the learning and its agent\'s finished runs, with their successes, not the unfinished ones', () => {
    const id = failingLearning(db);
    run(db, 'builder', [id], null);
    const detail = learningDetail(db, id, DEFAULT_SETTINGS.learnings.max_per_run)!;
    expect([detail.given.runs, detail.given.succeeded]).toEqual([10, 1]);
    expect([detail.agent_overall.runs, detail.agent_overall.succeeded]).toEqual([30, 20]);
    const fresh = propose(db, 'builder', 'the staging bucket is emptied every sunday night');
    expect(learningDetail(db, fresh, DEFAULT_SETTINGS.learnings.max_per_run)!.given).toMatchObject({ runs: 0, succeeded: 0 });
  });
});

describe('noting a rediscovery stays cheap as the proposal log grows', () => {
  it('the first proposal of a rediscovered learning is found through the log index by time, never by reading every discovery', () => {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${CHAINS_OF_REDISCOVERY}`).all('2026-11-01T00:00:00.000Z', 'lrn_x', 'run_1') as { detail: string }[])
      .map((row) => row.detail)
      .join('\n');
    expect(plan).toMatch(/SEARCH o USING INDEX proposal_log_at/);
    expect(plan).not.toMatch(/proposal_log_outcome|SCAN o\b/);
  });
});
