/**
 * A wider page cache for one long write: a catch-up (ingest.ts) or a person's bulk decision
 * (answerDecision.ts), set for that work only and put back after (docs/development.md#architecture).
 *
 * Why. SQLite's default page cache is 2 MB. A write that touches pages all over a table holds
 * more dirty pages than that, so SQLite spills them to the write-ahead log in the middle of the
 * transaction and reads them back when the next row on them changes; every spill is a write of
 * its own, and the commit writes the pages again.
 * - A catch-up, while a trigger added to the count of each learning a finished run was given
 *   (until schema migration 14): with the default cache those pages were read back and spilled
 *   again and again. Growing the benchmark's 300,000-event ledger took 45.1–47.6 s against
 *   51.1–51.6 s, two runs each way, alternating. Since the counts are written once a batch
 *   (runTally.ts) the gain is smaller but still there where the window waits on it: over eight
 *   alternating pairs of runs on 1,000,000 events, `serve` caught up sooner with it in seven and as
 *   soon in the eighth (7 % at the median), the CLI's ingest 2.5 % sooner at the median of the
 *   pairs, and matching's p99, which reads the rows it matched through this cache
 *   (test/bench/cases/match.ts), came out the same
 *   (docs/performance-log.md#sessions-25-and-26-the-page-caches-second-ab-and-more-full-runs).
 * - A reject of 10,000 learnings rewrites most pages of the learnings table and adds as many
 *   history lines: on a copy of that ledger (63,676 learnings, flushed to disk first), five runs
 *   each way, alternating, the decision with its commit took 205–220 ms against 256–285 ms.
 *
 * Put back after, so the memory is given back: SQLite frees the pages above a lowered limit. A
 * connection whose cache is already at least this wide keeps it. In the hosts a catch-up runs on
 * the ingest thread's connection, which holds up to 64 MiB more while it runs, and a decision on
 * the host's connection, for the moment it takes; the benchmark's `memory` case measures serve
 * caught up and idle, so neither peak is in its figure.
 */
import type { Db } from './db.js';

/** How much of the ledger a long write keeps in SQLite's page cache: 64 MiB. */
export const WIDE_PAGE_CACHE_KIB = 65_536;

/** The cache's size in KiB from `cache_size`'s value: negative is KiB, positive is pages. */
function cacheKib(db: Db, cacheSize: number): number {
  return cacheSize < 0 ? -cacheSize : (cacheSize * (db.pragma('page_size', { simple: true }) as number)) / 1024;
}

/** Widens `db`'s page cache to {@link WIDE_PAGE_CACHE_KIB}; the function it returns puts the size it had back. */
export function widenPageCache(db: Db): () => void {
  const before = db.pragma('cache_size', { simple: true }) as number;
  if (cacheKib(db, before) >= WIDE_PAGE_CACHE_KIB) return () => {};
  db.pragma(`cache_size = -${WIDE_PAGE_CACHE_KIB}`);
  return () => {
    if (db.open) db.pragma(`cache_size = ${before}`);
  };
}
