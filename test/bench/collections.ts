/**
 * The garbage collector's pauses of this thread while a case's timed calls ran, so a case whose
 * figure is its slowest call can say whether that call met a collection
 * (docs/performance-log.md#session-32-what-stops-the-querys-slowest-calls).
 *
 * Node reports each collection's pause of the main thread as a `gc` performance entry, with when it
 * began and how long it took on the clock `performance.now()` reads, but only once the event loop
 * turns: a synchronous run of timed calls sees none until it has returned, so the entries are
 * gathered across it and read after.
 */
import { PerformanceObserver, constants, performance } from 'node:perf_hooks';

/** A pause of the thread by the collector, in `performance.now()` milliseconds. */
export interface Collection {
  start: number;
  ms: number;
  /** Which collector: "minor" (the young generation), "major" (the whole heap), or another kind. */
  kind: string;
}

const KINDS = new Map<number, string>([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'minor'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'major'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak callbacks'],
]);

/**
 * Turns of the event loop to wait for the entries: Node creates a `gc` entry in one turn and hands
 * it to observers in the next (measured here on Node 20: none after one turn, all after two), and
 * one turn to spare.
 */
const DELIVERY_TURNS = 3;

/** Runs `fn` and returns what it returned with the collections made while it ran. */
export async function collectionsDuring<T>(fn: () => T): Promise<{ value: T; collections: Collection[] }> {
  const collections: Collection[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // `detail` is there on Node 20 for `gc` entries, though its types leave it out.
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind ?? 0;
      collections.push({ start: entry.startTime, ms: entry.duration, kind: KINDS.get(kind) ?? `kind ${kind}` });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    const began = performance.now();
    const value = fn();
    for (let turn = 0; turn < DELIVERY_TURNS; turn++) await new Promise((resolve) => setImmediate(resolve));
    // A collection made just before `fn` began may be handed over with those made while it ran.
    return { value, collections: collections.filter((c) => c.start >= began) };
  } finally {
    observer.disconnect();
  }
}

/** The collections that overlap the span from `start` for `ms` milliseconds. */
export function collectionsWithin(collections: readonly Collection[], start: number, ms: number): Collection[] {
  return collections.filter((c) => c.start < start + ms && c.start + c.ms > start);
}
