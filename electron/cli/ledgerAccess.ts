/**
 * How every `layover-desk` command reaches a factory: its folder, its ledger and its settings,
 * opened one way, so that the same trouble gives the same exit code and message whichever command
 * met it (docs/cli.md#every-command: 0 done, 2 refused or bad input, 1 failure):
 *
 * - a factory folder that does not exist (a typo in `--factory`) is refused, exit 2, and no empty
 *   factory is created in its place; nor is a folder that exists but is not a factory yet made
 *   one, unless `--create` says so;
 * - a ledger that cannot be used (damaged, written by a newer Desk, locked by another program,
 *   missing or empty in a factory with a history) is a failure, exit 1, reported with the file,
 *   the newest good safety copy and the `layover-desk restore` command to type; nothing is
 *   written to it. It is checked in full (SQLite's quick check) before any command writes to or
 *   lists from it, because damage past the pages a command reads is otherwise not seen: about
 *   0.2 s on a 57 MB ledger, paid for a listing too rather than list as if nothing were wrong.
 *   Damage met later, by any statement, ends the same way;
 * - an I/O fault (disk full, read-only, permission denied, locked) is one line naming the path
 *   and what to do. A factory on a read-only file system can still be listed: the listing reads
 *   a snapshot of the ledger, since SQLite cannot open a WAL database where it cannot write;
 * - `layover.toml` is read through `SettingsSource`, seeded with the last good settings the
 *   ledger keeps (docs/rules.md#settings), and a refused file is reported on stderr naming the key: the command
 *   goes on with the last good settings (or is refused, for a command that must not run on
 *   other settings than the file says).
 *
 * Agent-side commands (`propose`, `ask`, `run start`, `run finish`) only peek into the ledger,
 * read-only: an agent is never held up by a ledger it cannot read, since ingest checks everything
 * again.
 */
import { refusedFiles } from '../node/store/eventFiles.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LedgerProblem } from '../../shared/api.js';
import { damageProblem, ledgerProblem, openFactoryLedger } from '../node/backup.js';
import { assertFactory, FactoryMissingError, isFactory } from '../node/factory.js';
import { faultMessage } from '../node/faults.js';
import { flushJournal } from '../node/journal.js';
import { lastGoodFrom, ledgerSettings, SettingsSource } from '../node/settingsFile.js';
import { isDamage, LedgerOpenError, ledgerPath, openDb, type Db } from '../node/store/db.js';
import { readLastGoodSettings } from '../node/store/meta.js';
import type { Settings } from '../rules/settings.js';
import { Failure, Refusal, type CliIo, type FactoryTarget } from './command.js';

export interface FactoryLedger {
  /** The factory folder, resolved. */
  root: string;
  db: Db;
  /** The settings in force: layover.toml when it is good, else the last good ones. */
  settings: Settings;
  /** Why layover.toml is not in force (already reported on stderr), or null. */
  settingsError: string | null;
}

export interface LedgerAccessOptions {
  /**
   * Refuse (exit 2) rather than go on with the last good settings when layover.toml is bad, with
   * these opening words (e.g. "not sweeping"): for a command whose effect depends on the numbers
   * the file says (a sweep deletes by them).
   */
  strictSettings?: string;
  /**
   * The command only reads (a listing): in a factory whose folder cannot be written it reads a
   * snapshot of the ledger instead of failing.
   */
  listing?: boolean;
}

/** The options of a command that only lists. */
export const LISTING: LedgerAccessOptions = { listing: true };

/** The factory folder, resolved, or a refusal naming it when it does not exist. */
export function existingFactory(factory: string): string {
  try {
    return assertFactory(factory);
  } catch (error) {
    if (error instanceof FactoryMissingError) throw new Refusal(error.message);
    throw error;
  }
}

/** The failure (exit 1) for a ledger that cannot be used: the problem and the restore command to type. */
function ledgerFailure(root: string, problem: LedgerProblem): Failure {
  const restore = problem.newest_backup ? `\nTo restore it: layover-desk restore --factory ${root} ${problem.newest_backup}` : '';
  return new Failure(`${problem.message}${restore}`);
}

/** Whether the process can write in `dir` (a read-only mount says no even to root). */
function canWrite(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** An open ledger and what closing it involves. */
interface OpenLedger {
  db: Db;
  close(): void;
}

/**
 * A private copy of the ledger (and its -wal file) in a temporary folder, opened there: how a
 * listing reads a factory it cannot write. Closing removes the copy.
 */
function openSnapshot(root: string): OpenLedger {
  const ledger = ledgerPath(root);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-readonly-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const copy = path.join(dir, path.basename(ledger));
    fs.copyFileSync(ledger, copy);
    if (fs.existsSync(`${ledger}-wal`)) fs.copyFileSync(`${ledger}-wal`, `${copy}-wal`);
    const db = openDb(copy, { check: true });
    return {
      db,
      close: () => {
        db.close();
        remove();
      },
    };
  } catch (error) {
    remove();
    if (error instanceof LedgerOpenError) throw new LedgerOpenError(ledger, error.message.replaceAll(error.file, ledger), error.trouble);
    throw error;
  }
}

