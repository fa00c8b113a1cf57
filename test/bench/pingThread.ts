/**
 * The catch-up case's pings, from a thread of their own (see catchUp.ts for why).
 *
 * Started with serve's address and token, it pings `desk.info` every `everyMs` until serve has
 * caught up, then `idlePings` more against the idle host, and posts every answer's time once,
 * at the end. It holds nothing else, so its own collector has next to nothing to do.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import type { DeskInfo } from '../../shared/api.js';
import { callerOf, pingUntilCaughtUp, sleep } from './serve.js';

export interface PingStart {
  origin: string;
  token: string;
  everyMs: number;
  idlePings: number;
}

export interface PingTimes {
  /** Answers while serve caught up, in ms. */
  during: number[];
  /** Answers once it had, in ms. */
  idle: number[];
  /** From the first ping to the answer that said it had caught up, in ms. */
  caughtUpAfter: number;
}

const { origin, token, everyMs, idlePings } = (workerData as { start: PingStart }).start;
const call = callerOf(origin, token);
const info = () => call<DeskInfo>('desk.info');
const times: PingTimes = { during: [], idle: [], caughtUpAfter: 0 };
const started = performance.now();
await pingUntilCaughtUp(info, everyMs, (ms, done) => {
  if (done) times.caughtUpAfter = performance.now() - started;
  else times.during.push(ms);
});
while (times.idle.length < idlePings) {
  const ping = performance.now();
  times.idle.push((await info()).ms);
  await sleep(Math.max(0, everyMs - (performance.now() - ping)));
}
parentPort!.postMessage(times);
