/**
 * The one builder of a dynamic `WHERE` (a list filtered by what the caller gave): every store
 * query whose conditions depend on its input builds them here, so each is written one way.
 *
 * A clause names columns and binds values as named parameters, never as text: a value can never
 * change what the SQL says, and the SQL takes one of a few forms (one per set of columns given),
 * which is what lets the statement cache (`statements.ts`) keep each form compiled.
 */

/** One condition of a clause, with the named parameters it binds. */
export interface Condition {
  sql: string;
  params?: Record<string, unknown>;
}

/**
 * A `WHERE` clause asking each column given a value (not undefined, not empty) to equal it, as
 * `column = @column` (`alias.column = @column` with a table alias), and every other condition
 * given (`also`; a null one is left out), all joined by AND, with their named parameters; an
 * empty clause when there is no condition at all.
 */
export function equalsWhere(
  values: Record<string, string | undefined>,
  alias?: string,
  also: readonly (Condition | null)[] = [],
): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(values)) {
    if (!value) continue;
    parts.push(`${alias ? `${alias}.` : ''}${column} = @${column}`);
    params[column] = value;
  }
  for (const condition of also) {
    if (!condition) continue;
    parts.push(condition.sql);
    Object.assign(params, condition.params);
  }
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', params };
}

/** Above every character a text can hold next: `lo <= x < lo + PREFIX_END` is "x starts with lo". */
const PREFIX_END = '\u{10FFFF}';

/**
 * The key range of the texts that start with `prefix`, as named parameters `lo` and `hi`: a
 * search for an id or its first characters asked as `x >= @lo AND x < @hi` goes through x's index
 * (SQLite does not use an index for LIKE under the default case-insensitive matching).
 */
function prefixRange(prefix: string): { lo: string; hi: string } {
  return { lo: prefix, hi: prefix + PREFIX_END };
}

/**
 * The condition of a search for an id or its first characters: `sql` asks for its keys in the
 * range `@lo`…`@hi` (`prefixRange`); null when nothing is searched.
 */
export function idSearch(sql: string, search: string | undefined): Condition | null {
  const prefix = search?.trim();
  return prefix ? { sql: `(${sql})`, params: prefixRange(prefix) } : null;
}
