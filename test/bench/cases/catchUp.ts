/**
 * Case 4: does the window wait while the host catches up? `serve` is started on a factory of N
 * events it has never read, and a cheap call (`desk.info`) is made every 20 ms until the status
 * it reports says the catch-up is done; then the same pings go on for a while against the idle
 * host, the baseline. The figure is the slowest answer during the catch-up: how long the host's
 * event loop — in the desktop app, the window's main process — was stalled at worst.
 *
 * Its runs name made-up learning ids (the generated factory as it is), so they link to nothing:
 * as in a real catch-up of a history into a new ledger, which cannot know the ids the ledger
 * that exported the learnings files gave them.
 *
 * The pings are made from a thread of their own (`pingThread.ts`), so that the benchmark's own
 * collector, which by this case has the heaps of the cases before it to walk, cannot hold one up
 * (the benchmark's event loop paused up to 44 ms during the case alone). That was not what made
 * the slowest answer slow (126 ms from the thread, 89–97 ms before it): serve's event loop, timed
 * inside it every 5 ms, never paused more than 40 ms either; the answers waited for a core
 * behind the catch-up's threads (electron/node/threadPriority.ts). The thread's HTTP client is
 * warmed before its first timed ping, and the note says when the slowest answer was asked: in the
 * run of the older code that recorded it, that answer was the client's own first call
 * (pingThread.ts).
 */
import { Worker } from 'node:worker_threads';
import { formatCount, mixedSpec, percentile, result, type BenchCase } from '../harness.js';
import { startServe } from '../../support/serve.js';
import { workerEntry } from '../../../electron/node/workerEntry.js';
import type { PingStart, PingTimes } from '../pingThread.js';

/** Pings `serve` from a thread of its own until it has caught up, then `idlePings` more; the answers' times. */
function pingApart(start: PingStart): Promise<PingTimes> {
  const entry = workerEntry<PingStart>('../pingThread', import.meta.url);
  const worker = new Worker(entry.url, { workerData: entry.workerData(start) });
  return new Promise((resolve, reject) => {
    worker.once('message', (times: PingTimes) => {
      resolve(times);
      void worker.terminate(); // its HTTP client's idle connections would keep it alive
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the ping thread ended (${code}) before it answered`)));
  });
}

/** The note's words on the slowest of `answers`: when it was asked (`at`, ms from the first ping) and the slowest after the first second, where serve's start is behind it; or that there was no ping to time. */
function slowestAt(answers: readonly number[], at: readonly number[]): string {
  if (answers.length === 0) return 'serve had caught up before the first ping';
  const slowest = answers.indexOf(Math.max(...answers));
  const settled = answers.filter((_, i) => at[i]! >= 1000);
  return `the slowest asked ${(at[slowest]! / 1000).toFixed(2)} s in (ping ${slowest + 1}); after the first second ${Math.max(0, ...settled).toFixed(1)} ms`;
}

/** Time between two pings, from the start of one to the start of the next. */
const PING_EVERY_MS = 20;
/** Pings against the idle host after the catch-up. */
const IDLE_PINGS = 100;
/** The longest the host may be stalled during catch-up (issue 9). */
const MOST_STALL_MS = 100;

export const catchUpCase: BenchCase = {
  id: 'catch-up',
  runsServe: true,
  about: `serve catching up N events: slowest and p99 answer to desk.info pinged every ${PING_EVERY_MS} ms ÷ the same pings to the idle host`,
  async run({ sizes, work, log }) {
    const factory = work.factory(mixedSpec(sizes.events));
    const dir = work.linkedFactory(factory, 'catch-up');
    log(`serve catching up ${formatCount(factory.events)} events`);
    const serve = await startServe(dir);
    try {
      const { during, duringAt, idle, caughtUpAfter } = await pingApart({ origin: serve.origin, token: serve.token, everyMs: PING_EVERY_MS, idlePings: IDLE_PINGS });
      const stall = { on: 'value', most: MOST_STALL_MS } as const;
      const rate = `${formatCount((factory.events / caughtUpAfter) * 1000)} events/s`;
      return {
        results: [
          {
            result: result(`catch-up: slowest answer while serve catches up ${formatCount(factory.events)} events`, Math.max(0, ...during), 'ms', Math.max(...idle), stall),
            note: `caught up in ${(caughtUpAfter / 1000).toFixed(1)} s (${rate}, from the start of serve's API); ${during.length} pings during it; ${slowestAt(during, duringAt)}`,
          },
          {
            result: result(`catch-up: p99 answer while serve catches up ${formatCount(factory.events)} events`, percentile(during, 99), 'ms', percentile(idle, 99), null),
            note: `p50 ${percentile(during, 50).toFixed(1)} ms during, ${percentile(idle, 50).toFixed(1)} ms idle`,
          },
        ],
      };
    } finally {
      await serve.stop();
    }
  },
};
