/**
 * `npm run bench` (`tsx test/bench/bench.ts`): how the ledger's costs grow, as ratios against a
 * baseline measured in the same run. These machines are noisy and shared; absolute times mean
 * little, ratios between neighbours measured minutes apart do.
 *
 * The texts are meant to look like real learnings to the word index, because that is what the
 * matching cost depends on: a vocabulary of a few thousand distinct words drawn with a Zipf-like
 * frequency (a handful of words such as "cache" or "before" are in a large share of all
 * learnings, most words are rare), 4 to 14 significant words per text plus short filler words,
 * now and then a number or a negation. Everything is generated from fixed seeds, so every run
 * measures the same texts.
 *
 * Filling the ledgers goes through `applyProposal` (in one transaction per ledger), the same path
 * ingest takes, so the word index and its counts are what real use builds.
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
import { seededRandom } from '../../electron/rules/seededRandom.js';

const SETTINGS = { ...DEFAULT_SETTINGS.learnings };


const VOCABULARY_SIZE = 4000;
const ZIPF_EXPONENT = 1;

/** Pronounceable pseudo-words of 2 to 4 syllables (all longer than 3 letters, so significant). */
function vocabulary(size: number): string[] {
  const next = seededRandom(42);
  const onsets = ['b', 'c', 'd', 'f', 'g', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'br', 'cl', 'dr', 'gr', 'pl', 'sk', 'st', 'tr'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
  const codas = ['', '', '', 'n', 'r', 's', 't', 'x', 'ck', 'nd'];
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
  const words = new Set<string>();
  while (words.size < size) {
    const syllables = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < syllables; i++) word += pick(onsets) + pick(vowels);
    word += pick(codas);
    if (word.length > 3) words.add(word);
  }
  return [...words];
}

const WORDS = vocabulary(VOCABULARY_SIZE);
/** Cumulative Zipf weights: the word of rank r is drawn with probability ∝ 1 / r^s. */
const CUMULATIVE = (() => {
  const out: number[] = [];
  let total = 0;
  for (let rank = 1; rank <= WORDS.length; rank++) out.push((total += 1 / rank ** ZIPF_EXPONENT));
  return out.map((c) => c / total);
})();
const FILLER = ['the', 'a', 'to', 'in', 'of', 'and', 'for', 'on', 'it', 'is'];
const NUMBERS = ['2', '5', '10', '30', '60', '90', '100', '500'];

function zipfWord(next: () => number): string {
  const u = next();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return WORDS[lo]!;
}

/** A learning-like sentence: 4–14 significant words, filler, sometimes a number or a "not". */
function sentence(next: () => number): string {
  const significant = 4 + Math.floor(next() * 11);
  const out: string[] = [];
  for (let i = 0; i < significant; i++) {
    out.push(zipfWord(next));
    if (next() < 0.5) out.push(FILLER[Math.floor(next() * FILLER.length)]!);
  }
  if (next() < 0.15) out.splice(Math.floor(next() * out.length), 0, NUMBERS[Math.floor(next() * NUMBERS.length)]!);
  if (next() < 0.05) out.splice(1, 0, 'not');
  const text = out.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

function freshDb(): { db: Db; dir: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-bench-'));
  return { db: openDb(path.join(dir, 'ledger.sqlite')), dir };
}

function drop(db: Db, dir: string): void {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

const START = Date.UTC(2026, 0, 1);

function fill(db: Db, agent: string, count: number, seed: number): void {
  const next = seededRandom(seed);
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      applyProposal(db, { agent, text: sentence(next), impact: 'medium', at: new Date(START + i * 1000).toISOString() }, SETTINGS);
    }
  })();
}

