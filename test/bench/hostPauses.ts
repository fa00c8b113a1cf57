/**
 * What the host does to a thread that never waits: how often it stops it, for how long, and
 * whether at one point of every millisecond. The match case reports it beside its figures: the
 * host's pauses are one of what decides on which side of its target matching's p99 falls, and
 * which kind of host a run met is read from them (docs/development.md#known-limits).
 *
 * Why one point of the millisecond. On these machines (virtual machines under a hypervisor) a
 * busy host was seen to stop the thread once every millisecond, at the same point of it, for some
 * 30 µs each time, while the guest counted no interrupt that came as often; a quiet host left only
 * the guest's own 250 timer ticks a second and scattered pauses
 * (docs/performance-log.md#session-21-the-hosts-millisecond). A count of pauses alone cannot tell
 * those apart from as many unrelated ones; the share of milliseconds paused at one point can.
 */
import { performance } from 'node:perf_hooks';
import { median } from './harness.js';

/** How long {@link hostPauses} reads the clock for. */
const PAUSE_WATCH_MS = 500;

/**
 * A gap between two reads of the clock this long or longer is a pause: the thread was not
 * running. Back-to-back reads of the clock take well under a microsecond (43 ns here), so nothing
 * the loop does comes near it; the pauses seen here are 21–51 µs at the median of a run
 * (docs/performance-log.md#full-runs-session-by-session).
 */
const PAUSE_LEAST_MS = 0.02;

/** The millisecond is cut into this many phases of 50 µs to find the point most pauses begin at. */
const PHASES = 20;

/**
 * How many neighbouring phases (150 µs) make one point of the millisecond: the host's pauses
 * began within a span of some 100 µs each time, one or two neighbouring phases holding them, and
 * three phases hold any such span wherever it falls.
 */
const POINT_PHASES = 3;

/** One phase's length. */
const PHASE_MS = 1 / PHASES;

export interface HostPauses {
  /** How long the clock was read for. */
  watchedMs: number;
  /** Pauses a second. */
  perSecond: number;
  /** The median pause. */
  medianMs: number;
  /** The share of the watched time the thread was paused. */
  share: number;
  /** {@link onePointShare} of the pauses. */
  onePoint: number;
}

/**
 * The share of the watched milliseconds that hold a pause beginning at the point of the
 * millisecond most pauses begin at (the {@link POINT_PHASES} neighbouring phases holding the most,
 * the millisecond's end wrapping round to its start). `starts` are the pauses' beginnings, in
 * milliseconds from the start of the watch.
 *
 * About 1 when something stops the thread once every millisecond; up to a quarter for the
 * guest's own tick, 250 a second, which keeps one point of the millisecond too (less where some of
 * its ticks stop the thread for under {@link PAUSE_LEAST_MS}); for pauses at random, about the
 * chance that a millisecond holds one in three phases of twenty, a little more for taking the
 * fullest three: about 0.06 at 300 a second, 0.2 at 1,500. Only the milliseconds whose whole point
 * lies inside the watch are counted, so a pause at either end cannot lift the share above what was
 * watched.
 */
export function onePointShare(starts: readonly number[], watchedMs: number): number {
  const phaseOf = (at: number): number => Math.floor((at % 1) * PHASES);
  const counts = new Array<number>(PHASES).fill(0);
  for (const at of starts) counts[phaseOf(at)]!++;
  const held = (first: number): number => {
    let sum = 0;
    for (let k = 0; k < POINT_PHASES; k++) sum += counts[(first + k) % PHASES]!;
    return sum;
  };
  let first = 0;
  for (let phase = 1; phase < PHASES; phase++) if (held(phase) > held(first)) first = phase;
  // Millisecond k's point is [k + middle − half, k + middle + half]. The middle is never below
  // half, so k = 0 is the first whole point; the last is the one that ends within the watch.
  const half = (POINT_PHASES * PHASE_MS) / 2;
  const middle = first * PHASE_MS + half;
  const lastWhole = Math.floor(watchedMs - half - middle);
  if (lastWhole < 0) return 0;
  const paused = new Set<number>();
  for (const at of starts) {
    const k = Math.round(at - middle);
    if (Math.abs(at - middle - k) <= half && k >= 0 && k <= lastWhole) paused.add(k);
  }
  return paused.size / (lastWhole + 1);
}

/**
 * The pauses the host makes in this thread, found by doing nothing but read the clock for
 * {@link PAUSE_WATCH_MS}. A call meets one with a chance of about its length times their rate,
 * so on a host that pauses a thousand times a second or more, a p99 of calls lasting a few tens
 * of microseconds is set by the pauses more than by the calls' own work.
 */
export function hostPauses(): HostPauses {
  const gaps: number[] = [];
  const starts: number[] = [];
  const start = performance.now();
  let last = start;
  while (last - start < PAUSE_WATCH_MS) {
    const now = performance.now();
    if (now - last >= PAUSE_LEAST_MS) {
      gaps.push(now - last);
      starts.push(last - start);
    }
    last = now;
  }
  const watchedMs = last - start;
  return {
    watchedMs,
    perSecond: (gaps.length * 1000) / watchedMs,
    medianMs: gaps.length > 0 ? median(gaps) : 0,
    share: gaps.reduce((sum, gap) => sum + gap, 0) / watchedMs,
    onePoint: onePointShare(starts, watchedMs),
  };
}
