/**
 * What the host does to a thread that never waits: how often it stops it, for how long, and
 * whether on a clock of its own. The match case reports it, because on these machines it decides
 * on which side of its target matching's p99 falls (docs/development.md#known-limits).
 *
 * Why the clock. These machines are virtual machines under a hypervisor whose own timer, when the
 * host is busy, stops the guest's thread once every millisecond at the same point of the
 * millisecond, for some 30 µs each time; when it is quiet, only the guest's own 250 ticks a second
 * and scattered pauses are left (docs/performance-log.md#session-21-the-hosts-millisecond). A
 * count of pauses alone could not tell those apart from many unrelated ones; the share of
 * milliseconds paused at one phase does.
 */
import { performance } from 'node:perf_hooks';
import { median } from './harness.js';

/** How long {@link hostPauses} reads the clock for. */
const PAUSE_WATCH_MS = 500;

/**
 * A gap between two reads of the clock this long or longer is a pause: the thread was not
 * running. Back-to-back reads of the clock take well under a microsecond (43 ns here), so nothing
 * the loop does comes near it; the pauses seen here are 23–51 µs at the median of a run
 * (docs/performance-log.md#full-runs-session-by-session).
 */
const PAUSE_LEAST_MS = 0.02;

/** The period of the host's clock looked for: its pauses land once a millisecond. */
const HOST_PERIOD_MS = 1;

/**
 * The millisecond is cut into this many phases (50 µs each) to find the one most pauses begin in.
 * The host's pauses begin within some 100 µs of the same point each time (one or two neighbouring
 * phases held them here), so the commonest phase and its two neighbours hold them all, while
 * pauses at random land in those three a seventh of the time.
 */
const PHASES = 20;

export interface HostPauses {
  /** How long the clock was read for. */
  watchedMs: number;
  perSecond: number;
  medianMs: number;
  /** The share of the watched time the thread was paused. */
  share: number;
  /** The share of the watched milliseconds with a pause at one phase of the millisecond. */
  onTheClock: number;
}

/**
 * The share of the whole periods in `watchedMs` that hold a pause beginning at the commonest
 * phase of the period (or a phase next to it). About 1 when something stops the thread once every
 * period; a quarter for the guest's own tick, 250 a second, which keeps one phase of the
 * millisecond too; a few hundredths for pauses at random.
 */
export function periodicShare(starts: readonly number[], watchedMs: number, periodMs = HOST_PERIOD_MS): number {
  const periods = Math.floor(watchedMs / periodMs);
  if (starts.length === 0 || periods === 0) return 0;
  const phaseOf = (at: number): number => Math.floor(((at % periodMs) / periodMs) * PHASES) % PHASES;
  const counts = new Array<number>(PHASES).fill(0);
  for (const at of starts) counts[phaseOf(at)]!++;
  const commonest = counts.indexOf(Math.max(...counts));
  const paused = new Set<number>();
  for (const at of starts) {
    const apart = (phaseOf(at) - commonest + PHASES) % PHASES;
    if (apart <= 1 || apart === PHASES - 1) paused.add(Math.floor(at / periodMs));
  }
  return Math.min(1, paused.size / periods);
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
    onTheClock: periodicShare(starts, watchedMs),
  };
}
