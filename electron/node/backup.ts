/**
 * The ledger's own safety copies, and what the Desk does with a ledger it cannot open.
 *
 * The ledger is the only record of what a person rejected and kept; losing it to a corrupt
 * file, a bad disk sector or a half-restored folder would quietly bring back every refused
 * learning. So once a day while the Desk runs it writes a consistent copy (SQLite's online
 * backup API: a snapshot even while the watcher writes) into `.layover/backups/`, keeping the
 * newest `KEEP_BACKUPS`.
 *
 * A ledger that cannot be opened (corrupt, written by a newer Desk, locked by another program)
 * is reported with its path and the newest copy, and nothing is written to it: the file may
 * still be recoverable by other means, and a newer Desk still needs its ledger intact. Restoring
 * a copy is the operator's explicit choice; even then the bad ledger is moved aside, never
 * deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { LedgerProblem } from '../../shared/api.js';
import { LedgerOpenError, ledgerPath, openDb, type Db } from './store/db.js';
import { SCHEMA_VERSION } from './store/schema.js';
import { namesIn } from './factory.js';
import { REAL_CLOCK, type SchedulerClock } from './sweep.js';

export const KEEP_BACKUPS = 7;
export const BACKUP_EVERY_MS = 24 * 60 * 60 * 1000;

const BACKUP_NAME = /^ledger-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.sqlite$/;

export interface BackupInfo {
  /** The file name inside the backups folder: what `restoreBackup` takes. */
  name: string;
  /** Its full path. */
  file: string;
  /** When the copy was made (from its name). */
  at: string;
  size: number;
}

export function backupsDir(factory: string): string {
  return path.join(factory, '.layover', 'backups');
}

/** `ledger-2026-11-29T20-33-37Z.sqlite`: sorts by time, and is a valid file name everywhere. */
export function backupName(at: Date): string {
  const iso = at.toISOString(); // 2026-11-29T20:33:37.123Z
  return `ledger-${iso.slice(0, 10)}T${iso.slice(11, 19).replace(/:/g, '-')}Z.sqlite`;
}

function timeOfName(name: string): string | null {
  const match = BACKUP_NAME.exec(name);
  if (!match) return null;
  const at = `${match[1]}T${match[2]}:${match[3]}:${match[4]}.000Z`;
  return Number.isNaN(Date.parse(at)) ? null : at;
}

/** The safety copies of a factory's ledger, newest first. */
export function listBackups(factory: string): BackupInfo[] {
  const dir = backupsDir(factory);
  const names = namesIn(dir);
  const backups: BackupInfo[] = [];
  for (const name of names) {
    const at = timeOfName(name);
    if (at === null) continue;
    const file = path.join(dir, name);
    try {
      const stat = fs.statSync(file);
      if (stat.isFile()) backups.push({ name, file, at, size: stat.size });
    } catch {
      // vanished between listing and stat: not a copy
    }
  }
  return backups.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

export function newestBackup(factory: string): BackupInfo | null {
  return listBackups(factory)[0] ?? null;
}

/**
 * Writes a consistent copy of the open ledger, named for `now`, then deletes all but the newest
 * `KEEP_BACKUPS`. The copy is written under a temporary name and renamed when complete, so a
 * half-written copy is never listed. Returns the copy written.
 */
export async function backupLedger(db: Db, factory: string, now: Date = new Date()): Promise<BackupInfo> {
  const dir = backupsDir(factory);
  fs.mkdirSync(dir, { recursive: true });
  const name = backupName(now);
  const file = path.join(dir, name);
  const temporary = path.join(dir, `.${name}.${process.pid}.partial`);
  try {
    await db.backup(temporary);
    // A copy is one self-contained file: rollback journal, not WAL, so no -wal/-shm files
    // appear beside it when it is opened to look inside.
    const copy = new Database(temporary);
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(temporary + suffix, { force: true });
    throw error;
  }
  pruneBackups(factory);
  const stat = fs.statSync(file);
  return { name, file, at: timeOfName(name)!, size: stat.size };
}

/** Deletes all but the newest `keep` copies. Only files named like copies are touched. */
export function pruneBackups(factory: string, keep: number = KEEP_BACKUPS): string[] {
  const removed: string[] = [];
  for (const old of listBackups(factory).slice(keep)) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(old.file + suffix, { force: true });
    removed.push(old.name);
  }
  return removed;
}

/** How the operator is told about the newest copy, in a message about a ledger problem. */
function newestCopySentence(newest: BackupInfo | null): string {
  return newest
    ? `the newest safety copy is ${newest.file} (made ${newest.at})`
    : 'there is no safety copy yet (.layover/backups is empty)';
}

/** The problem report for a ledger that failed to open, naming the file and the newest copy. */
export function ledgerProblem(factory: string, error: LedgerOpenError): LedgerProblem {
  const newest = newestBackup(factory);
  // A locked ledger is sound, only busy: the cure is closing the other program, not a restore.
  const advice = /locked/i.test(error.message)
    ? 'Nothing was written to the ledger; close the other program using it (another Layover Desk?) and try again.'
    : 'Nothing was written to the ledger; restoring a safety copy moves it aside, never deletes it.';
  return {
    file: error.file,
    message: `${error.message}; ${newestCopySentence(newest)}. ${advice}`,
    newest_backup: newest?.name ?? null,
  };
}

