/**
 * A learning's row in the ledger: the columns read as the \`Learning\` record, and the mapping.
 */
import type { Learning } from '../../../shared/domain.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';

export const LEARNING_COLUMNS =
  'id, agent, text, impact, state, proposals, rediscoveries, echoes, runs_left, first_at, last_at, live_since, lapsed_at, decided_by, decided_at, reason';

/**
 * The stamp a learning's row gets at every write: one more than the highest in the ledger, so the
 * rows written since any moment are those stamped above what was highest then (an index lookup).
 * The window's list (`learningList.ts`) stays current by it. Every insert and update of a
 * learning sets it.
 */
export const NEXT_CHANGED = '(SELECT coalesce(max(changed), 0) + 1 FROM learnings)';

/** Selects learnings with the field names of docs/rules.md#learnings, optionally prefixed by a table alias. */
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

