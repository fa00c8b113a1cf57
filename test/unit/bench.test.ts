/**
 * The benchmark's generator (`test/bench/corpus.ts`): its figures mean something only if the data
 * is what the issue describes — valid events, a large Zipf vocabulary, texts of 8–30 words, about
 * 30% rewordings — and the same for the same seed, so that two runs measure the same work.
 * And its harness: how a figure is checked against its target (`test/bench/harness.ts`), and which
 * program its serve cases run (`test/support/serve.ts`).
 */
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseEventLine, type FactoryEvent } from '../../electron/rules/events.js';
import { fingerprint, sameFingerprint, significantWords, type Fingerprint } from '../../electron/rules/sameness.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { screen } from '../../electron/rules/screen.js';
import { MAX_TEXT_WORDS, MIN_TEXT_WORDS, ProposalTexts, VOCABULARY, generateFactory, type FactorySpec } from '../bench/corpus.js';
import { Stopwatch, failedResult, percentile, result, tableRow, threadCpuMs, timedCall } from '../bench/harness.js';
import { onePointShare } from '../bench/hostPauses.js';
import { oneCycle, scatteredReads } from '../bench/scatteredReads.js';
import { collectionsDuring, collectionsWithin, type Collection } from '../bench/collections.js';
import { blockThread } from '../support/blockThread.js';
import { eventually, tempFactory, type TempFactory } from '../support/factory.js';

const folders: TempFactory[] = [];
afterAll(() => {
  for (const f of folders) f.remove();
});

const SPEC: FactorySpec = { events: 6000, agents: 50, days: 30, seed: 5, lastDay: '2026-11-30' };

function generated(spec: FactorySpec): { dir: string; lines: string[] } {
  const folder = tempFactory('layover-corpus-');
  folders.push(folder);
  const factory = generateFactory(folder.dir, spec);
  const lines = factory.files.flatMap((name) => fs.readFileSync(path.join(folder.dir, 'events', name), 'utf8').split('\n').filter((l) => l !== ''));
  return { dir: folder.dir, lines };
}

const wordsOf = (text: string): number => text.split(/\s+/u).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;

/** Starts `count` threads that spin until stopped, and waits until all of them run. */
async function spinningThreads(count: number): Promise<{ stop: () => Promise<void> }> {
  const flags = new Int32Array(new SharedArrayBuffer(8)); // [started, stop]
  const spin = `const f = new Int32Array(require('node:worker_threads').workerData); Atomics.add(f, 0, 1); while (Atomics.load(f, 1) === 0);`;
  const workers = Array.from({ length: count }, () => new Worker(spin, { eval: true, workerData: flags.buffer }));
  const stop = async (): Promise<void> => {
    Atomics.store(flags, 1, 1);
    await Promise.all(workers.map((w) => w.terminate()));
  };
  try {
    await eventually(() => Atomics.load(flags, 0) === count, 'every spinning thread runs');
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

describe('the benchmark corpus', () => {
  it('the vocabulary holds at least 20,000 distinct significant words', () => {
    expect(new Set(significantWords(VOCABULARY.join(' '))).size).toBeGreaterThanOrEqual(20_000);
  });

  it('every generated line is a valid event, spread over one file per day', () => {
    const { dir, lines } = generated(SPEC);
    expect(lines).toHaveLength(SPEC.events);
    const refused = lines.map(parseEventLine).filter((p) => !p.ok);
    expect(refused).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'events')).sort()).toHaveLength(SPEC.days);
    expect(fs.readdirSync(path.join(dir, 'events')).sort().at(-1)).toBe('2026-11-30.jsonl');
  });

  it('events come in the issue shares: 60% run starts and finishes, 30% proposals, 10% help requests', () => {
    const { lines } = generated(SPEC);
    const events = lines.map((l) => (parseEventLine(l) as { ok: true; event: FactoryEvent }).event);
    const share = (...types: FactoryEvent['type'][]): number => events.filter((e) => types.includes(e.type)).length / events.length;
    expect(share('run.started', 'run.finished')).toBeCloseTo(0.6, 1);
    expect(share('learning.proposed')).toBeCloseTo(0.3, 1);
    expect(share('help.requested')).toBeCloseTo(0.1, 1);
    expect(new Set(events.map((e) => e.agent)).size).toBe(SPEC.agents);
    const given = events.flatMap((e) => (e.type === 'run.started' ? [e.learnings.length] : []));
    expect(Math.max(...given)).toBe(25);
  });

  it('the same seed writes the same factory, byte for byte', () => {
    expect(generated(SPEC).lines).toEqual(generated(SPEC).lines);
    expect(generated({ ...SPEC, seed: 6 }).lines).not.toEqual(generated(SPEC).lines);
  });

  it('texts have 8 to 30 words and pass the screen, and about 30% say again what the agent said before', () => {
    const texts = new ProposalTexts(3);
    const past: Fingerprint[] = [];
    let again = 0;
    for (let i = 0; i < 1000; i++) {
      const text = texts.text('builder');
      expect(wordsOf(text)).toBeGreaterThanOrEqual(MIN_TEXT_WORDS);
      expect(wordsOf(text)).toBeLessThanOrEqual(MAX_TEXT_WORDS);
      expect(screen(text, DEFAULT_SETTINGS.learnings.max_text).ok).toBe(true);
      const print = fingerprint(text);
      if (past.some((earlier) => sameFingerprint(earlier, print))) again++;
      past.push(print);
    }
    expect(again / past.length).toBeGreaterThan(0.2);
    expect(again / past.length).toBeLessThan(0.4);
  });
});

