/**
 * The screen on its labelled corpus (test/fixtures/screen/*.jsonl): the catch rate of injection
 * attempts and the false-refusal rate of ordinary learnings, per family, and what screening one
 * proposal costs. `npm run bench` prints these; the corpus test holds the same rates as targets.
 *
 * The cost is CPU time (`process.cpuUsage`), not wall time: these machines are shared and a
 * wall clock measures the neighbours. It is the best of several rounds over the whole corpus,
 * after one round that compiles the rules (compiling happens once per process, so it is
 * reported apart, as the first round).
 */
import { screen } from '../../electron/rules/screen.js';
import { familyKey, readCorpus, type CorpusLine } from '../support/screenCorpus.js';

export interface BenchCase {
  case: string;
  value: number;
  unit: string;
  baseline: number | null;
  ratio: number | null;
  target: string;
  ok: boolean;
}

const MAX_TEXT = 4000;
const MIN_CATCH_RATE = 97;
const MAX_FALSE_REFUSAL_RATE = 0.5;
const MAX_MICROSECONDS_PER_PROPOSAL = 50;
const ROUNDS = 15;
const QUICK_ROUNDS = 2;

function cpuMicroseconds(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

function rate(lines: CorpusLine[], counted: (line: CorpusLine) => boolean): number {
  return lines.length === 0 ? 0 : (100 * lines.filter(counted).length) / lines.length;
}

export async function screenBench(quick: boolean): Promise<BenchCase[]> {
  const corpus = readCorpus();
  const cases: BenchCase[] = [];
  const refused = (line: CorpusLine) => !screen(line.text, MAX_TEXT).ok;

  const byFamily = new Map<string, CorpusLine[]>();
  for (const line of corpus) byFamily.set(familyKey(line), [...(byFamily.get(familyKey(line)) ?? []), line]);
  const attempts = corpus.filter((line) => line.label === 'attempt');
  const ordinary = corpus.filter((line) => line.label === 'ordinary');

  const catchCase = (name: string, lines: CorpusLine[]): BenchCase => {
    const value = rate(lines, refused);
    return { case: name, value, unit: '%', baseline: null, ratio: null, target: `>= ${MIN_CATCH_RATE}%`, ok: value >= MIN_CATCH_RATE };
  };
  const falseCase = (name: string, lines: CorpusLine[]): BenchCase => {
    const value = rate(lines, refused);
    return { case: name, value, unit: '%', baseline: null, ratio: null, target: `<= ${MAX_FALSE_REFUSAL_RATE}%`, ok: value <= MAX_FALSE_REFUSAL_RATE };
  };

  cases.push(catchCase(`screen catch rate, all attempts (${attempts.length})`, attempts));
  cases.push(falseCase(`screen false refusals, all ordinary (${ordinary.length})`, ordinary));
  for (const [key, lines] of [...byFamily.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const name = `screen ${key.startsWith('attempt/') ? 'catch rate' : 'false refusals'}, ${key.slice(key.indexOf('/') + 1)} (${lines.length})`;
    cases.push(key.startsWith('attempt/') ? catchCase(name, lines) : falseCase(name, lines));
  }

  const texts = corpus.map((line) => line.text);
  const screenAll = () => {
    for (const text of texts) screen(text, MAX_TEXT);
  };
  const first = cpuMicroseconds(screenAll) / texts.length;
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < (quick ? QUICK_ROUNDS : ROUNDS); round++) best = Math.min(best, cpuMicroseconds(screenAll) / texts.length);
  cases.push({
    case: `screen cost per proposal (corpus average, ${texts.length} texts)`,
    value: best,
    unit: 'µs',
    baseline: null,
    ratio: null,
    target: `<= ${MAX_MICROSECONDS_PER_PROPOSAL} µs`,
    ok: best <= MAX_MICROSECONDS_PER_PROPOSAL,
  });
  cases.push({
    case: 'screen cost per proposal, first round (rules compiling)',
    value: first,
    unit: 'µs',
    baseline: null,
    ratio: null,
    target: 'reported only',
    ok: true,
  });
  return cases;
}
