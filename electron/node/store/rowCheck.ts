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
 * What it costs. Checked hot, a learning row costs about 0.45 µs through zod 4 (Node 20). Cold
 * it is another matter: matching reads the learnings it matched one row at a time, between
 * other work that has pushed zod's code and schema objects out of the CPU caches, and there a
 * zod parse of one learning row took 22–25 µs at the median and up to 0.2 ms, as much as the
 * whole probe of the matching index (docs/performance-log.md#session-11-matchings-p99). So a record
 * whose schema is plain columns (strings, finite or safe-integer numbers, enums, nullable ones of
 * those, no refinements) is first checked by {@link plainCheck}, a few type tests made from the
 * schema itself: 3.5–4 µs cold. It is not a second copy of the rule: it is derived from the schema
 * when the reader is made, it accepts only what it was built to understand, and any row it does not
 * pass goes through zod, which then gives the answer and the error message. A property test checks
 * that the two accept the same rows and give the same records.
 */
import { z } from 'zod';
import { ApiError } from '../../../shared/api.js';

/**
 * The reader of one record: the row checked by `schema`, or an `ApiError('failure')` saying which
 * record (`name` of the row, e.g. "learning lrn_…") and which field does not check out.
 */
export function rowReader<S extends z.ZodType>(schema: S, name: (row: Record<string, unknown>) => string): (row: unknown) => z.output<S> {
  const plain = plainCheck(schema);
  return (row) => {
    const passed = plain?.(row);
    if (passed !== undefined) return passed as z.output<S>;
    const checked = schema.safeParse(row);
    if (checked.success) return checked.data;
    const issue = checked.error.issues[0]!;
    const what = typeof row === 'object' && row !== null ? name(row as Record<string, unknown>) : 'row';
    const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    throw new ApiError('failure', `the ledger's ${what} does not check out: ${where}${issue.message}`);
  };
}

/** A test of one column's value, made from its schema. */
type ValueTest = (value: unknown) => boolean;

/**
 * The test of a value that `schema` accepts as it is, or null when `schema` is not a plain column
 * kind (a transform, a refinement, a coercion, a JSON column): then the record is zod's alone.
 * Each test accepts exactly what zod 4 accepts for that kind: a string; a finite number (zod
 * refuses NaN and ±Infinity), a safe integer where the schema says `.int()`; one of an enum's
 * values; null besides, when nullable.
 */
function valueTest(schema: z.ZodType): ValueTest | null {
  const def = schema._zod.def as { type: string; checks?: readonly { _zod: { def: { check: string; format?: string } } }[]; coerce?: boolean };
  if (def.coerce) return null;
  const checks = (def.checks ?? []).map((check) => check._zod.def);
  switch (def.type) {
    case 'string':
      return checks.length === 0 ? (value) => typeof value === 'string' : null;
    case 'number':
      if (checks.length === 0) return (value) => typeof value === 'number' && Number.isFinite(value);
      if (checks.length === 1 && checks[0]!.check === 'number_format' && checks[0]!.format === 'safeint') return (value) => Number.isSafeInteger(value);
      return null;
    case 'enum': {
      if (checks.length > 0) return null;
      const values = new Set<unknown>(Object.values((def as unknown as { entries: Record<string, unknown> }).entries));
      return (value) => values.has(value);
    }
    case 'nullable': {
      if (checks.length > 0) return null;
      const inner = valueTest((def as unknown as { innerType: z.ZodType }).innerType);
      return inner && ((value) => value === null || inner(value));
    }
    default:
      return null;
  }
}

/** The field tests of an object schema whose every field has a {@link valueTest}, in the schema's order; null for any other schema. */
function plainFields(schema: z.ZodType): (readonly [string, ValueTest])[] | null {
  const def = schema._zod.def as { type: string; shape?: Record<string, z.ZodType>; catchall?: unknown; checks?: readonly unknown[] };
  if (def.type !== 'object' || def.catchall !== undefined || (def.checks ?? []).length > 0) return null;
  const fields: (readonly [string, ValueTest])[] = [];
  for (const [key, field] of Object.entries(def.shape!)) {
    const test = valueTest(field);
    if (!test) return null;
    fields.push([key, test]);
  }
  return fields;
}

/**
 * The plain check of an object schema whose every field has a {@link valueTest}: given a row, the
 * record zod would give for it (its fields in the schema's order, other columns left out), or
 * undefined when some field fails, so that zod decides and says why. Null when the schema is not
 * such an object (then every row goes through zod).
 */
export function plainCheck(schema: z.ZodType): ((row: unknown) => Record<string, unknown> | undefined) | null {
  const fields = plainFields(schema);
  if (!fields) return null;
  return (row) => {
    if (typeof row !== 'object' || row === null) return undefined;
    const out: Record<string, unknown> = {};
    for (const [key, test] of fields) {
      const value = (row as Record<string, unknown>)[key];
      if (!test(value)) return undefined;
      out[key] = value;
    }
    return out;
  };
}

/**
 * The reader of a record read in raw mode (`rawStmt`): the row's values in the order of the
 * schema's fields, that is, selected with `columnList` of the schema's keys. Raw rows spare
 * better-sqlite3 naming every column of every row, which cold cost matching a third of its row read
 * (docs/performance-log.md#session-11-matchings-p99). A schema without a plain check is not read
 * this way.
 */
export function columnsReader<S extends z.ZodObject>(schema: S, name: (row: Record<string, unknown>) => string): (values: readonly unknown[] | undefined) => z.output<S> {
  const fields = plainFields(schema);
  if (!fields) throw new Error('columnsReader: the schema has a field the plain check does not know; read its rows with rowReader');
  const slow = rowReader(schema, name);
  return (values) => {
    if (!Array.isArray(values)) return slow(values); // no row at all: zod says so, in the reader's one line
    const out: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const [key, test] = fields[i]!;
      const value = values[i];
      if (!test(value)) return slow(Object.fromEntries(fields.map(([field], k) => [field, values[k]])));
      out[key] = value;
    }
    return out as z.output<S>;
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
