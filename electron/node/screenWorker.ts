/**
 * The helper thread of `screenAhead.ts` (see there for why): screens each text of a job it can
 * claim before ingest does, and gives the answer at once: a pass in the shared array, a refusal
 * as a message first.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { screen } from '../rules/screen.js';
import { CLAIMED_BY_HELPER, PASSED_BY_HELPER, REFUSED_BY_HELPER, UNCLAIMED, type ScreenAnswer, type ScreenJob, type ScreenStart } from './screenAhead.js';

const jobs = parentPort;
if (!jobs) throw new Error('screenWorker.ts runs only as a worker thread (see screenAhead.ts)');
const { port } = (workerData as { start: ScreenStart }).start;

jobs.on('message', ({ job, texts, maxText, claims }: ScreenJob) => {
  const shared = new Int32Array(claims);
  for (let index = 0; index < texts.length; index++) {
    if (Atomics.compareExchange(shared, index, UNCLAIMED, CLAIMED_BY_HELPER) !== UNCLAIMED) continue;
    const result = screen(texts[index]!, maxText);
    if (!result.ok) port.postMessage({ job, index, result } satisfies ScreenAnswer);
    Atomics.store(shared, index, result.ok ? PASSED_BY_HELPER : REFUSED_BY_HELPER);
    Atomics.add(shared, texts.length, 1);
    Atomics.notify(shared, index);
  }
});
