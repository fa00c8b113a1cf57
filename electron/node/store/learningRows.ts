/**
 * A learning's row in the ledger: the one `Learning` schema (shared/domain.ts) read as columns.
 *
 * The columns are the schema's own field names (docs/rules.md#learnings), so the column list, the
 * insert (`insertLearning`) and the save (`writeLearnings`) are all made from the schema's keys:
 * a field added to the schema is read, inserted and saved without a second list to forget, and a
 * test checks that the `learnings` table has a column for each.
 */
import { Learning } from '../../../shared/domain.js';
import { ACTIVE_STATES } from '../../rules/ledger.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { columnList, columnsReader, rowReader } from './rowCheck.js';

/** Every field of a learning, in the schema's order: the learnings columns a record is read from. */
export const LEARNING_FIELDS = Learning.keyof().options;

export const LEARNING_COLUMNS = columnList(LEARNING_FIELDS);

/** "The learning is given to runs" as a condition on the `state` column, from the rule's one list. */
export const ACTIVE_SQL = `state IN (${ACTIVE_STATES.map((state) => `'${state}'`).join(', ')})`;

/**
 * The fields fixed when a learning is first recorded: what it says, whose it is, how the agent
 * rated it and when it was first proposed. A rediscovery or an echo is the same learning again,
 * so none of them changes after the insert; a write that changed them would rewrite history.
 */
export const FIXED_FIELDS = ['id', 'agent', 'text', 'impact', 'first_at'] as const satisfies readonly (keyof Learning)[];

export type MutableField = Exclude<keyof Learning, (typeof FIXED_FIELDS)[number]>;

/** Every other field: what a write of a learning changes (`writeLearnings`). */
export const MUTABLE_FIELDS: readonly MutableField[] = LEARNING_FIELDS.filter(
  (field): field is MutableField => !(FIXED_FIELDS as readonly string[]).includes(field),
);

/**
 * The stamp a learning's row gets at every write: one more than the highest in the ledger, so the
 * rows written since any moment are those stamped above what was highest then (an index lookup).
 * The window's list (`learningList.ts`) stays current by it. Every insert and update of a
 * learning sets it.
 */
export const NEXT_CHANGED = '(SELECT coalesce(max(changed), 0) + 1 FROM learnings)';

const learningName = (row: Record<string, unknown>): string => `learning ${String(row.id)}`;

/** A row read with `LEARNING_COLUMNS`, checked by the `Learning` schema (rowCheck.ts). */
export const toLearning = rowReader(Learning, learningName);

/**
 * The same, for a row read with `LEARNING_COLUMNS` in raw mode (`rawStmt`): what matching reads
 * the learnings it matched with, one at a time, where naming every column cost a third of the
 * read (rowCheck.ts).
 */
export const learningFromColumns = columnsReader(Learning, learningName);

export function getLearning(db: Db, id: string): Learning | undefined {
  const row = stmt(db, `SELECT ${LEARNING_COLUMNS} FROM learnings WHERE id = ?`).get(id);
  return row === undefined ? undefined : toLearning(row);
}
