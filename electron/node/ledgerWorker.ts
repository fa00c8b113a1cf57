/**
 * The slow whole-file work on the ledger, in a worker thread: SQLite's check of every page, and
 * the compact safety copy with the check of that copy.
 *
 * better-sqlite3 runs these synchronously; on the Desk's own thread they would freeze the window
 * for as long as they take (measured here on a 57 MB ledger: quick check 0.2 s, `VACUUM INTO`
 * 0.2 s, the copy's integrity check 0.6 s), growing with the file. In a worker, on its own
 * read-only connection, the window goes on answering; WAL lets that connection read a consistent
 * snapshot beside the Desk's writer.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What the worker reports. */
export interface WorkerOutcome {
  /** SQLite's first problem with the ledger (its quick check, or the error reading it), or null when sound. */
  problem: string | null;
  /** The SQLite code when reading the ledger failed with an error (SQLITE_CORRUPT, SQLITE_BUSY, …). */
  code: string | null;
  /** For a copy: what is wrong with the copy written (it failed its integrity check), or null. */
  copyProblem: string | null;
}

/**
 * The worker's code. It is given as a string (`eval`), not as a file, so it runs the same from
 * the sources under the tests and from the built app, with no separate file to ship. The copy
 * is only written when the ledger passes its check, and is checked in full after (the integrity
 * check also compares every index with its table, which a restore later depends on). Its one
 * statement is prepared directly, not through the statement cache (store/statements.ts): it runs
 * once on a connection of its own that closes right after, so there is nothing to reuse.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const binding = workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {};
const firstAnswer = (db, pragma) => {
  const row = db.pragma(pragma)[0];
  return row ? String(Object.values(row)[0]) : 'no answer';
};
const outcome = { problem: null, code: null, copyProblem: null };
let db;
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true, ...binding });
  db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
  const answer = firstAnswer(db, 'quick_check(1)');
  if (answer !== 'ok') outcome.problem = answer;
  else if (workerData.into) db.prepare('VACUUM INTO ?').run(workerData.into);
} catch (error) {
  outcome.problem = error.message;
  outcome.code = typeof error.code === 'string' ? error.code : null;
} finally {
  if (db) db.close();
}
if (workerData.into && outcome.problem === null) {
  let copy;
  try {
    copy = new Database(workerData.into, { readonly: true, fileMustExist: true, ...binding });
    const answer = firstAnswer(copy, 'integrity_check(1)');
    if (answer !== 'ok') outcome.copyProblem = 'integrity check: ' + answer;
    else if (copy.pragma('user_version', { simple: true }) !== workerData.schemaVersion) outcome.copyProblem = 'its schema version is not the ledger\\'s';
  } catch (error) {
    outcome.copyProblem = error.message;
  } finally {
    if (copy) copy.close();
  }
}
parentPort.postMessage(outcome);
`;

export interface LedgerWorkerOptions {
  /** better-sqlite3 addon built for Electron's ABI; absent on plain Node. */
  nativeBinding?: string;
  busyTimeoutMs: number;
  schemaVersion: number;
}

function runWorker(data: Record<string, unknown>): Promise<WorkerOutcome> {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ...data, module } });
    worker.once('message', (outcome: WorkerOutcome) => resolve(outcome));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the ledger worker stopped with exit code ${code}`));
    });
  });
}

/** SQLite's quick check of the ledger `file`, in a worker thread. */
export function checkLedgerInWorker(file: string, options: LedgerWorkerOptions): Promise<WorkerOutcome> {
  return runWorker({ ...options, nativeBinding: options.nativeBinding ?? null, file, into: null });
}

/**
 * In a worker thread: checks the ledger `file`, and only when it is sound writes a compact copy
 * of it to `into` (`VACUUM INTO`, a new file) and checks the copy.
 */
export function copyLedgerInWorker(file: string, into: string, options: LedgerWorkerOptions): Promise<WorkerOutcome> {
  return runWorker({ ...options, nativeBinding: options.nativeBinding ?? null, file, into });
}
