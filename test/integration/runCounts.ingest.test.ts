/**
 * Worth a look's finished-run counts (schema migrations 10, 13 and 14: tallied during an ingest
 * batch and written at its end, store/runTally.ts), after ingest of runs given real learnings:
 * whatever the batch size, they must be what the runs and what each was given say, counted afresh
 * in plain code (recountedRuns); a batch rolled back counts none of its runs.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ingestSync } from '../../electron/node/ingest.js';
import { ledgerPath, openDb, type Db } from '../../electron/node/store/db.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { appendEvents, tempFactory, type TempFactory } from '../support/factory.js';
import { keptRunCounts, openRuns, recountedRuns } from '../support/ledger.js';
import { applyRunFinished } from '../../electron/node/store/runs.js';
import { abandonLearningBatch, beginLearningBatch, endLearningBatch } from '../../electron/node/store/learningWrites.js';
import { proposed, runFinished, runStarted, type EventLine } from '../support/events.js';

/** Lines per batch tried: one line a batch, batches that end anywhere, and every run in one. */
const BATCHES = [1, 7, 5000];
const OUTCOMES = ['succeeded', 'failed', 'stopped'];
const CLAIMS: Record<string, string[]> = {
  builder: [
    'Warm the dependency cache before the matrix jobs start, or each job downloads it again.',
    'Regenerate the API client after every schema change, the old one silently drops fields.',
    'Run migrations before seeding, the seed script assumes the newest table layout exists.',
  ],
  scout: [
    'The payments sandbox rejects cards issued after 2025, so use the fixed test card numbers.',
    'Restart the queue worker after changing its environment, it reads settings only at start.',
    'Keep the feature flag service reachable in tests, a missing flag defaults to enabled.',
  ],
};

const factories: TempFactory[] = [];
afterAll(() => {
  for (const f of factories) f.remove();
});

const at = (minute: number): string => new Date(Date.UTC(2026, 10, 20, 8, minute)).toISOString();

/**
 * A ledger of six learnings, then `runs` runs of two agents, each given a seeded subset of its
 * agent's learnings (and now and then an id the ledger does not know), overlapping, finished in
 * any order or not at all, ingested `maxLines` at a time. Now and then a run is also given a
 * learning of the other agent, which counts for nothing but the run's own agent.
 */
function ledgerWithRuns(seed: number, runs: number, maxLines: number): Db {
  const factory = tempFactory('layover-run-counts-');
  factories.push(factory);
  let minute = 0;
  appendEvents(factory.dir, ...Object.entries(CLAIMS).flatMap(([agent, texts]) => texts.map((text) => proposed({ at: at(minute++), agent, text }))));
  const db = openDb(ledgerPath(factory.dir));
  ingestSync(db, factory.dir, { settings: DEFAULT_SETTINGS, export: false });
  const ids = (agent: string) => (db.prepare('SELECT id FROM learnings WHERE agent = ? ORDER BY rowid').all(agent) as { id: string }[]).map((r) => r.id);
  const random = seededRandom(seed);
  const events: EventLine[] = [];
  const open: { run: string; agent: string }[] = [];
  for (let i = 0; i < runs; i++) {
    const agent = random() < 0.5 ? 'builder' : 'scout';
    const given = ids(agent).filter(() => random() < 0.7);
    if (random() < 0.2) given.push(`lrn_unknown_${i}`);
    if (random() < 0.2) given.push(ids(agent === 'builder' ? 'scout' : 'builder')[0]!);
    const run = `run_${i}`;
    events.push(runStarted({ at: at(minute++), run, agent, learnings: given }));
    open.push({ run, agent });
    while (open.length > 0 && random() < 0.45) {
      const [finished] = open.splice(Math.floor(random() * open.length), 1);
      if (random() < 0.9) events.push(runFinished({ at: at(minute++), ...finished!, outcome: OUTCOMES[Math.floor(random() * OUTCOMES.length)]! }));
    }
  }
  appendEvents(factory.dir, ...events);
  const result = ingestSync(db, factory.dir, { settings: DEFAULT_SETTINGS, maxLines, export: false });
  expect(result.refused).toEqual([]);
  return db;
}

describe("Worth a look's run counts after ingest", () => {
  for (const seed of [5, 11, 23]) {
    it(`are what the runs and what each was given say, whatever the batch size (seed ${seed})`, () => {
      for (const maxLines of BATCHES) {
        const db = ledgerWithRuns(seed, 60, maxLines);
        try {
          const counts = keptRunCounts(db);
          expect(counts.learnings.length).toBe(6);
          expect(counts).toEqual(recountedRuns(db));
        } finally {
          db.close();
        }
      }
    });
  }
});

describe('the counts of the runs an ingest batch finishes', () => {
  /** Finishes every run still open, in one batch as ingest makes it; `fail` rolls the batch back as a failing batch is. */
  function finishOpenRuns(db: Db, fail: boolean): void {
    const open = openRuns(db);
    expect(open.length).toBeGreaterThan(3);
    try {
      db.transaction(() => {
        beginLearningBatch(db);
        open.forEach(({ run, agent }, i) => applyRunFinished(db, { run, agent, outcome: i % 2 === 0 ? 'succeeded' : 'failed', at: at(500 + i) }));
        if (fail) throw new Error('the batch fails');
        endLearningBatch(db);
      })();
    } catch (error) {
      abandonLearningBatch(db);
      if (!fail) throw error;
    }
  }

  it('are not in the ledger when the batch is rolled back, and count once when the same runs finish in the next', () => {
    const db = ledgerWithRuns(5, 60, 5000);
    try {
      const before = keptRunCounts(db);
      finishOpenRuns(db, true);
      expect(keptRunCounts(db)).toEqual(before);
      finishOpenRuns(db, false);
      expect(keptRunCounts(db)).not.toEqual(before);
      expect(keptRunCounts(db)).toEqual(recountedRuns(db));
    } finally {
      db.close();
    }
  });

  it('are written at once for a run finished outside any batch', () => {
    const db = ledgerWithRuns(11, 60, 5000);
    try {
      const [open] = openRuns(db);
      applyRunFinished(db, { run: open!.run, agent: open!.agent, outcome: 'succeeded', at: at(900) });
      expect(keptRunCounts(db)).toEqual(recountedRuns(db));
    } finally {
      db.close();
    }
  });
});
