/**
 * A `WHERE` clause asking each column given a value (not undefined, not empty) to equal it, as
 * `column = @column`, with its named parameters; an empty clause when no column is given one.
 */
export function equalsWhere(values: Record<string, string | undefined>): { sql: string; params: Record<string, unknown> } {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(values)) {
    if (!value) continue;
    parts.push(`${column} = @${column}`);
    params[column] = value;
  }
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', params };
}
