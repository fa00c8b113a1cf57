/**
 * A learning's search entry (learnings_fts) is written last in an ingest batch, after the runs
 * the batch finishes (learningWrites.ts addSearchEntry): whatever the batch size and however
 * proposals and runs interleave, every learning must be found by its words after ingest, and
 * FTS5's own check of its index against the learnings table must pass.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ingestSync } from '../../electron/node/ingest.js';
import { ledgerPath, openDb } from '../../electron/node/store/db.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { appendEvents, tempFactory, type TempFactory } from '../support/factory.js';
import { proposed, runFinished, runStarted, type EventLine } from '../support/events.js';

/** Lines per batch tried: one line a batch, batches that end anywhere, and everything in one. */
const BATCHES = [1, 7, 5000];
const TOOLS = ['webpack', 'pytest', 'terraform', 'kubectl', 'postgres', 'redis', 'nginx', 'gradle', 'eslint', 'docker'];
const PLACES = ['staging', 'the nightly job', 'the release branch', 'the sandbox', 'the mirror', 'the build cache'];

const factories: TempFactory[] = [];
afterAll(() => {
  for (const f of factories) f.remove();
});

const at = (second: number): string => new Date(Date.UTC(2026, 10, 21, 9, 0, second)).toISOString();

/** Proposals, each with a word of its own (`marker<i>`), between runs that start and finish. */
function history(seed: number): { events: EventLine[]; markers: string[] } {
  const random = seededRandom(seed);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const events: EventLine[] = [];
  const markers: string[] = [];
  const open: { run: string; agent: string }[] = [];
  let second = 0;
  for (let i = 0; i < 120; i++) {
    const agent = random() < 0.5 ? 'builder' : 'scout';
    const run = `run_${i}`;
    events.push(runStarted({ at: at(second++), run, agent }));
    open.push({ run, agent });
    if (random() < 0.6) {
      const marker = `marker${i}`;
      markers.push(marker);
      events.push(proposed({ at: at(second++), agent, run, text: `Pin ${pick(TOOLS)} before ${pick(PLACES)} runs, see ${marker} for the reason.` }));
    }
    while (open.length > 0 && random() < 0.5) {
      const done = open.splice(Math.floor(random() * open.length), 1)[0]!;
      events.push(runFinished({ at: at(second++), run: done.run, agent: done.agent }));
    }
  }
  return { events, markers };
}

describe('search entries written last in an ingest batch', () => {
  for (const maxLines of BATCHES) {
    it(`every learning ingested ${maxLines} line(s) a batch between finishing runs is found by its own word, and FTS5's integrity check passes`, () => {
      const factory = tempFactory('layover-search-entries-');
      factories.push(factory);
      const { events, markers } = history(maxLines);
      appendEvents(factory.dir, ...events);
      const db = openDb(ledgerPath(factory.dir));
      try {
        ingestSync(db, factory.dir, { settings: DEFAULT_SETTINGS, export: false, maxLines });
        const found = db.prepare('SELECT l.text FROM learnings_fts f JOIN learnings l ON l.rowid = f.rowid WHERE learnings_fts MATCH ?').pluck();
        expect(markers.length).toBeGreaterThan(40);
        for (const marker of markers) expect(found.all(marker), marker).toEqual([expect.stringContaining(marker)]);
        expect(() => db.prepare("INSERT INTO learnings_fts (learnings_fts, rank) VALUES ('integrity-check', 1)").run()).not.toThrow();
      } finally {
        db.close();
      }
    });
  }
});