/**
 * Opens the ledger, checked in full, or fails (exit 1): a ledger that cannot be used is named
 * with the newest good safety copy; a folder that cannot be written, with what to do about it.
 */
function openLedger(root: string, options: LedgerAccessOptions): OpenLedger {
  const desk = path.dirname(ledgerPath(root));
  try {
    if (fs.existsSync(desk) && !canWrite(desk)) {
      if (options.listing && fs.existsSync(ledgerPath(root))) return openSnapshot(root);
      throw new Failure(
        `${desk} cannot be written (read-only file system or no permission): nothing was written; ` +
          'make it writable and run it again — listings (learnings, runs, help-requests, chains) still work',
      );
    }
    const db = openFactoryLedger(root, { check: true });
    return { db, close: () => db.close() };
  } catch (error) {
    if (error instanceof LedgerOpenError) throw ledgerFailure(root, ledgerProblem(root, error));
    throw error;
  }
}

/** Tells the operator on stderr why layover.toml is not in force, and what in it is ignored. */
function reportSettings(source: SettingsSource, io: CliIo): void {
  const error = source.error();
  if (error) io.stderr(`warning: ${error}\n`);
  for (const warning of source.warnings()) io.stderr(`warning: layover.toml: ${warning}\n`);
}

/**
 * Runs `work` with the factory's ledger open and its settings read, closing the ledger after,
 * whatever happens.
 */
export async function withLedger<T>(
  target: FactoryTarget,
  io: CliIo,
  work: (ledger: FactoryLedger) => T | Promise<T>,
  options: LedgerAccessOptions = {},
): Promise<T> {
  const root = existingFactory(target.dir);
  if (!target.create && !isFactory(root)) {
    throw new Refusal(
      `${root} is not a factory yet (no events/, layover.toml or .layover/ in it): ` +
        'check --factory, or give --create to make it a new factory',
    );
  }
  const ledger = openLedger(root, options);
  const db = ledger.db;
  try {
    const source = ledgerSettings(root, db);
    const settingsError = source.error();
    if (settingsError !== null && options.strictSettings !== undefined) throw new Refusal(`${options.strictSettings}: ${settingsError}`);
    reportSettings(source, io);
    for (const refused of refusedFiles(db)) io.stderr(`warning: ${refused.file} is refused: ${refused.reason}\n`);
    // Journal lines a crash left unwritten go first, this command's own after it
    // (docs/factory-format.md#the-decisions-journal).
    if (!options.listing) flushJournal(db, root);
    const result = await work({ root, db, settings: source.current(), settingsError });
    if (!options.listing) flushJournal(db, root);
    return result;
  } catch (error) {
    // Damage the quick check did not see (or that happened since) is met by a statement.
    if (isDamage(error)) throw ledgerFailure(root, damageProblem(root, (error as Error).message));
    const fault = faultMessage(error, ledgerPath(root));
    if (fault !== null && !(error instanceof Failure) && !(error instanceof Refusal)) throw new Failure(fault, { cause: error });
    throw error;
  } finally {
    ledger.close();
  }
}

/**
 * Runs `look` on the factory's ledger opened read-only, if there is one that opens: null when
 * there is none yet or it cannot be read. For the agent side, which must not be held up by the
 * ledger (ingest checks again) and never writes to it.
 */
export function peekLedger<T>(root: string, look: (db: Db) => T): T | null {
  if (!fs.existsSync(ledgerPath(root))) return null;
  return peekLedgerOrNone(root, (db) => (db === null ? null : look(db)));
}

/**
 * As `peekLedger`, but a factory with no ledger yet is asked about too: `look` gets null, for a
 * question whose answer then comes from the events files alone (ingest will build the ledger
 * from them). Null still when a ledger is there but cannot be opened or read.
 */
export function peekLedgerOrNone<T>(root: string, look: (db: Db | null) => T): T | null {
  const file = ledgerPath(root);
  if (!fs.existsSync(file)) return look(null);
  let db: Db;
  try {
    db = openDb(file, { readonly: true });
  } catch {
    return null;
  }
  try {
    return look(db);
  } catch (error) {
    // A ledger damaged past its first pages fails only when read: as one that does not open.
    if (error instanceof Error && error.name === 'SqliteError') return null;
    throw error;
  } finally {
    db.close();
  }
}

/**
 * The settings for a command that does not open the ledger for writing (the agent side): the
 * file's, else the last good ones the ledger keeps; a refused file is reported on stderr.
 */
export function peekSettings(root: string, io: CliIo): { settings: Settings; error: string | null } {
  const last = peekLedger(root, (db) => lastGoodFrom(() => readLastGoodSettings(db))) ?? { lastGood: null };
  const source = new SettingsSource(root, last);
  reportSettings(source, io);
  return { settings: source.current(), error: source.error() };
}
