/**
 * What the machine did wrong, in one line the operator can act on: the disk is full, a folder is
 * read-only or not theirs, a file sits where a folder belongs, another program holds the ledger.
 *
 * Node and SQLite report these as codes (`ENOSPC`, `SQLITE_FULL`, …) with a stack trace that
 * only buries the one thing that matters: which path, and what to do. Every such fault is a
 * failure (exit 1) and loses nothing: a ledger write that failed was not committed, an event
 * line that could not be appended was not half written. The stack trace is still there for a
 * bug report, behind `--debug`.
 */

/** The code of an error SQLite (better-sqlite3's SqliteError) raised, extended codes included, or null. */
export function sqliteCode(error: unknown): string | null {
  if (!(error instanceof Error) || error.name !== 'SqliteError') return null;
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

/** Whether another connection holds the ledger past the busy timeout (SQLITE_BUSY / SQLITE_LOCKED). */
export function isLocked(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== null && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** The code of an I/O error from Node (`ENOSPC`, …) or SQLite (`SQLITE_FULL`, …), or null. */
function faultCode(error: unknown): string | null {
  const sqlite = sqliteCode(error);
  if (sqlite !== null) return sqlite;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : null;
}

/** What each kind of fault is called and what the operator does about it. */
const FAULTS: readonly { codes: readonly string[]; what: string; advice: string }[] = [
  {
    codes: ['ENOSPC', 'EDQUOT', 'SQLITE_FULL'],
    what: 'the disk is full',
    advice: 'nothing was lost (the step that failed was not committed); free some space and run it again',
  },
  {
    codes: ['EROFS', 'SQLITE_READONLY'],
    what: 'is on a read-only file system',
    advice: 'nothing was written; make it writable (remount it, or copy the factory elsewhere) and run it again — listings still work',
  },
  {
    codes: ['EACCES', 'EPERM', 'SQLITE_PERM', 'SQLITE_AUTH'],
    what: 'permission denied',
    advice: 'nothing was written; give your account write access to it and run it again',
  },
  {
    codes: ['ENOTDIR'],
    what: 'part of this path is a file where a folder belongs',
    advice: 'a folder of the factory is needed there; move the file aside and run it again',
  },
  {
    codes: ['EEXIST'],
    what: 'a file is where a folder belongs',
    advice: 'a folder of the factory is needed there; move the file aside and run it again',
  },
  {
    codes: ['EISDIR'],
    what: 'a folder is where a file belongs',
    advice: 'move the folder aside and run it again',
  },
  {
    codes: ['SQLITE_CANTOPEN'],
    what: 'it cannot be opened',
    advice: 'check that the folder exists and can be written, and run it again',
  },
];

/**
 * The one-line message for an I/O fault at `where` (the file a SQLite error is about; a Node
 * error names its own path), or null when `error` is not one of the faults this knows.
 */
export function faultMessage(error: unknown, where?: string): string | null {
  const code = faultCode(error);
  if (code === null) return null;
  const place = (error as NodeJS.ErrnoException).path ?? where ?? null;
  if (isLocked(error)) {
    return `${place ?? 'the ledger'} is locked by another program (another Layover Desk?): nothing was written; close it or wait, and run it again`;
  }
  const fault = FAULTS.find((f) => f.codes.some((c) => code === c || code.startsWith(`${c}_`)));
  if (!fault) return null;
  const subject = fault.what.startsWith('is ') ? `${place ?? 'the factory'} ${fault.what}` : `${place ?? 'the factory'}: ${fault.what}`;
  return `${subject} (${code}): ${fault.advice}`;
}
