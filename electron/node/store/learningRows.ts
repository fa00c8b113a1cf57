/**
 * A learning's row in the ledger: the columns read as the \`Learning\` record, and the mapping.
 */
import type { Learning } from '../../../shared/domain.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';

export const LEARNING_COLUMNS =
  'id, agent, text, impact, state, proposals, rediscoveries, echoes, runs_left, first_at, last_at, live_since, lapsed_at, decided_by, decided_at, reason';

/** Selects learnings with the SPEC field names, optionally prefixed by a table alias. */
export function learningColumns(alias?: string): string {
  if (!alias) return LEARNING_COLUMNS;
  return LEARNING_COLUMNS.split(', ')
    .map((c) => `${alias}.${c}`)
    .join(', ');
}

/** A row read with `LEARNING_COLUMNS` already has the shape of `Learning`. */
export function toLearning(row: unknown): Learning {
  return row as Learning;
}

export function getLearning(db: Db, id: string): Learning | undefined {
  const row = stmt(db, `SELECT ${LEARNING_COLUMNS} FROM learnings WHERE id = ?`).get(id);
  return row === undefined ? undefined : toLearning(row);
}

