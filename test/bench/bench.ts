/**
 * `npm run bench`: how the ledger's costs grow, as ratios against a baseline measured in the same
 * run (these machines are noisy; absolute times mean little, ratios between neighbours do).
 *
 * - Matching a proposal with 100× more learnings of its agent: the word index should keep this
 *   near 1×. A scan of every learning would make it ~100×.
 * - A page of the learnings list (filter + sort + counts, and a text search) on 100,000 learnings
 *   against the same on 1,000: the indexes and FTS5 should keep it far below 100×.
 * - Ingest of event lines against the floor of only parsing and validating them: the cost of
 *   storing, matching and committing offsets.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseEventLine } from '../../electron/rules/events.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { ingestSync } from '../../electron/node/ingest.js';
import { openDb, type Db } from '../../electron/node/store/db.js';
import { queryLearnings } from '../../electron/node/store/learningQueries.js';
import { applyProposal } from '../../electron/node/store/learnings.js';

const SETTINGS = { ...DEFAULT_SETTINGS.learnings };
const VOCABULARY = (
  'cache pipeline docker image digest branch linter release changelog staging database token ' +
  'migration schema index retry timeout backoff worker queue upload bucket manifest workspace ' +
  'publish registry mirror proxy certificate secret rotate fixture snapshot flaky parallel shard ' +
  'compile bundle minify sourcemap coverage threshold deploy rollback canary feature toggle'
).split(' ');

/** A deterministic pseudo-random generator, so every run measures the same texts. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function sentence(next: () => number, n: number): string {
  const words: string[] = [];
  for (let i = 0; i < 7; i++) words.push(VOCABULARY[Math.floor(next() * VOCABULARY.length)]!);
  return `${words.join(' ')} step ${n}`;
}

function freshDb(): { db: Db; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-bench-'));
  return { db: openDb(path.join(dir, 'ledger.sqlite')), dir };
}

function fill(db: Db, agent: string, count: number): void {
  const next = random(count);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      applyProposal(db, { agent, text: sentence(next, i), impact: 'medium', at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString() }, SETTINGS);
    }
  })();
}

/** Median time of `fn` over `rounds` runs, in milliseconds. */
function median(rounds: number, fn: (round: number) => void): number {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    fn(round);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function report(name: string, baseline: number, measured: number, note: string): void {
  const ratio = measured / baseline;
  console.log(`${name.padEnd(44)} ${ratio.toFixed(2).padStart(7)}×   (${note}; baseline ${baseline.toFixed(3)} ms, measured ${measured.toFixed(3)} ms)`);
}

function proposalCost(learnings: number): number {
  const { db, dir } = freshDb();
  fill(db, 'builder', learnings);
  const next = random(7);
  const cost = median(400, (round) => {
    db.transaction(() => {
      applyProposal(db, { agent: 'builder', text: sentence(next, 1_000_000 + round), impact: 'low', at: '2027-01-01T00:00:00.000Z' }, SETTINGS);
    })();
  });
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return cost;
}

function queryCosts(learnings: number): { page: number; search: number } {
  const { db, dir } = freshDb();
  const perAgent = learnings / 4;
  for (const agent of ['builder', 'reviewer', 'publisher', 'scout']) fill(db, agent, perAgent);
  const page = median(30, () =>
    queryLearnings(db, { filter: { agent: 'reviewer', states: ['provisional'] }, sort: 'last_at', dir: 'desc', offset: 0, limit: 100 }),
  );
  const search = median(30, () => queryLearnings(db, { filter: { search: 'docker digest' }, sort: 'last_at', dir: 'desc', offset: 0, limit: 100 }));
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { page, search };
}

function ingestCosts(events: number): { parse: number; ingest: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-bench-factory-'));
  fs.mkdirSync(path.join(dir, 'events'));
  const next = random(3);
  const lines: string[] = [];
  for (let i = 0; i < events; i++) {
    const at = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
    const agent = ['builder', 'reviewer', 'scout'][i % 3]!;
    if (i % 10 === 0) lines.push(JSON.stringify({ type: 'run.started', at, run: `r${i}`, agent, chain: `c${i}`, workflow: 'w', flags: {}, routes: [], learnings: [] }));
    else if (i % 10 === 9) lines.push(JSON.stringify({ type: 'run.finished', at, run: `r${i - 9}`, agent, outcome: 'succeeded' }));
    else lines.push(JSON.stringify({ type: 'learning.proposed', at, agent, text: sentence(next, i % 500), impact: 'medium' }));
  }
  fs.writeFileSync(path.join(dir, 'events', '2026-11-01.jsonl'), `${lines.join('\n')}\n`);
  const parse = median(3, () => {
    for (const line of lines) parseEventLine(line);
  });
  const ingest = median(3, () => {
    fs.rmSync(path.join(dir, '.layover'), { recursive: true, force: true });
    const db = openDb(path.join(dir, '.layover', 'ledger.sqlite'));
    ingestSync(db, dir, { settings: DEFAULT_SETTINGS, export: false });
    db.close();
  });
  fs.rmSync(dir, { recursive: true, force: true });
  return { parse, ingest };
}

console.log('Layover Desk benchmark: ratios against a baseline measured in this same run\n');
report('match a proposal: 20,000 vs 200 learnings', proposalCost(200), proposalCost(20_000), '100× the learnings; ~1× means the word index works');
const small = queryCosts(1_000);
const large = queryCosts(100_000);
report('learnings page: 100,000 vs 1,000 learnings', small.page, large.page, 'filter + sort + state counts');
report('text search: 100,000 vs 1,000 learnings', small.search, large.search, 'FTS5');
const ingest = ingestCosts(20_000);
report('ingest 20,000 events vs parsing them only', ingest.parse, ingest.ingest, 'storage, matching and offsets');
