/**
 * The upgrade thread's code (`ledgerUpgrade.ts` says why it is a thread): opening the ledger runs
 * its migrations (`openDb`), then the connection closes and the thread ends. An error ends the
 * thread with it; the host's own open then meets and reports it.
 */
import { workerData } from 'node:worker_threads';
import type { UpgradeStart } from './ledgerUpgrade.js';
import { openDb } from './store/db.js';

const start = (workerData as { start: UpgradeStart }).start;
openDb(start.file, start.nativeBinding ? { nativeBinding: start.nativeBinding } : {}).close();
