/**
 * The one builder of a dynamic `WHERE` (a list filtered by what the caller gave): every store
 * query whose conditions depend on its input builds them here, so each is written one way.
 *
 * A clause names columns and binds values as named parameters, never as text: a value can never
 * change what the SQL says, and the SQL takes one of a few forms (one per set of columns given),
 * which is what lets the statement cache (`statements.ts`) keep each form compiled.
 */

/**
 * A `WHERE` clause asking each column given a value (not undefined, not empty) to equal it, as
 * `column = @column` (`alias.column = @column` with a table alias), with its named parameters;
 * an empty clause when no column is given one.
 */
export function equalsWhere(values: Record<string, string | undefined>, alias?: string): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(values)) {
    if (!value) continue;
    parts.push(`${alias ? `${alias}.` : ''}${column} = @${column}`);
    params[column] = value;
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
export function prefixRange(prefix: string): { lo: string; hi: string } {
  return { lo: prefix, hi: prefix + PREFIX_END };
}
