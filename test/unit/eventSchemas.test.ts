import { describe, expect, it } from 'vitest';
import { parseEventLine } from '../../electron/rules/events.js';
import { FactoryEventSchema } from '../../electron/rules/eventSchemas.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';

type Random = () => number;
const pick = <T>(next: Random, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

/** A valid event of each type, with every optional field given or not. */
function validEvent(next: Random): Record<string, unknown> {
  const at = pick(next, ['2026-11-01T10:00:00Z', '2026-11-01T10:00:00.123Z', '2026-11-01t11:00:00+01:00', '2024-02-29T23:59:59.5-05:30']);
  const agent = pick(next, ['scout', 'builder-2', 'a_b', '9lives']);
  switch (pick(next, ['run.started', 'run.finished', 'learning.proposed', 'help.requested'])) {
    case 'run.started':
      return {
        type: 'run.started', at, run: 'r-1', agent, chain: 'c-1', workflow: 'release',
        flags: pick(next, [{}, { publish: true, attempts: 3, version: '1.10' }]),
        routes: pick(next, [[], ['github']]), learnings: pick(next, [[], ['lrn_1', 'lrn_2']]),
        ...(next() < 0.5 ? {} : { answers: pick(next, ['help-1', null]) }),
      };
    case 'run.finished':
      return { type: 'run.finished', at, run: 'r-1', agent, outcome: pick(next, ['succeeded', 'failed', 'stopped']) };
    case 'learning.proposed':
      return {
        type: 'learning.proposed', at, agent, text: pick(next, ['use node 20', '', '  spaced  ', 'Привет мир']),
        ...(next() < 0.5 ? {} : { impact: pick(next, ['low', 'high', null]) }),
        ...(next() < 0.5 ? {} : { run: pick(next, ['r-1', null]) }),
      };
    default:
      return {
        type: 'help.requested', at, id: 'help-1', agent, run: 'r-1', chain: 'c-1', fatal: next() < 0.5,
        question: 'Which token scope?',
        ...(next() < 0.5 ? {} : { category: pick(next, ['credentials', 'other', null]) }),
      };
  }
}

/** Values that break some field somewhere: wrong types, empty, too long, hidden characters, bad names and times. */
const HOSTILE: readonly unknown[] = [
  null, undefined, 0, 1.5, -1, true, false, '', ' ', 'x'.repeat(201), 'é'.repeat(200), 'a\u0000b', 'a\ud800b', 'a\u0007b', 'a\nb',
  [], ['x'], ['x', 3], {}, { a: 1 }, { a: [1] }, { a: null }, 'Scout', 'con', 'com1', '../x', '-x', 'a'.repeat(65),
  '2026-02-30T00:00:00Z', '2026-11-01', '2026-11-01T10:00:00', '2026-11-01T24:00:00Z', 'yesterday', 'medium', 'succeeded',
  'credentials', 'run.started', 'help.requested',
];
const FIELDS = ['type', 'at', 'run', 'agent', 'chain', 'workflow', 'flags', 'routes', 'learnings', 'answers', 'outcome', 'text', 'impact', 'id', 'fatal', 'question', 'category', 'extra'];

/** A line: a valid event, often with fields removed or set to hostile values, sometimes with raw JSON only text can carry. */
function line(next: Random): string {
  const event = validEvent(next);
  const changes = Math.floor(next() * 3);
  for (let i = 0; i < changes; i++) {
    const key = pick(next, FIELDS);
    if (next() < 0.3) delete event[key];
    else event[key] = pick(next, HOSTILE);
  }
  let text = JSON.stringify(event);
  if (event.type === 'run.started' && next() < 0.15) {
    const raw = pick(next, ['"__proto__":1', '"constructor":"x"', '"big":1e400']);
    text = text.includes('"flags":{}') ? text.replace('"flags":{}', `"flags":{${raw}}`) : text.replace('"flags":{', `"flags":{${raw},`);
  }
  return text;
}

describe('the event-line schemas (eventSchemas.ts) and the hand-written reader (events.ts)', () => {
  it('take and refuse the same lines, and read the same events from the lines they take', () => {
    const next = seededRandom(911);
    let taken = 0;
    for (let i = 0; i < 20_000; i++) {
      const text = line(next);
      const hand = parseEventLine(text);
      const schema = FactoryEventSchema.safeParse(JSON.parse(text));
      expect(hand.ok, `${text}\nhand: ${hand.ok ? 'taken' : hand.reason}\nschema: ${schema.success ? 'taken' : schema.error.message}`).toBe(schema.success);
      if (hand.ok && schema.success) {
        expect(hand.event, text).toEqual(schema.data);
        taken++;
      }
    }
    expect(taken).toBeGreaterThan(2_000);
    expect(taken).toBeLessThan(18_000);
  });
});