/** Median time of `fn` over `rounds` runs, in milliseconds. */
function median(rounds: number, fn: (round: number) => void, between?: () => void): number {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    fn(round);
    times.push(performance.now() - start);
    between?.();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function report(name: string, baseline: number, measured: number, note: string): void {
  const ratio = measured / baseline;
  console.log(`${name.padEnd(46)} ${ratio.toFixed(2).padStart(7)}×   (${note}; baseline ${baseline.toFixed(3)} ms, measured ${measured.toFixed(3)} ms)`);
}

/**
 * Median cost of taking up one fresh proposal (screen, match, decide, write, log) with `learnings`
 * of its agent in the ledger. Each proposal is rolled back after it is timed, so the ledger stays
 * at exactly `learnings` and both sides of the ratio measure the size they claim.
 */
function proposalCost(learnings: number): number {
  const { db, dir } = freshDb();
  fill(db, 'builder', learnings, 11);
  fill(db, 'reviewer', Math.min(learnings, 2000), 12); // another agent's learnings are never candidates
  const next = seededRandom(7);
  const texts = Array.from({ length: 600 }, () => sentence(next));
  const cost = median(
    600,
    (round) => {
      db.exec('BEGIN');
      applyProposal(db, { agent: 'builder', text: texts[round]!, impact: 'low', at: '2027-01-01T00:00:00.000Z' }, SETTINGS);
    },
    () => db.exec('ROLLBACK'),
  );
  drop(db, dir);
  return cost;
}

function queryCosts(learnings: number): { page: number; search: number } {
  const { db, dir } = freshDb();
  const agents = ['builder', 'reviewer', 'publisher', 'scout'];
  agents.forEach((agent, i) => fill(db, agent, learnings / agents.length, 100 + i));
  // Two words of middling frequency, so the search has real work at either size.
  const search = `${WORDS[40]} ${WORDS[90]}`;
  const page = median(30, () =>
    queryLearnings(db, { filter: { agent: 'reviewer', states: ['provisional'] }, sort: 'last_at', dir: 'desc', offset: 0, limit: 100 }),
  );
  const found = median(30, () => queryLearnings(db, { filter: { search }, sort: 'last_at', dir: 'desc', offset: 0, limit: 100 }));
  drop(db, dir);
  return { page, search: found };
}

function ingestCosts(events: number): { parse: number; ingest: number } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-bench-factory-'));
  fs.mkdirSync(path.join(dir, 'events'));
  const next = seededRandom(3);
  const lines: string[] = [];
  const proposed: string[] = [];
  for (let i = 0; i < events; i++) {
    const at = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
    const agent = ['builder', 'reviewer', 'scout'][i % 3]!;
    if (i % 10 === 0) {
      lines.push(JSON.stringify({ type: 'run.started', at, run: `r${i}`, agent, chain: `c${i}`, workflow: 'w', flags: {}, routes: [], learnings: [] }));
    } else if (i % 10 === 9) {
      lines.push(JSON.stringify({ type: 'run.finished', at, run: `r${i - 9}`, agent, outcome: 'succeeded' }));
    } else {
      // One proposal in five says again something said before: echoes and rediscoveries happen.
      const again = proposed.length > 0 && next() < 0.2;
      const text = again ? proposed[Math.floor(next() * proposed.length)]! : sentence(next);
      if (!again) proposed.push(text);
      lines.push(JSON.stringify({ type: 'learning.proposed', at, agent, text, impact: 'medium' }));
    }
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

const began = performance.now();
console.log(`Layover Desk benchmark: each line is a ratio, measured ÷ baseline, both timed in this same run.

  match a proposal      one applyProposal with 20,000 learnings of its agent ÷ the same with 200.
                        100× the learnings. Good: under ~3× (the word index looks candidates up
                        through the proposal's rarest words). A scan of the agent's learnings, or
                        a lookup through every shared word, grows towards 100×.
  learnings page        a page of the list (agent + state filter, sort, state counts) on 100,000
  text search           learnings ÷ on 1,000; and an FTS5 text search the same way. 100× the rows.
                        Good: far below 100× (indexes and FTS5, not scans). Counts and a search
                        whose hits grow with the ledger cannot stay at 1×.
  ingest                catching up 20,000 event lines (runs, proposals, echoes) ÷ only parsing and
                        validating them: what storage, matching and offsets cost on top of reading.
                        Lower is better; events/s is printed beside it.

Texts: ${VOCABULARY_SIZE} pseudo-words, Zipf-like frequency (exponent ${ZIPF_EXPONENT}), 4–14 significant words each.
`);
// `tsx test/bench/bench.ts match ingest` runs only the named cases (match, list, ingest).
const only = new Set(process.argv.slice(2));
const wanted = (name: string): boolean => only.size === 0 || only.has(name);
if (wanted('match')) {
  report('match a proposal: 20,000 vs 200 learnings', proposalCost(200), proposalCost(20_000), '100× the learnings');
}
if (wanted('list')) {
  const small = queryCosts(1_000);
  const large = queryCosts(100_000);
  report('learnings page: 100,000 vs 1,000 learnings', small.page, large.page, 'filter + sort + state counts');
  report('text search: 100,000 vs 1,000 learnings', small.search, large.search, 'FTS5');
}
if (wanted('ingest')) {
  const EVENTS = 20_000;
  const ingest = ingestCosts(EVENTS);
  const rate = Math.round((EVENTS / ingest.ingest) * 1000).toLocaleString('en');
  report(`ingest ${EVENTS.toLocaleString('en')} events vs parsing them only`, ingest.parse, ingest.ingest, `${rate} events/s`);
}
console.log(`\n(${((performance.now() - began) / 1000).toFixed(0)} s in all)`);
