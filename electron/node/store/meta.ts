/**
 * What the Desk remembers about itself in the ledger, by key (the `meta` table), so that it holds
 * across processes: the app, `serve` and every CLI command see the same.
 *
 * Today that is the last good settings (docs/rules.md#settings): when `layover.toml` turns bad, whichever process
 * reads it next goes on with the settings that were last in force — not with the defaults,
 * which would e.g. quietly stretch `provisional_runs` from 5 back to 20.
 */
import { validateSettings, type Settings } from '../../rules/settings.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';

const LAST_GOOD_SETTINGS = 'settings.last_good';

function missingTable(error: unknown): boolean {
  return error instanceof Error && /no such table: meta/.test(error.message);
}

/** The value stored under `key`, or null (also for a ledger made before the table existed). */
export function getMeta(db: Db, key: string): string | null {
  try {
    const row = stmt<[string], { value: string }>(db, 'SELECT value FROM meta WHERE key = ?').get(key);
    return row?.value ?? null;
  } catch (error) {
    if (missingTable(error)) return null;
    throw error;
  }
}

/** Stores `value` under `key`; writes nothing when it is already there (no needless write lock). */
export function setMeta(db: Db, key: string, value: string): void {
  if (getMeta(db, key) === value) return;
  try {
    stmt(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  } catch (error) {
    if (missingTable(error)) return;
    throw error;
  }
}

/**
 * The settings last in force for this factory, or null when none were recorded. A record that
 * cannot be read (damaged, or no longer passing the checks) throws, saying so: read as "none",
 * a refused layover.toml would silently put the defaults in force instead of the last good ones.
 */
export function readLastGoodSettings(db: Db): Settings | null {
  const text = getMeta(db, LAST_GOOD_SETTINGS);
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`the record is not JSON (${(error as Error).message})`, { cause: error });
  }
  const result = validateSettings(raw);
  if ('errors' in result) throw new Error(`the record no longer passes the checks: ${result.errors.join('; ')}`);
  return result.settings;
}

export function saveLastGoodSettings(db: Db, settings: Settings): void {
  setMeta(db, LAST_GOOD_SETTINGS, JSON.stringify(settings));
}
