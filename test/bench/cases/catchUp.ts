/**
 * Case 4: does the window wait while the host catches up? `serve` is started on a factory of N
 * events it has never read, and a cheap call (`desk.info`) is made every 20 ms until the status
 * it reports says the catch-up is done; then the same pings go on for a while against the idle
 * host, the baseline. The figure is the slowest answer during the catch-up: how long the host's
 * event loop — in the desktop app, the window's main process — was stalled at worst.
 */
import { performance } from 'node:perf_hooks';
import { formatCount, mixedSpec, percentile, result, type BenchCase } from '../harness.js';
import { pingUntilCaughtUp, sleep, startServe } from '../serve.js';

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
      const during: number[] = [];
      const idle: number[] = [];
      const started = performance.now();
      let caughtUpAfter = 0;
      await pingUntilCaughtUp(serve, PING_EVERY_MS, (ms, done) => {
        if (done) caughtUpAfter = performance.now() - started;
        else during.push(ms);
      });
      while (idle.length < IDLE_PINGS) {
        const ping = performance.now();
        idle.push((await serve.info()).ms);
        await sleep(Math.max(0, PING_EVERY_MS - (performance.now() - ping)));
      }
      const stall = { on: 'value', most: MOST_STALL_MS } as const;
      const rate = `${formatCount((factory.events / caughtUpAfter) * 1000)} events/s`;
      return {
        results: [
          {
            result: result(`catch-up: slowest answer while serve catches up ${formatCount(factory.events)} events`, Math.max(0, ...during), 'ms', Math.max(...idle), stall),
            note: `caught up in ${(caughtUpAfter / 1000).toFixed(1)} s (${rate}, from the start of serve's API); ${during.length} pings during it`,
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
