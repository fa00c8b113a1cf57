/**
 * What the help-request commands share: opening the factory's ledger, the OS account name a
 * reply is signed with when no name is typed, and turning the store's refusals into exit 2.
 */
import os from 'node:os';
import { ApiError } from '../../../shared/api.js';
import { assertFactory, FactoryMissingError } from '../../node/factory.js';
import { ledgerPath, openDb, LedgerOpenError, type Db } from '../../node/store/db.js';
import { Refusal } from '../command.js';

/** The account this process runs as: who replied when no name was typed. */
export function osAccountName(env: Record<string, string | undefined> = process.env): string {
  try {
    const name = os.userInfo().username;
    if (name) return name;
  } catch {
    // no passwd entry (some containers): fall back to the environment
  }
  return env.USER ?? env.USERNAME ?? 'unknown';
}

/** Runs `fn` with the factory's ledger open, closing it after; refusals become exit 2. */
export function withLedger<T>(factory: string, fn: (db: Db, root: string) => T): T {
  let root: string;
  let db: Db;
  try {
    root = assertFactory(factory);
    db = openDb(ledgerPath(root));
  } catch (error) {
    if (error instanceof FactoryMissingError || error instanceof LedgerOpenError) throw new Refusal(error.message);
    throw error;
  }
  try {
    return fn(db, root);
  } catch (error) {
    if (error instanceof ApiError && (error.code === 'refused' || error.code === 'not_found' || error.code === 'bad_input')) {
      throw new Refusal(error.message);
    }
    throw error;
  } finally {
    db.close();
  }
}

/** A one-line rendering of a text for a terminal listing. */
export function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  const points = [...flat];
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : flat;
}
