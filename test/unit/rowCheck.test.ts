/**
 * The plain row check (electron/node/store/rowCheck.ts) is made from a record's schema and stands
 * in for zod on the rows it passes: it must accept exactly the rows zod accepts and give the very
 * record zod gives, or a damaged ledger row could slip past the check (or a good one be refused)
 * depending on which path read it.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HelpRequest, IMPACTS, LEARNING_STATES, Learning } from '../../shared/domain.js';
import { columnsReader, jsonColumn, plainCheck, rowReader } from '../../electron/node/store/rowCheck.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';

/** One of every kind the plain check knows, nullable ones included. */
const EveryKind = z.object({
  s: z.string(),
  n: z.number(),
  i: z.number().int(),
  e: z.enum(['a', 'b']),
  ns: z.string().nullable(),
  ni: z.number().int().nullable(),
  ne: z.enum(['a', 'b']).nullable(),
});

/** Values a damaged row could hold in any column, next to the good ones. */
const ODD_VALUES: unknown[] = [
  '',
  'a',
  'b',
  'A',
  'a ',
  ...IMPACTS,
  ...LEARNING_STATES,
  'Low',
  0,
  -0,
  1,
  -7,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  2 ** 53 - 1,
  2 ** 53,
  -(2 ** 53 - 1),
  -(2 ** 53),
  1n,
  null,
  undefined,
  true,
  {},
  [],
  Buffer.from('x'),
];

/** A row for `schema`: each field a good value or an odd one, now and then missing, with a stray column now and then. */
function randomRow(random: () => number, schema: z.ZodObject, good: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape)) {
    const r = random();
    if (r < 0.03) continue;
    row[key] = r < 0.85 ? good[key] : ODD_VALUES[Math.floor(random() * ODD_VALUES.length)];
  }
  if (random() < 0.2) row.stray = 'column';
  return row;
}

const GOOD_LEARNING = {
  id: 'lrn_1',
  agent: 'builder',
  text: 'use rg',
  impact: 'low',
  state: 'provisional',
  proposals: 1,
  rediscoveries: 0,
  echoes: 0,
  runs_left: 3,
  first_at: '2026-12-01T00:00:00.000Z',
  last_at: '2026-12-01T00:00:00.000Z',
  live_since: null,
  lapsed_at: null,
  decided_by: null,
  decided_at: null,
  reason: null,
};

const GOOD_EVERY_KIND = { s: 'x', n: 0.5, i: 3, e: 'a', ns: null, ni: 4, ne: 'b' };

describe('the plain row check made from a schema', () => {
  it('accepts exactly the rows zod accepts and gives the record zod gives, fields in the schema’s order', () => {
    const random = seededRandom(9);
    for (const [schema, good] of [
      [Learning, GOOD_LEARNING],
      [EveryKind, GOOD_EVERY_KIND],
    ] as const) {
      const plain = plainCheck(schema)!;
      expect(plain).not.toBeNull();
      let accepted = 0;
      for (let n = 0; n < 5000; n++) {
        const row = randomRow(random, schema, good);
        const byZod = schema.safeParse(row);
        const byPlain = plain(row);
        expect(byPlain !== undefined, JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).toBe(byZod.success);
        if (byZod.success) {
          accepted++;
          expect(byPlain).toEqual(byZod.data);
          expect(Object.keys(byPlain!)).toEqual(Object.keys(byZod.data));
        }
      }
      // Both answers occur often enough for the comparison to mean something.
      expect(accepted).toBeGreaterThan(200);
      expect(accepted).toBeLessThan(4800);
    }
  });

  it('leaves every schema it does not fully understand to zod', () => {
    expect(plainCheck(z.object({ s: z.string().min(1) }))).toBeNull();
    expect(plainCheck(z.object({ n: z.number().positive() }))).toBeNull();
    expect(plainCheck(z.object({ s: z.coerce.string() }))).toBeNull();
    expect(plainCheck(z.object({ j: jsonColumn(z.object({ a: z.boolean() })) }))).toBeNull();
    expect(plainCheck(z.object({ s: z.string() }).strict())).toBeNull();
    expect(plainCheck(z.object({ s: z.string() }).refine((r) => r.s !== ''))).toBeNull();
    expect(plainCheck(z.object({ b: z.boolean() }))).toBeNull();
    expect(plainCheck(z.string())).toBeNull();
    // The ledger's records: the learning is plain; a help request's flags are a JSON column.
    expect(plainCheck(Learning)).not.toBeNull();
    expect(plainCheck(HelpRequest.extend({ flags_changed: jsonColumn(z.object({})).nullable() }))).toBeNull();
  });

  it('a row the plain check refuses still fails with zod’s one line naming the record and the field', () => {
    const read = rowReader(Learning, (row) => `learning ${String(row.id)}`);
    expect(read({ ...GOOD_LEARNING })).toEqual(GOOD_LEARNING);
    expect(() => read({ ...GOOD_LEARNING, runs_left: 1.5 })).toThrow(/^the ledger's learning lrn_1 does not check out: runs_left: [^\n]+$/);
  });

  it('a row read as values in the schema’s order gives the record, or the error, the same row read by name gives', () => {
    const random = seededRandom(10);
    const name = (row: Record<string, unknown>): string => `learning ${String(row.id)}`;
    const byName = rowReader(Learning, name);
    const byColumns = columnsReader(Learning, name);
    const answer = (read: () => unknown): unknown => {
      try {
        return { record: read() };
      } catch (error) {
        return { error: (error as Error).message };
      }
    };
    for (let n = 0; n < 3000; n++) {
      const row = randomRow(random, Learning, GOOD_LEARNING);
      const values = Object.keys(Learning.shape).map((key) => row[key]);
      expect(answer(() => byColumns(values))).toEqual(answer(() => byName(row)));
    }
    expect(() => byColumns(undefined)).toThrow(/^the ledger's row does not check out: [^\n]+$/);
    expect(() => columnsReader(z.object({ j: jsonColumn(z.object({})) }), name)).toThrow(/plain check/);
  });
});
