/**
 * Upgrading an older ledger's schema off the host's event loop (docs/development.md#architecture).
 *
 * A migration may copy a whole table (migration 12 rebuilds the runs table: 1.0 s for 89,887
 * runs, some 11 s at a million), and better-sqlite3 runs it synchronously. On a host's thread
 * that is as long a freeze: of the window when the operator opens another factory or restores
 * a copy, and at start of the desktop app's main process (its menus) or of `serve`'s answers.
 * So a host has the migrations run first in a short-lived thread, on a connection of its own,
 * and opens the ledger itself after, finding nothing left to do.
 *
 * Whatever goes wrong in that thread is left to the host's own open, which meets the same trouble
 * and words it as every open does (`openDb`), so the messages stay in one place.
 */
import { Worker } from 'node:worker_threads';
import { schemaVersionOf } from './store/db.js';
import { SCHEMA_VERSION } from './store/schema.js';
import { workerEntry } from './workerEntry.js';

/** What the upgrade thread is started with (`upgradeWorker.ts`). */
export interface UpgradeStart {
  file: string;
  nativeBinding: string | null;
}

/**
 * Brings the ledger at `file` to this code's schema in a thread of its own, when it is an older
 * one. A ledger without a schema yet (none, or an empty file) is left to the host: creating one
 * copies nothing, and an empty ledger of a factory with a history must be refused there
 * (`openFactoryLedger`), never filled here.
 */
export async function upgradeOffThread(file: string, options: { nativeBinding?: string }): Promise<void> {
  const version = schemaVersionOf(file, options);
  if (version === null || version === 0 || version >= SCHEMA_VERSION) return;
  const entry = workerEntry<UpgradeStart>('upgradeWorker');
  const start: UpgradeStart = { file, nativeBinding: options.nativeBinding ?? null };
  await new Promise<void>((resolve) => {
    const worker = new Worker(entry.url, { workerData: entry.workerData(start) });
    // A failed upgrade ends the thread with an error, then an exit: either way the host opens next.
    worker.once('error', () => resolve());
    worker.once('exit', () => resolve());
  });
}
