/**
 * Reading records back from the ledger through their one schema (`shared/domain.ts`).
 *
 * Why checked and not cast. A row that does not fit its record (a hand edit, a migration that
 * missed a column, a JSON column that is not JSON) would otherwise reach the rules, the window
 * and the operator's scripts (`--json`) as a record of another shape, and be decided on. Checked,
 * it stops at the read with one line naming the record and the field. Each record has one
 * reader, made by `rowReader` from its schema, so the schema a payload is checked by on the API
 * is the one its row is read by.
 *
 * What it costs, measured in CPU time (zod 4, Node 20): about 0.45 µs a learning row and 5 µs a
 * help request (its flags are checked too). Ingesting 100,000 mixed events checks 37,000
 * learning rows and 10,000 requests, about 70 ms of its 17 s (0.4%; a CPU profile of that
 * ingest puts all of zod at 1.5% of its main thread, below the run-to-run spread); a page of the learnings list checks at most 100 rows, about 0.05 ms of the page's
 * 2.7 ms (21,000 learnings, within the noise). So there is no hand-written copy of any check: if
 * a hot path ever needs one, it must be tested against the schema it copies.
 */
import { z } from 'zod';
import { ApiError } from '../../../shared/api.js';

/**
 * The reader of one record: the row checked by `schema`, or an `ApiError('failure')` saying which
 * record (`name` of the row, e.g. "learning lrn_…") and which field does not check out.
 */
export function rowReader<S extends z.ZodType>(schema: S, name: (row: Record<string, unknown>) => string): (row: unknown) => z.output<S> {
  return (row) => {
    const checked = schema.safeParse(row);
    if (checked.success) return checked.data;
    const issue = checked.error.issues[0]!;
    const what = typeof row === 'object' && row !== null ? name(row as Record<string, unknown>) : 'row';
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new ApiError('failure', `the ledger's ${what} does not check out: ${where}${issue.message}`);
  };
}

/** A column holding `schema`'s value as JSON text: decoded, then checked by the schema. */
export function jsonColumn<S extends z.ZodType>(schema: S) {
  return z
    .string()
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        ctx.addIssue({ code: 'custom', message: `not JSON (${JSON.stringify(text.slice(0, 40))})` });
        return z.NEVER;
      }
    })
    .pipe(schema);
}

/** The SQL column list of `fields` (the record's field names are its column names), each prefixed by a table alias if given. */
export function columnList(fields: readonly string[], alias?: string): string {
  return fields.map((field) => (alias ? `${alias}.${field}` : field)).join(', ');
}
