/**
 * What the ledger commands share: the factory, its ledger and its settings, opened the same way
 * by every command, with "this factory does not exist" and "this ledger cannot be opened" turned
 * into refusals (exit 2) rather than stack traces.
 */
import { assertFactory, FactoryMissingError } from '../../node/factory.js';
import { SettingsSource } from '../../node/settingsFile.js';
import { ledgerPath, openDb, LedgerOpenError, type Db } from '../../node/store/db.js';
import type { Settings } from '../../rules/settings.js';
import { Refusal, type CliIo } from '../command.js';

export interface Opened {
  root: string;
  db: Db;
  settings: Settings;
  /** Why layover.toml is not in force (already reported on stderr), or null. */
  settingsError: string | null;
}

/** The factory folder, or a refusal naming it when it does not exist. */
export function existingFactory(factory: string): string {
  try {
    return assertFactory(factory);
  } catch (error) {
    if (error instanceof FactoryMissingError) throw new Refusal(error.message);
    throw error;
  }
}

/**
 * The settings in force for a command: layover.toml when it is good, else the defaults. A refused
 * file is reported on stderr with the key and why, so a zero never takes effect unnoticed.
 */
export function loadSettings(root: string, io: CliIo): { settings: Settings; error: string | null } {
  const source = new SettingsSource(root);
  const error = source.error();
  if (error) io.stderr(`warning: ${error}\n`);
  for (const warning of source.warnings()) io.stderr(`warning: layover.toml: ${warning}\n`);
  return { settings: source.current(), error };
}

/** Runs `fn` with the ledger open, closing it after. */
export async function withFactoryLedger<T>(factory: string, io: CliIo, fn: (opened: Opened) => T | Promise<T>): Promise<T> {
  const root = existingFactory(factory);
  const { settings, error } = loadSettings(root, io);
  let db: Db;
  try {
    db = openDb(ledgerPath(root));
  } catch (e) {
    if (e instanceof LedgerOpenError) throw new Refusal(e.message);
    throw e;
  }
  try {
    return await fn({ root, db, settings, settingsError: error });
  } finally {
    db.close();
  }
}

/** A one-line rendering of a text for a terminal listing. */
export function clip(text: string, max = 80): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  const points = [...flat];
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : flat;
}

/** A positive whole number option, or a refusal naming it. */
export function intOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Refusal(`--${name} must be a whole number of at least 1, not ${JSON.stringify(value)}`);
  return Number(value);
}
