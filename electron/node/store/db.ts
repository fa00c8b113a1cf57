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
import { faultMessage, isLocked, sqliteCode } from '../faults.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';

export type Db = Database.Database;

/** How long a writer waits for another process's transaction before giving up. */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * Why a ledger cannot be used, which decides the advice: a damaged one is restored from a
 * safety copy, a locked one only waits for the other program, a newer one needs the newer Desk,
 * and an unusable one (a folder SQLite cannot open, a file it cannot read) needs the path fixed.
 */
export type LedgerTrouble = 'damaged' | 'locked' | 'newer' | 'unusable';

export class LedgerOpenError extends Error {
  constructor(
    readonly file: string,
    message: string,
    readonly trouble: LedgerTrouble = 'unusable',
  ) {
    super(message);
    this.name = 'LedgerOpenError';
  }
}

/**
 * Whether SQLite found the file damaged: SQLITE_CORRUPT (and its extended codes such as
 * SQLITE_CORRUPT_INDEX) or SQLITE_NOTADB. These can surface at any statement, not only at
 * open, because SQLite reads a page only when a statement needs it.
 */
export function isDamage(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== null && isDamageCode(code);
}

/** Whether a SQLite result code (extended codes included) says the file is damaged. */
export function isDamageCode(code: string): boolean {
  return code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB');
}

/**
 * SQLite's quick check of the whole file: null when it is sound, else the first problem found.
 * It reads every page (about 0.2 s for a 57 MB ledger on these machines), so damage past the
 * pages a command happens to read is found before anything is written on top of it.
 */
export function quickCheck(db: Db): string | null {
  try {
    const rows = db.pragma('quick_check(1)') as { quick_check: string }[];
    const first = rows[0]?.quick_check ?? 'no answer';
    return first === 'ok' ? null : oneLine(first);
  } catch (error) {
    if (isDamage(error)) return (error as Error).message;
    throw error;
  }
}

export interface OpenOptions {
  /** Path of a better-sqlite3 addon built for another runtime (Electron's ABI). */
  nativeBinding?: string;
  readonly?: boolean;
  /** Run `quickCheck` after opening and refuse a damaged file (the CLI does, before it writes or lists). */
  check?: boolean;
}

export function ledgerPath(factory: string): string {
  return path.join(factory, '.layover', 'ledger.sqlite');
}

/**
 * The schema version of the ledger at `file` as it stands, read without changing anything; null
 * when there is no such file or SQLite cannot read it (opening it then says why).
 */
export function schemaVersionOf(file: string, options: Pick<OpenOptions, 'nativeBinding'> = {}): number | null {
  let db: Db | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
    return db.pragma('user_version', { simple: true }) as number;
  } catch {
    return null;
  } finally {
    db?.close();
  }
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
    if (options.check) {
      const problem = quickCheck(db);
      if (problem !== null) throw new LedgerOpenError(file, damagedMessage(file, problem), 'damaged');
    }
    return db;
  } catch (error) {
    db.close();
    if (error instanceof LedgerOpenError) throw error;
    if (isLocked(error)) throw new LedgerOpenError(file, `cannot open the ledger ${file}: another program holds it locked`, 'locked');
    if (isDamage(error)) throw new LedgerOpenError(file, damagedMessage(file, (error as Error).message), 'damaged');
    const fault = faultMessage(error, file);
    throw new LedgerOpenError(file, fault === null ? `cannot open the ledger ${file}: ${(error as Error).message}` : `cannot open the ledger: ${fault}`);
  }
}

/** SQLite's report of a problem on one line, without the name of the schema it was found in. */
function oneLine(report: string): string {
  return report.replace(/\*\*\* in database \w+ \*\*\*/g, '').replace(/\s+/g, ' ').trim();
}

/** The first words of every report of a damaged ledger, whichever statement found it. */
export function damagedMessage(file: string, detail: string): string {
  return `the ledger ${file} is damaged: SQLite finds it corrupt (${oneLine(detail)})`;
}

function migrate(db: Db, file: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new LedgerOpenError(
      file,
      `the ledger ${file} has schema version ${version}, newer than this Desk knows (${SCHEMA_VERSION}); ` +
        'it was written by a newer Layover Desk and is left untouched',
      'newer',
    );
  }
  for (let next = version; next < SCHEMA_VERSION; next++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[next]!);
      db.pragma(`user_version = ${next + 1}`);
    }).immediate();
  }
}
