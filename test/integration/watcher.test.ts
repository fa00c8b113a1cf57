import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WatcherStatus } from '../../shared/domain.js';
import { EventsWatcher, type WatcherChange } from '../../electron/node/watcher.js';
import { ledgerPath, openDb, type Db } from '../../electron/node/store/db.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { eventually } from '../support/factory.js';
import { TestFactory } from '../support/testFactory.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function watched(usePolling: boolean): Promise<{ f: TestFactory; db: Db; changes: WatcherChange[]; statuses: WatcherStatus[] }> {
  const f = new TestFactory();
  cleanups.push(() => f.remove());
  f.propose('builder', 'Already there before the watcher started: rebuild the native modules after upgrades.');
  const db = openDb(ledgerPath(f.dir));
  cleanups.push(() => void db.close());
  const changes: WatcherChange[] = [];
  const statuses: WatcherStatus[] = [];
  const watcher = new EventsWatcher({
    db,
    factory: f.dir,
    settings: () => DEFAULT_SETTINGS,
    usePolling,
    onChange: (c) => changes.push(c),
    onStatus: (s) => statuses.push(s),
  });
  await watcher.start();
  cleanups.push(() => watcher.stop());
  return { f, db, changes, statuses };
}

const proposals = (db: Db) => (db.prepare('SELECT count(*) AS n FROM proposals').get() as { n: number }).n;
const count = (db: Db) => (db.prepare('SELECT count(*) AS n FROM learnings').get() as { n: number }).n;

describe('the events watcher', () => {
  it('catches up at start, then applies a line appended to the events file within a second', async () => {
    const { f, db, changes, statuses } = await watched(false);
    expect(count(db)).toBe(1);
    expect(statuses.at(-1)?.state).toBe('watching');
    const appended = Date.now();
    f.propose('builder', 'Appended while watching: the release job needs the signing key mounted.');
    await eventually(() => count(db) === 2, 'the appended line is applied', 3000);
    expect(Date.now() - appended).toBeLessThan(1000);
    expect(changes.at(-1)?.agents).toEqual(['builder']);
    expect(changes.at(-1)?.runs_finished).toBe(0);
  });

  it('tells how many runs finished in what it applied', async () => {
    const { f, db, changes } = await watched(false);
    f.fullRun('builder');
    f.fullRun('reviewer');
    await eventually(() => (db.prepare('SELECT count(*) AS n FROM runs WHERE finished_at IS NOT NULL').get() as { n: number }).n === 2, 'both runs are applied', 3000);
    await eventually(() => changes.reduce((sum, c) => sum + c.runs_finished, 0) === 2, 'the changes count both finished runs', 3000);
  });

  it('applies every line of a burst, including the last ones (trailing re-read), and a new day file', async () => {
    const { f, db } = await watched(false);
    for (let i = 0; i < 200; i++) f.propose('scout', `Burst learning number ${i} about the staging cluster quota ${i * 7}.`);
    f.event({ type: 'learning.proposed', agent: 'scout', text: 'A new day file is picked up too, with its first line.', impact: 'low' }, '2026-03-02.jsonl');
    // Count proposals, not learnings: some burst texts are the same claim by sameness (echoes).
    await eventually(() => proposals(db) === 202, 'the whole burst is applied', 4000);
    await eventually(() => fs.existsSync(path.join(f.dir, 'learnings', 'scout.json')), 'the learnings file is exported', 2000);
  });

  it('works by polling too (network drives)', async () => {
    const { f, db } = await watched(true);
    f.propose('builder', 'Polled: the artifact store prunes builds older than 14 days.');
    await eventually(() => count(db) === 2, 'the appended line is applied by polling', 4000);
  });

  it('reports in its status that telling the window failed, with the events still applied', async () => {
    const f = new TestFactory();
    cleanups.push(() => f.remove());
    f.propose('builder', 'Rebuild the native modules after every Node upgrade.');
    const db = openDb(ledgerPath(f.dir));
    cleanups.push(() => void db.close());
    const watcher = new EventsWatcher({
      db,
      factory: f.dir,
      settings: () => DEFAULT_SETTINGS,
      onChange: () => {
        throw new Error('the window is gone');
      },
    });
    await watcher.start();
    cleanups.push(() => watcher.stop());
    expect(count(db)).toBe(1);
    expect(watcher.status()).toMatchObject({ state: 'error', error: 'the events were read, but telling the window failed: the window is gone' });
  });

  it('keeps a failure of watching events/ in its status after a catch-up that works', async () => {
    const f = new TestFactory();
    cleanups.push(() => f.remove());
    const db = openDb(ledgerPath(f.dir));
    cleanups.push(() => void db.close());
    const watcher = new EventsWatcher({ db, factory: f.dir, settings: () => DEFAULT_SETTINGS });
    await watcher.start();
    cleanups.push(() => watcher.stop());
    // The file watcher's own error event, as chokidar emits it when the system refuses a watch.
    (watcher as unknown as { watcher: { emit(name: string, error: Error): void } }).watcher.emit('error', new Error('ENOSPC: System limit for number of file watchers reached'));
    f.propose('builder', 'Appended after the watch failed: the staging database resets at midnight.');
    watcher.request();
    await watcher.idle();
    expect(count(db)).toBe(1);
    expect(watcher.status()).toMatchObject({ state: 'error', error: expect.stringMatching(/^watching .* failed: ENOSPC/) });
  });
});
