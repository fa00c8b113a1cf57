/**
 * The ledger's own safety copies, and what the Desk does with a ledger it cannot use.
 *
 * The ledger is the only record of what a person rejected and kept; losing it to a corrupt
 * file, a bad disk sector or a half-restored folder would quietly bring back every refused
 * learning. So once a day while the Desk runs it writes a compact copy (`VACUUM INTO`: a
 * consistent snapshot even while the watcher writes, without the free pages sweeps leave) into
 * `.layover/backups/`, keeping the newest `KEEP_BACKUPS`.
 *
 * A copy only counts once it is known good: the ledger is checked before it is copied (a damaged
 * ledger is never copied, so its copies cannot push the good ones out of the seven kept), and
 * the copy is checked after (a copy that fails is removed and the failure reported). The newest
 * good copy is never rotated out.
 *
 * A ledger that cannot be used (damaged, written by a newer Desk, locked by another program, or
 * missing from a factory that has a history) is reported with its path and the newest good copy,
 * and nothing is written to it: the file may still be recoverable by other means, and a newer
 * Desk still needs its ledger intact. Restoring a copy is the operator's explicit choice; even
 * then the bad ledger is moved aside, never deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { LedgerProblem } from '../../shared/api.js';
import { BUSY_TIMEOUT_MS, damagedMessage, isDamageCode, LedgerOpenError, ledgerPath, openDb, type Db, type OpenOptions } from './store/db.js';
import { copyLedgerInWorker, type WorkerOutcome } from './ledgerWorker.js';
import { SCHEMA_VERSION } from './store/schema.js';
import { removeStaleTemps, replaceWith, tempFileFor } from './atomicFile.js';
import { factoryPaths, namesIn } from './factory.js';
import { REAL_CLOCK, type SchedulerClock } from './sweep.js';
import { fileTime } from '../rules/time.js';

export const KEEP_BACKUPS = 7;
const BACKUP_EVERY_MS = 24 * 60 * 60 * 1000;

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

/** A safety copy that was not made, or failed its check and was removed: the reason. */
class BackupFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupFailed';
  }
}

/** The files SQLite may leave beside a database file. */
const SIDE_FILES = ['', '-wal', '-shm', '-journal'];

function removeWithSideFiles(file: string): void {
  for (const suffix of SIDE_FILES) fs.rmSync(file + suffix, { force: true });
}

export interface BackupOptions {
  /** better-sqlite3 addon built for Electron's ABI, for the worker; absent on plain Node. */
  nativeBinding?: string;
}

/**
 * Writes a compact copy of the open ledger, named for `now`, checks it, then deletes all but
 * the newest `KEEP_BACKUPS`. The ledger is checked first: a damaged one is refused
 * (`LedgerOpenError`, trouble 'damaged') and nothing is written. The copy is written under a
 * temporary name, checked (integrity check, schema version) and renamed when good, so a
 * half-written or bad copy is never listed; one that fails is removed and `BackupFailed` thrown.
 * The checks and the copy run in a worker thread (`ledgerWorker.ts`): the Desk's window goes on
 * answering meanwhile. Returns the copy written.
 */
export async function backupLedger(db: Db, factory: string, now: Date = new Date(), options: BackupOptions = {}): Promise<BackupInfo> {
  const dir = backupsDir(factory);
  fs.mkdirSync(dir, { recursive: true });
  const name = backupName(now);
  const file = path.join(dir, name);
  // A copy a killed Desk left half-written is as large as the ledger: removed before making one.
  removeStaleTemps(dir);
  const temporary = tempFileFor(file);
  let outcome: WorkerOutcome;
  try {
    outcome = await copyLedgerInWorker(db.name, temporary, {
      busyTimeoutMs: BUSY_TIMEOUT_MS,
      schemaVersion: SCHEMA_VERSION,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    });
  } catch (error) {
    removeWithSideFiles(temporary);
    throw error;
  }
  if (outcome.problem !== null) {
    removeWithSideFiles(temporary);
    const ledger = ledgerPath(factory);
    if (outcome.code === null || isDamageCode(outcome.code)) {
      throw new LedgerOpenError(ledger, `${damagedMessage(ledger, outcome.problem)}; no safety copy was made of it`, 'damaged');
    }
    throw new BackupFailed(`no safety copy was made of ${ledger}: ${outcome.problem} (${outcome.code})`);
  }
  if (outcome.copyProblem !== null) {
    removeWithSideFiles(temporary);
    throw new BackupFailed(`the safety copy ${name} failed its check (${outcome.copyProblem}) and was removed; the earlier copies are kept`);
  }
  // VACUUM INTO does not flush the file it writes: flushed here, with the folder, before the copy
  // counts (an older copy may be pruned next).
  replaceWith(temporary, file, { durable: true });
  pruneBackups(factory, KEEP_BACKUPS, name);
  const stat = fs.statSync(file);
  return { name, file, at: timeOfName(name)!, size: stat.size };
}

/**
 * Deletes all but the newest `keep` copies, never `protect` (the newest good copy). Only files
 * named like copies are touched.
 */
function pruneBackups(factory: string, keep: number = KEEP_BACKUPS, protect?: string): string[] {
  const removed: string[] = [];
  for (const old of listBackups(factory).slice(keep)) {
    if (old.name === protect) continue;
    removeWithSideFiles(old.file);
    removed.push(old.name);
  }
  return removed;
}

/**
 * Whether a file is a ledger this Desk can use: null when it is a valid SQLite database passing
 * SQLite's full integrity check (indexes agree with their tables, which a copy restored later
 * depends on) with a schema no newer than this code's, else what is wrong. Opened read-only, so
 * looking leaves the file as it was.
 */
