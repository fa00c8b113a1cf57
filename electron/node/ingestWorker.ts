/**
 * The ingest thread's code (see `ingestThread.ts` for why it is a thread): its own ledger
 * connection, the events watcher, and the sweeps that follow finished runs. It reports to the
 * host by messages and never touches the window.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Settings } from '../rules/settings.js';
import type { FromWorker, ToWorker, WorkerStart } from './ingestThread.js';
import { ledgerPath, openDb } from './store/db.js';
import { sweep, SweepScheduler } from './sweep.js';
import { EventsWatcher } from './watcher.js';
import { runThisThreadInBackground } from './threadPriority.js';

const port = parentPort;
if (!port) throw new Error('ingestWorker.ts runs only as a worker thread (see ingestThread.ts)');
const start = (workerData as { start: WorkerStart }).start;
const tell = (message: FromWorker): void => port.postMessage(message);
// Before anything else, so the screen's helper thread it starts inherits it (threadPriority.ts).
runThisThreadInBackground();

let settings: Settings = start.settings;
const db = openDb(ledgerPath(start.factory), start.nativeBinding ? { nativeBinding: start.nativeBinding } : {});

/**
 * Runs a checkpoint handed over (a decision's, a sweep's) as SQLite's own automatic checkpoint
 * fails, quietly: what it would copy stays in the log, safe, and the next checkpoint copies it;
 * damage it meets is met again by the next batch.
 */
function quietCheckpoint(checkpoint: () => void): void {
  try {
    checkpoint();
  } catch {
    // nothing lost: see above
  }
}

const sweeps = new SweepScheduler({
  // The sweep's checkpoint runs on the next turn of the event loop, once its report is told
  // (sweep.ts): the status bar hears what a sweep deleted without waiting for that copy.
  sweep: () => sweep(db, start.factory, settings, new Date(), (checkpoint) => setImmediate(quietCheckpoint, checkpoint)),
  onSweep: (report) => tell({ type: 'sweep', report }),
  onError: (error) => tell({ type: 'sweep-failed', message: error instanceof Error ? error.message : String(error) }),
  ...(start.sweepMinGapMs !== null ? { minGapMs: start.sweepMinGapMs } : {}),
});

const watcher = new EventsWatcher({
  db,
  factory: start.factory,
  settings: () => settings,
  usePolling: start.usePolling,
  onStatus: (status) => tell({ type: 'status', status }),
  onChange: (change) => {
    tell({ type: 'change', change });
    if (change.runs_finished > 0) sweeps.noteRunsFinished();
  },
});

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'settings':
      settings = message.settings;
      break;
    case 'read':
      watcher.request();
      break;
    case 'checkpoint':
      quietCheckpoint(() => db.pragma('wal_checkpoint(PASSIVE)'));
      break;
    case 'idle':
      void watcher.idle().then(() => tell({ type: 'idle', id: message.id }));
      break;
    case 'stop':
      sweeps.stop();
      void watcher.stop().then(() => {
        db.close();
        tell({ type: 'stopped' });
        port.close();
      });
      break;
  }
});

sweeps.start();
if (!start.watch) tell({ type: 'status', status: watcher.status() });
else void watcher.start().catch((error: unknown) =>
  tell({
    type: 'status',
    status: { ...watcher.status(), state: 'error', error: error instanceof Error ? error.message : String(error) },
  }),
);