describe('the benchmark harness', () => {
  it('a result meets an upper bound when its ratio or value is at most the bound, and a figure that could not be measured never meets it', () => {
    expect(result('x: a', 30, 'ms', 10, { on: 'ratio', most: 3 })).toMatchObject({ ratio: 3, ok: true });
    expect(result('x: b', 31, 'ms', 10, { on: 'ratio', most: 3 })).toMatchObject({ ratio: 3.1, ok: false });
    expect(result('x: c', 99, 'ms', 1, { on: 'value', most: 100 })).toMatchObject({ target: 'value ≤ 100 ms', ok: true });
    expect(result('x: d', Number.NaN, 'ms', 1, { on: 'value', most: 100 })).toMatchObject({ value: null, ratio: null, ok: false });
    expect(result('x: e', 5, 'B', null, null)).toEqual({ case: 'x: e', value: 5, unit: 'B', baseline: null, ratio: null, target: 'none (reported)', ok: null });
  });

  it('a missed figure never reads as met: where rounding would bring it down onto its bound, results.json and the table give it as measured', () => {
    const slowest = result('x: f', 100.04, 'ms', 29.4, { on: 'value', most: 100 });
    expect(slowest).toMatchObject({ value: 100.04, ok: false });
    expect(tableRow(slowest, '')).toContain('100.04 ms vs 29.4 ms');
    const p99 = result('x: g', 0.10002, 'ms', 2, { on: 'ratio', most: 0.05 });
    expect(p99).toMatchObject({ ratio: 0.05001, ok: false });
    expect(tableRow(p99, '')).toContain('= 0.05001×');
    expect(result('x: h', 100.4, 'ms', null, { on: 'value', most: 100 })).toMatchObject({ value: 100.4, ok: false });
    expect(result('x: i', 357.2, 'ms', 100, { on: 'value', most: 300 })).toMatchObject({ value: 357, ok: false });
    expect(result('x: j', 100.04, 'ms', null, null)).toMatchObject({ value: 100 });
  });

  it('a percentile is the nearest-rank sample, so with fewer than 100 samples the p99 is the slowest', () => {
    const samples = [5, 1, 4, 2, 3];
    expect(percentile(samples, 50)).toBe(3);
    expect(percentile(samples, 99)).toBe(5);
    expect(percentile(samples, 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });

  it("a host that stops the thread at one point of every millisecond shows as nearly every millisecond paused there, the guest's own tick as a quarter, and pauses at random as few", () => {
    const random = seededRandom(9);
    const watched = 500;
    const scattered = (perSecond: number): number[] => Array.from({ length: (perSecond * watched) / 1000 }, () => random() * watched);
    const everyMs = (point: number, spread: number): number[] => Array.from({ length: watched }, (_, ms) => ms + point + (random() - 0.5) * spread);
    const guestTick = Array.from({ length: watched / 4 }, (_, k) => 4 * k + 0.75);
    expect(onePointShare([...everyMs(0.3, 0.01), ...guestTick, ...scattered(300)], watched)).toBe(1);
    // The point at the millisecond's end: its pauses fall either side of a whole millisecond, the
    // last ones after the watch.
    expect(onePointShare(everyMs(0.99, 0.04), watched)).toBe(1);
    // Spread over 100 µs, across three phases of 50 µs.
    expect(onePointShare(everyMs(0.475, 0.1), watched)).toBe(1);
    const tick = onePointShare([...guestTick, ...scattered(300)], watched);
    expect(tick).toBeGreaterThanOrEqual(0.24);
    expect(tick).toBeLessThan(0.35);
    expect(onePointShare(scattered(300), watched)).toBeLessThan(0.1);
    expect(onePointShare([], watched)).toBe(0);
  });

  it('a walk of scattered reads goes once round every slot before it comes back, so no walk circles a few places the caches keep', () => {
    for (const [slots, seed] of [[2, 1], [7, 2], [1000, 3], [65_537, 8]] as const) {
      const next = oneCycle(slots, seed);
      const seen = new Uint8Array(slots);
      let slot = 0;
      let steps = 0;
      do {
        expect(seen[slot]).toBe(0);
        seen[slot] = 1;
        slot = next[slot]!;
        steps++;
      } while (slot !== 0 && steps <= slots);
      expect(steps).toBe(slots);
    }
    // Scattered, not the slots in order, which the CPU's prefetcher would read ahead: asked of
    // spans large enough for one cycle to avoid order (two or seven slots cannot).
    for (const [slots, seed] of [[1000, 3], [65_537, 8]] as const) {
      const next = oneCycle(slots, seed);
      let inOrder = 0;
      for (let i = 0; i < slots; i++) if (next[i] === (i + 1) % slots) inOrder++;
      expect(inOrder).toBeLessThan(slots / 100);
    }
    expect(oneCycle(1000, 3)).toEqual(oneCycle(1000, 3));
    expect(oneCycle(1000, 3)).not.toEqual(oneCycle(1000, 4));
  });

  it("a walk of scattered reads gives one read's time at the median and its walks' spread, both measured", () => {
    const walked = scatteredReads(1);
    expect(walked.megabytes).toBe(1);
    expect(walked.walks).toBeGreaterThan(0);
    expect(walked.medianNs).toBeGreaterThan(0);
    expect(Number.isFinite(walked.medianNs)).toBe(true);
    expect(walked.spread).toBeGreaterThanOrEqual(1);
  });

  it("a call that waits counts in its time and as a wait of its thread, not in the process's CPU; a stopwatch adds its calls up", () => {
    const WAIT_MS = 40;
    const wait = (): number => (blockThread(WAIT_MS), 7);
    const call = timedCall(wait);
    expect(call.value).toBe(7);
    expect(call.ms).toBeGreaterThanOrEqual(WAIT_MS - 1);
    expect(call.cpuMs).toBeLessThan(call.ms / 2);
    expect(call.waits).toBeGreaterThanOrEqual(1);
    const watch = new Stopwatch();
    expect(watch.time(wait)).toBe(7);
    watch.time(wait);
    expect(watch.ms).toBeGreaterThanOrEqual(2 * (WAIT_MS - 1));
    expect(watch.cpuMs).toBeLessThan(watch.ms / 2);
  });

  it('a call that could run on while other threads take its CPU counts as preempted', async () => {
    // Two spinning threads a core, so the scheduler must share every core with the timed call.
    const spinners = await spinningThreads(2 * availableParallelism());
    try {
      const call = timedCall(() => {
        const until = performance.now() + 300;
        while (performance.now() < until);
      });
      // Other threads may wait meanwhile, but far less often than this one is preempted.
      expect(call.preemptions).toBeGreaterThan(call.waits);
    } finally {
      await spinners.stop();
    }
  });

  it.runIf(process.platform === 'linux')("a thread's own CPU time leaves out what the process's other threads spend meanwhile, which the process's CPU time counts", async () => {
    const WAIT_MS = 200;
    const spinner = await spinningThreads(1);
    try {
      const threadBefore = threadCpuMs()!;
      const call = timedCall(() => blockThread(WAIT_MS));
      const threadMs = threadCpuMs()! - threadBefore;
      // The worker spun through the wait, even sharing its core with other tests' threads.
      expect(call.cpuMs).toBeGreaterThan(WAIT_MS / 8);
      expect(threadMs).toBeLessThan(call.cpuMs / 4);
    } finally {
      await spinner.stop();
    }
  });

  it.runIf(process.platform === 'linux')("a thread's own CPU time is read as it stands, not as it stood at the kernel's last tick", () => {
    // Spells of 0.5 to 2 ms of work that make no system call, so only the read itself can bring
    // the thread's count up to date. Read as of the kernel's last tick (every 4 ms at 250 a
    // second), a spell a tick fell in would count from the tick before it, some milliseconds more
    // than it lasted. The lengths vary so that the ticks cannot keep falling between spells.
    const SPELLS = 40;
    const spellMs = (spell: number): number => 0.5 + ((spell * 0.37) % 1.5);
    // The reads themselves add up to a quarter of a millisecond here; a stale read, up to a tick.
    const TOLERANCE_MS = 1;
    const overs: number[] = [];
    for (let spell = 0; spell < SPELLS; spell++) {
      const threadBefore = threadCpuMs()!;
      const start = performance.now();
      while (performance.now() - start < spellMs(spell));
      const wall = performance.now() - start;
      const over = threadCpuMs()! - threadBefore - wall;
      if (over > TOLERANCE_MS) overs.push(over);
    }
    expect(overs).toEqual([]);
  });

  it("a call met a collection when their spans overlap at all, and not when one ends as the other begins", () => {
    const collections: Collection[] = [
      { start: 10, ms: 5, kind: 'minor' },
      { start: 30, ms: 20, kind: 'major' },
    ];
    expect(collectionsWithin(collections, 12, 1)).toEqual([collections[0]]);
    expect(collectionsWithin(collections, 5, 6)).toEqual([collections[0]]);
    expect(collectionsWithin(collections, 14, 20)).toEqual(collections);
    expect(collectionsWithin(collections, 15, 15)).toEqual([]);
    expect(collectionsWithin(collections, 0, 10)).toEqual([]);
  });

  it('the collections a function made while it ran are reported, within the span it ran in, though none is delivered until it has returned', async () => {
    const begun = performance.now();
    const { value, collections } = await collectionsDuring(() => {
      // Some 100 MB of short-lived arrays, each kept until 64 later ones have been made: more than
      // the young generation holds, so it is collected.
      const ring: number[][] = [];
      for (let i = 0; i < 1_000_000; i++) ring[i % 64] = new Array<number>(12).fill(i);
      return ring.length;
    });
    const ended = performance.now();
    expect(value).toBe(64);
    expect(collections.length).toBeGreaterThan(0);
    for (const c of collections) {
      expect(c.start).toBeGreaterThanOrEqual(begun);
      expect(c.start + c.ms).toBeLessThanOrEqual(ended);
    }
    expect(collections.map((c) => c.kind)).toContain('minor');
  });

  it('a case that could not run still has its entry, named for the case, with no figures and its target unmet', () => {
    expect(failedResult('ingest', new Error('disk full'))).toEqual({
      case: 'ingest: failed: disk full', value: null, unit: '', baseline: null, ratio: null, target: 'the case runs', ok: false,
    });
  });

  describe('which program serve runs', () => {
    const forced = process.env.LAYOVER_TEST_CLI;
    afterEach(() => {
      if (forced === undefined) delete process.env.LAYOVER_TEST_CLI;
      else process.env.LAYOVER_TEST_CLI = forced;
    });

    it('is decided once for the run, so what the header names is what serve runs even if the build goes stale after it', async () => {
      vi.resetModules();
      const { compiledCliStaleReason, sourcesReason, usesCompiledCli } = await import('../support/spawnCli.js');
      const { serveProgram } = await import('../support/serve.js');
      delete process.env.LAYOVER_TEST_CLI;
      const named = serveProgram();
      const atStart = sourcesReason();
      process.env.LAYOVER_TEST_CLI = 'source';
      expect(compiledCliStaleReason()).toBe('LAYOVER_TEST_CLI=source');
      expect(sourcesReason()).toBe(atStart);
      expect(usesCompiledCli()).toBe(atStart === null);
      expect(serveProgram()).toBe(named);
    });

    it('whichever asks first decides: a serve started before the header is named by it as it ran', async () => {
      vi.resetModules();
      const { compiledCliStaleReason, usesCompiledCli } = await import('../support/spawnCli.js');
      const { serveProgram } = await import('../support/serve.js');
      process.env.LAYOVER_TEST_CLI = 'source';
      expect(usesCompiledCli()).toBe(false);
      delete process.env.LAYOVER_TEST_CLI;
      expect(compiledCliStaleReason()).not.toBe('LAYOVER_TEST_CLI=source');
      expect(serveProgram()).toContain('the sources through tsx, because LAYOVER_TEST_CLI=source');
    });
  });
});
