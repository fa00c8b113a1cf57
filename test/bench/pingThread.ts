/**
 * The catch-up case's pings, from a thread of their own (see catchUp.ts for why).
 *
 * Started with serve's address and token, it pings `desk.info` every `everyMs` until serve has
 * caught up, then `idlePings` more against the idle host, and posts every answer's time once,
 * at the end. It holds nothing else, so its own collector has next to nothing to do.
 *
 * Its HTTP client is warmed first, on a server of the thread's own: Node loads and compiles
 * `fetch` the first time a thread uses it, and that took 37–80 ms here. Unwarmed, it was in the
 * first ping's answer, which was the slowest of the catch-up in the run that recorded when each
 * answer came (docs/performance-log.md#sessions-14-and-15-the-catch-ups-client-the-indexs-build): a
 * cost of the benchmark's client, not a stall of the host. Serve's own first answer is still timed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeskInfo } from '../../shared/api.js';
import { callerOf, pingUntilCaughtUp } from '../support/serve.js';

export interface PingStart {
  origin: string;
  token: string;
  everyMs: number;
  idlePings: number;
}

export interface PingTimes {
  /** Answers while serve caught up, in ms. */
  during: number[];
  /** When each of those was asked, in ms from the first ping. */
  duringAt: number[];
  /** Answers once it had, in ms. */
  idle: number[];
  /** From the first ping to the answer that said it had caught up, in ms. */
  caughtUpAfter: number;
}

/** Calls to the thread's own server before the first timed ping: the first loads `fetch`, the others run it as the pings will. */
const WARMING_CALLS = 3;

/** Makes {@link WARMING_CALLS} calls the way the pings make theirs, to a server that answers every call with an empty success. */
async function warmClient(): Promise<void> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.setHeader('content-type', 'application/json').end('{"ok":true,"value":null}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const call = callerOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'warming');
    for (let i = 0; i < WARMING_CALLS; i++) await call('desk.info');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

const { origin, token, everyMs, idlePings } = (workerData as { start: PingStart }).start;
await warmClient();
const call = callerOf(origin, token);
const info = () => call<DeskInfo>('desk.info');
const times: PingTimes = { during: [], duringAt: [], idle: [], caughtUpAfter: 0 };
const started = performance.now();
await pingUntilCaughtUp(info, everyMs, (ms, done) => {
  if (done) times.caughtUpAfter = performance.now() - started;
  else {
    times.during.push(ms);
    times.duringAt.push(performance.now() - ms - started);
  }
});
while (times.idle.length < idlePings) {
  const ping = performance.now();
  times.idle.push((await info()).ms);
  await sleep(Math.max(0, everyMs - (performance.now() - ping)));
}
parentPort!.postMessage(times);