function copyCheck(file: string): string | null {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const rows = db.pragma('integrity_check(1)') as { integrity_check: string }[];
    const first = rows[0]?.integrity_check ?? 'no answer';
    if (first !== 'ok') return `integrity check: ${first}`;
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) return `written by a newer Layover Desk (schema ${version})`;
    return null;
  } catch (error) {
    return `not a usable ledger: ${(error as Error).message}`;
  } finally {
    db?.close();
  }
}

/**
 * The newest copy that passes its check, or null. Copies are checked when written, but one made
 * by an older Desk, or damaged on disk since, must not be offered for a restore that would then
 * be refused; so each is checked again here, newest first. Only asked when a ledger is in
 * trouble, where the time a check takes does not matter.
 */
function newestGoodBackup(factory: string): BackupInfo | null {
  for (const backup of listBackups(factory)) if (copyCheck(backup.file) === null) return backup;
  return null;
}

/** How the operator is told about the newest good copy, in a message about a ledger problem. */
function newestCopySentence(newest: BackupInfo | null, factory: string): string {
  if (newest) return `the newest good safety copy is ${newest.file} (made ${newest.at})`;
  return listBackups(factory).length > 0
    ? `no safety copy in ${backupsDir(factory)} passes its check`
    : `there is no safety copy yet (${backupsDir(factory)} is empty)`;
}

/** The problem report for a ledger that cannot be used, naming the file and the newest good copy. */
export function ledgerProblem(factory: string, error: LedgerOpenError): LedgerProblem {
  // A locked ledger is sound, only busy: the cure is closing the other program, not a restore.
  if (error.trouble === 'locked') {
    return {
      file: error.file,
      message: `${error.message}. Nothing was written to the ledger; close the other program using it (another Layover Desk?) and try again.`,
      newest_backup: null,
    };
  }
  // A ledger SQLite could not open for a reason of the machine (disk full, no permission) is not
  // damaged: the cure is the fault's, and a restore would not help.
  if (error.trouble === 'unusable') {
    return { file: error.file, message: `${error.message}. Nothing was written to the ledger.`, newest_backup: null };
  }
  const newest = newestGoodBackup(factory);
  return {
    file: error.file,
    message: `${error.message}; ${newestCopySentence(newest, factory)}. Nothing was written to the ledger; restoring a safety copy moves it aside, never deletes it.`,
    newest_backup: newest?.name ?? null,
  };
}

/**
 * The report of damage found after the ledger opened (by a statement, or by a check), `detail`
 * being SQLite's words: as if it had not opened.
 */
export function damageProblem(factory: string, detail: string): LedgerProblem {
  const file = ledgerPath(factory);
  return ledgerProblem(factory, new LedgerOpenError(file, damagedMessage(file, detail), 'damaged'));
}

/**
 * What in the factory shows it has had a ledger: safety copies, the decisions journal, learnings
 * or chains files the Desk wrote. Empty for a factory the Desk has never opened.
 */
function factoryHistory(factory: string): string[] {
  const paths = factoryPaths(factory);
  const found: string[] = [];
  const copies = listBackups(factory).length;
  if (copies > 0) found.push(`${copies} safety ${copies === 1 ? 'copy' : 'copies'}`);
  if (fs.existsSync(path.join(paths.desk, 'decisions.jsonl'))) found.push('a decisions journal');
  for (const [dir, what] of [
    [paths.learnings, 'learnings files'],
    [paths.chains, 'chains files'],
  ] as const) {
    if (namesIn(dir).some((name) => name.endsWith('.json'))) found.push(what);
  }
  return found;
}

/**
 * Opens the factory's ledger the way every command and the Desk do. A ledger that is missing or
 * empty (zero bytes, which SQLite would take for a new database) in a factory with a history is
 * damage, not a new ledger: starting afresh would reopen answered help requests and bring back
 * rejected learnings. It is refused (`LedgerOpenError`, trouble 'damaged') and nothing is created.
 */
export function openFactoryLedger(factory: string, options: OpenOptions = {}): Db {
  const file = ledgerPath(factory);
  let size: number | null;
  try {
    size = fs.statSync(file).size;
  } catch {
    size = null;
  }
  if (size === null || size === 0) {
    const history = factoryHistory(factory);
    if (history.length > 0) {
      const state = size === null ? 'is missing' : 'is empty (0 bytes)';
      throw new LedgerOpenError(
        file,
        `the ledger ${file} ${state}, but this factory has a history (${history.join(', ')}); ` +
          'it is not started afresh, which would forget what a person decided',
        'damaged',
      );
    }
  }
  return openDb(file, options);
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
  removeStaleTemps(path.dirname(ledger));
  const temporary = tempFileFor(ledger);
  const cleanTemporary = () => removeWithSideFiles(temporary);
  fs.copyFileSync(backup.file, temporary);
  const problem = copyCheck(temporary);
  if (problem !== null) {
    cleanTemporary();
    throw new RestoreRefused(`the safety copy ${backup.name} cannot be restored: ${problem}`);
  }

  const moved = moveLedgerAside(factory, now);
  replaceWith(temporary, ledger, { durable: true });
  return { restored: backup.name, moved_aside: moved };
}

/**
 * Renames the factory's ledger and its -wal/-shm files to `ledger.sqlite.broken-<time>` (kept,
 * never deleted: it may still be recoverable by other means). Returns the new names.
 */
export function moveLedgerAside(factory: string, now: Date): string[] {
  const ledger = ledgerPath(factory);
  const aside = `${ledger}.broken-${fileTime(now)}`;
  const moved: string[] = [];
  for (const suffix of ['', '-wal', '-shm']) {
    const from = ledger + suffix;
    if (!fs.existsSync(from)) continue;
    fs.renameSync(from, aside + suffix);
    moved.push(aside + suffix);
  }
  return moved;
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