/**
 * Whether the factory's ledger can be opened: null when it can (or does not exist yet: it will
 * be created), else what is wrong with it. A ledger that fails to open is not written to.
 */
export function diagnoseLedger(factory: string): LedgerProblem | null {
  const file = ledgerPath(factory);
  if (!fs.existsSync(file)) return null;
  try {
    openDb(file).close();
    return null;
  } catch (error) {
    if (error instanceof LedgerOpenError) return ledgerProblem(factory, error);
    throw error;
  }
}

/** `2026-11-29T20-33-37-123Z`: a time for file names. */
function fileTime(at: Date): string {
  return at.toISOString().replace(/[:.]/g, '-');
}

export interface RestoreResult {
  /** The copy brought back. */
  restored: string;
  /** Where the ledger that was there (and its -wal/-shm files) now is. */
  moved_aside: string[];
}

/** A restore the rules refuse: not a listed copy, or a copy that is not a usable ledger. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

/**
 * Checks that a file is a ledger this Desk can open: a valid SQLite database passing a quick
 * integrity check, with a schema no newer than this code's. Throws `RestoreRefused` if not.
 */
function checkLedgerCopy(file: string, label: string): void {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new RestoreRefused(`the safety copy ${label} fails its integrity check (${String(check)})`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      throw new RestoreRefused(`the safety copy ${label} was written by a newer Layover Desk (schema ${version})`);
    }
  } catch (error) {
    if (error instanceof RestoreRefused) throw error;
    throw new RestoreRefused(`the safety copy ${label} is not a usable ledger: ${(error as Error).message}`);
  } finally {
    db?.close();
  }
}

/**
 * Brings back the safety copy `name`, the operator's explicit choice. The ledger must not be
 * open (the Desk closes it first). `name` must be one of `listBackups` (no paths). The copy is
 * checked before anything is moved; then the present ledger and its -wal/-shm files are renamed
 * to `ledger.sqlite.broken-<time>` (kept, never deleted) and the copy is put in its place.
 */
export function restoreBackup(factory: string, name: string, now: Date = new Date()): RestoreResult {
  const backup = listBackups(factory).find((b) => b.name === name);
  if (!backup) {
    const names = listBackups(factory).map((b) => b.name);
    throw new RestoreRefused(
      `${JSON.stringify(name)} is not a safety copy of this factory; ` +
        (names.length ? `the copies are: ${names.join(', ')}` : `there are none in ${backupsDir(factory)}`),
    );
  }

  const ledger = ledgerPath(factory);
  fs.mkdirSync(path.dirname(ledger), { recursive: true });
  const temporary = `${ledger}.restoring-${process.pid}`;
  const cleanTemporary = () => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(temporary + suffix, { force: true });
  };
  cleanTemporary();
  fs.copyFileSync(backup.file, temporary);
  try {
    checkLedgerCopy(temporary, backup.name);
  } catch (error) {
    cleanTemporary();
    throw error;
  }
  // Whatever checking left beside the copy goes; the copy itself is complete (closed cleanly).
  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(temporary + suffix, { force: true });

  const aside = `${ledger}.broken-${fileTime(now)}`;
  const moved: string[] = [];
  for (const suffix of ['', '-wal', '-shm']) {
    const from = ledger + suffix;
    if (!fs.existsSync(from)) continue;
    fs.renameSync(from, aside + suffix);
    moved.push(aside + suffix);
  }
  fs.renameSync(temporary, ledger);
  return { restored: backup.name, moved_aside: moved };
}

export interface BackupSchedulerOptions {
  /** Makes one copy (the caller binds the ledger and factory). */
  backup: () => Promise<BackupInfo>;
  /** When the newest copy was made, or null if there is none. */
  newestAt: () => number | null;
  onBackup?: (info: BackupInfo) => void;
  onError?: (error: unknown) => void;
  clock?: SchedulerClock;
  everyMs?: number;
}

/**
 * Once a day while the Desk runs: at start if the newest copy is older than a day (or there is
 * none), then every day; a start soon after the last copy waits for the rest of the day.
 */
export class BackupScheduler {
  private readonly clock: SchedulerClock;
  private readonly everyMs: number;
  private timer: unknown = null;
  private running = false;
  private inFlight: Promise<void> | null = null;

  constructor(private readonly options: BackupSchedulerOptions) {
    this.clock = options.clock ?? REAL_CLOCK;
    this.everyMs = options.everyMs ?? BACKUP_EVERY_MS;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const newest = this.options.newestAt();
    const due = newest === null ? 0 : newest + this.everyMs - this.clock.now();
    if (due <= 0) void this.runNow();
    else this.schedule(due);
  }

  stop(): void {
    this.running = false;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** Resolves when a copy in progress (if any) is done; for a clean shutdown and tests. */
  async idle(): Promise<void> {
    await this.inFlight;
  }

  private schedule(ms: number): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      void this.runNow();
    }, ms);
  }

  private runNow(): Promise<void> {
    if (!this.running) return Promise.resolve();
    const run = (async () => {
      try {
        const info = await this.options.backup();
        this.options.onBackup?.(info);
      } catch (error) {
        this.options.onError?.(error);
      }
      if (this.running) this.schedule(this.everyMs);
    })();
    this.inFlight = run;
    return run;
  }
}
