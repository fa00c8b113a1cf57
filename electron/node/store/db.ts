/**
 * Opening the ledger: one SQLite file per factory, in WAL mode, migrated to this code's schema.
 *
 * Why these choices:
 * - WAL lets the window read while the watcher writes, and a crash mid-write loses nothing that
 *   was committed. `synchronous = NORMAL` is safe under WAL (a power cut can lose the last
 *   transactions, never corrupt the file), and ingest re-reads from the committed offsets.
 * - `busy_timeout` makes a second process (the CLI while the app runs) wait its turn instead of
 *   failing at once; past it, the caller gets a clear "locked" message.
 * - A ledger with a newer schema than this code knows is refused, never migrated down or
 *   rewritten: the newer Desk that wrote it still needs it intact.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';

export type Db = Database.Database;

/** How long a writer waits for another process's transaction before giving up. */
export const BUSY_TIMEOUT_MS = 5000;

export class LedgerOpenError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'LedgerOpenError';
  }
}

export interface OpenOptions {
  /** Path of a better-sqlite3 addon built for another runtime (Electron's ABI). */
  nativeBinding?: string;
  readonly?: boolean;
}

export function ledgerPath(factory: string): string {
  return path.join(factory, '.layover', 'ledger.sqlite');
}

/** Opens (creating if needed) and migrates the ledger at `file`. */
export function openDb(file: string, options: OpenOptions = {}): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let db: Db;
  try {
    db = new Database(file, {
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.readonly ? { readonly: true } : {}),
    });
  } catch (error) {
    throw new LedgerOpenError(file, `cannot open the ledger ${file}: ${(error as Error).message}`);
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    migrate(db, file);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof LedgerOpenError) throw error;
    const message = (error as Error).message;
    const hint = /locked|busy/i.test(message)
      ? 'another program holds it locked'
      : /not a database|malformed|corrupt/i.test(message)
        ? 'the file is not a valid SQLite database (corrupt?)'
        : message;
    throw new LedgerOpenError(file, `cannot open the ledger ${file}: ${hint}`);
  }
}

function migrate(db: Db, file: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new LedgerOpenError(
      file,
      `the ledger ${file} has schema version ${version}, newer than this Desk knows (${SCHEMA_VERSION}); ` +
        'it was written by a newer Layover Desk and is left untouched',
    );
  }
  for (let next = version; next < SCHEMA_VERSION; next++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[next]!);
      db.pragma(`user_version = ${next + 1}`);
    }).immediate();
  }
}
