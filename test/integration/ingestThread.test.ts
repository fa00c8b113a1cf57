/**
 * The ingest thread of the hosts (docs/development.md#architecture): a real worker thread with
 * its own ledger connection, on a real factory folder. What the host sees of it are messages; a
 * crash of the thread is reported and the thread starts again, reading on from the committed
 * offsets, so nothing is lost or applied twice.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { WatcherStatus } from '../../shared/domain.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { IngestThread } from '../../electron/node/ingestThread.js';
import { BACKGROUND_NICE_STEPS, thisThreadId } from '../../electron/node/threadPriority.js';
import type { WatcherChange } from '../../electron/node/watcher.js';
import { proposed, runStarted } from '../support/events.js';
import { appendEvents, eventually, tempFactory } from '../support/factory.js';
import { queryLedger } from '../support/ledger.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function startThread(factory: string) {
  const statuses: WatcherStatus[] = [];
  const changes: WatcherChange[] = [];
  const thread = new IngestThread({
    factory,
    settings: () => DEFAULT_SETTINGS,
    watch: true,
    usePolling: false,
    nativeBinding: null,
    sweepMinGapMs: 0,
    initial: { last_event_at: null, done_bytes: 0, total_bytes: 0, error: null },
    onStatus: (status) => statuses.push(status),
    onChange: (change) => changes.push(change),
    onSweep: () => undefined,
    onSweepFailed: () => undefined,
  });
  cleanups.push(() => thread.stop());
  return { thread, statuses, changes };
}

/** Each thread of this process by id, with its nice value (field 19 of its `stat`, Linux). */
function niceOfThreads(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const task of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    nice.set(Number(task), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return nice;
}

describe('the ingest thread', () => {
  it.runIf(process.platform === 'linux')(`on Linux it runs ${BACKGROUND_NICE_STEPS} nice steps below the thread that started it, which keeps its own priority`, async () => {
    const { dir } = tempFactory('layover-thread-');
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const host = thisThreadId()!;
    const before = niceOfThreads();
    const { thread } = startThread(dir);
    await thread.start();
    const after = niceOfThreads();
    const hostNice = before.get(host)!;
    expect(after.get(host)).toBe(hostNice);
    const started = [...after].filter(([id]) => !before.has(id));
    expect(started.filter(([, nice]) => nice === Math.min(19, hostNice + BACKGROUND_NICE_STEPS)).length).toBeGreaterThan(0);
  });

  it('catches up in its own thread and tells the host what changed', async () => {
    const { dir } = tempFactory('layover-thread-');
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    appendEvents(dir, proposed({ at: '2026-11-20T10:00:00.000Z', agent: 'builder', text: 'run the linter before pushing any branch' }));
    const { thread, changes } = startThread(dir);
    await thread.start();
    await thread.idle();
    expect(changes).toEqual([expect.objectContaining({ applied: 1, agents: ['builder'] })]);
    expect(thread.status()).toMatchObject({ state: 'watching', error: null });
  });

  it('a crash of the thread is reported in the status, and the thread starts again and reads on exactly once', async () => {
    const { dir } = tempFactory('layover-thread-');
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    appendEvents(dir, runStarted({ at: '2026-11-20T10:00:00.000Z', run: 'r1', agent: 'builder' }));
    const { thread, statuses } = startThread(dir);
    await thread.start();
    await thread.idle();

    await thread.terminateWorker();
    const reported = await eventually(() => statuses.find((s) => s.state === 'error'), 'the crash is reported');
    expect(reported.error).toMatch(/^the ingest thread stopped \(.+\); starting it again in [\d.]+ s$/);

    appendEvents(dir, runStarted({ at: '2026-11-20T10:01:00.000Z', run: 'r2', agent: 'builder' }));
    await eventually(() => queryLedger(dir, 'SELECT run FROM runs ORDER BY run').length === 2 || undefined, 'the new thread reads on', 15_000);
    await thread.idle();
    expect(queryLedger(dir, 'SELECT run FROM runs ORDER BY run')).toEqual([{ run: 'r1' }, { run: 'r2' }]);
    expect(thread.status()).toMatchObject({ state: 'watching', error: null });
  });
});
