/**
 * What one read at a scattered place in memory costs this thread, and how far that spreads: a
 * walk of dependent reads around one random cycle, each read's place given by the one before, so
 * neither the CPU nor its prefetcher can start a read before the last one ended. The match case
 * reports it after its passes, beside the host's pauses (`hostPauses.ts`).
 *
 * Why. Matching reads at scattered places in the index and in SQLite's pages, where the brute
 * force reads its arrays in order; in session 38 matching's p99 fell from above its 20× to half of
 * it within the hour, on the same code, while the host paused the thread as often and a
 * computation that reads no memory spread as little
 * (docs/performance-log.md#session-38-twenty-two-runs-matchings-p99-met-in-five).
 * A walk timed then could not be compared with the runs before, which had none. Walked in every
 * run, through a span the CPU's caches hold and one they do not, it tells whether a run's
 * scattered reads were slower than another's, which neither of the other two can.
 */
import { performance } from 'node:perf_hooks';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { median, percentile, timed } from './harness.js';

/** Dependent reads in one timed walk: some 10–60 µs here, the order of a matching call. */
const READS_A_WALK = 300;

/** How long each span is walked for, walks one after the other. */
const WALK_FOR_MS = 250;

/** Walks made before the timed ones, so that the walk's code is compiled before it is timed. */
const UNTIMED_WALKS = 200;

/** A slot holds the next slot's index, so a span of M megabytes is M × 2^20 ÷ this many slots. */
const BYTES_A_SLOT = Int32Array.BYTES_PER_ELEMENT;

/**
 * A random cyclic permutation of `slots` places (Sattolo's algorithm): from any slot, following
 * `next[slot]` visits every slot once before it comes back. A permutation with shorter cycles
 * would let a walk go round a few places the caches keep, which is not a scattered read.
 */
export function oneCycle(slots: number, seed: number): Int32Array {
  const next = new Int32Array(slots);
  for (let i = 0; i < slots; i++) next[i] = i;
  const random = seededRandom(seed);
  for (let i = slots - 1; i > 0; i--) {
    const j = Math.floor(random() * i);
    const held = next[i]!;
    next[i] = next[j]!;
    next[j] = held;
  }
  return next;
}

export interface ScatteredReads {
  /** The span walked through. */
  megabytes: number;
  /** One read's time at the median walk, in nanoseconds. */
  medianNs: number;
  /** The p99 walk's time ÷ the median walk's. */
  spread: number;
  /** Walks timed. */
  walks: number;
}

/** Times walks of {@link READS_A_WALK} dependent reads through a span of `megabytes`. */
export function scatteredReads(megabytes: number): ScatteredReads {
  const next = oneCycle(Math.floor((megabytes * 2 ** 20) / BYTES_A_SLOT), megabytes);
  let at = 0;
  const walk = (): void => {
    let slot = at;
    for (let k = 0; k < READS_A_WALK; k++) slot = next[slot]!;
    at = slot;
  };
  for (let i = 0; i < UNTIMED_WALKS; i++) walk();
  const times: number[] = [];
  const start = performance.now();
  while (performance.now() - start < WALK_FOR_MS) times.push(timed(walk));
  const middle = median(times);
  return { megabytes, medianNs: (middle * 1e6) / READS_A_WALK, spread: percentile(times, 99) / middle, walks: times.length };
}
