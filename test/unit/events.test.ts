import { describe, expect, it } from 'vitest';
import {
  isAgentName,
  HELP_CATEGORIES,
  MAX_LINE_BYTES,
  parseEventLine,
  serializeEvent,
  type FactoryEvent,
} from '../../electron/rules/events.js';

const AT = '2026-09-16T10:00:00Z';

const RUN_STARTED = {
  type: 'run.started',
  at: AT,
  run: 'run_01',
  agent: 'reviewer',
  chain: 'chain_01',
  workflow: 'review',
  flags: { publish: true, budget: 3, branch: 'main' },
  routes: ['github'],
  learnings: ['lrn_01'],
};
const RUN_FINISHED = { type: 'run.finished', at: AT, run: 'run_01', agent: 'reviewer', outcome: 'succeeded' };
const LEARNING_PROPOSED = { type: 'learning.proposed', at: AT, agent: 'reviewer', text: 'prefer ripgrep', impact: 'high' };
const HELP_REQUESTED = {
  type: 'help.requested',
  at: AT,
  id: 'help_01',
  agent: 'reviewer',
  run: 'run_01',
  chain: 'chain_01',
  fatal: true,
  question: 'Which registry token should I use?',
};

function line(fields: Record<string, unknown>): string {
  return JSON.stringify(fields);
}

function accepted(text: string): FactoryEvent {
  const result = parseEventLine(text);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.event;
}

function refusal(text: string): string {
  const result = parseEventLine(text);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.event)}`);
  return result.reason;
}

describe('events: the four types are accepted', () => {
  it('a run.started line becomes a run.started event', () => {
    expect(accepted(line(RUN_STARTED))).toEqual({ ...RUN_STARTED, at: '2026-09-16T10:00:00.000Z' });
  });

  it('a run.started line may name the help request its chain answers', () => {
    expect(accepted(line({ ...RUN_STARTED, answers: 'help_01' }))).toMatchObject({ answers: 'help_01' });
  });

  it('a run.finished line becomes a run.finished event', () => {
    expect(accepted(line(RUN_FINISHED))).toEqual({ ...RUN_FINISHED, at: '2026-09-16T10:00:00.000Z' });
  });

  it('a learning.proposed line becomes a learning.proposed event, with its run when given', () => {
    expect(accepted(line({ ...LEARNING_PROPOSED, run: 'run_01' }))).toEqual({
      ...LEARNING_PROPOSED,
      at: '2026-09-16T10:00:00.000Z',
      run: 'run_01',
    });
  });

  it('a help.requested line becomes a help.requested event', () => {
    expect(accepted(line({ ...HELP_REQUESTED, category: 'access' }))).toEqual({
      ...HELP_REQUESTED,
      at: '2026-09-16T10:00:00.000Z',
      category: 'access',
    });
  });

  it('a line ending in a carriage return is still read', () => {
    expect(accepted(`${line(RUN_FINISHED)}\r`).type).toBe('run.finished');
  });
});

describe('events: the line itself', () => {
  it('a line that is not JSON is refused', () => {
    expect(refusal('{"type": "run.finished",')).toBe('the line is not valid JSON');
  });

  it('an empty line is refused', () => {
    expect(refusal('   ')).toBe('the line is empty');
  });

  it.each([
    ['an array', '[1, 2]'],
    ['null', 'null'],
    ['a string', '"run.finished"'],
    ['a number', '42'],
  ])('a line holding %s rather than an object is refused', (_name, text) => {
    expect(refusal(text)).toBe('the line is not a JSON object');
  });

  it('a line holding a NUL byte is refused', () => {
    expect(refusal(`${line(RUN_FINISHED)}\u0000`)).toContain('NUL byte');
  });

  it('a genuine U+FFFD in a text is accepted: bytes that were not UTF-8 are told apart where the line is decoded, not by the character', () => {
    expect(accepted(line({ ...LEARNING_PROPOSED, text: 'the log shows \uFFFD where the encoding broke' })).type).toBe('learning.proposed');
  });

  it('a line of exactly 64 KiB is read', () => {
    const base = line({ ...LEARNING_PROPOSED, text: '' });
    const text = line({ ...LEARNING_PROPOSED, text: 'x'.repeat(MAX_LINE_BYTES - base.length) });
    expect(new TextEncoder().encode(text).length).toBe(MAX_LINE_BYTES);
    expect(accepted(text).type).toBe('learning.proposed');
  });

  it('a line longer than 64 KiB in UTF-8 bytes is refused, even when it has fewer characters', () => {
    const base = line({ ...LEARNING_PROPOSED, text: '' });
    // Each é is two bytes in UTF-8 but one UTF-16 unit.
    const text = line({ ...LEARNING_PROPOSED, text: 'é'.repeat((MAX_LINE_BYTES - base.length) / 2 + 1) });
    expect(text.length).toBeLessThan(MAX_LINE_BYTES);
    expect(refusal(text)).toBe('the line is longer than 64 KiB');
  });
});

describe('events: type and time', () => {
  it('a line without a type is refused, and the reason lists the four types', () => {
    const { type: _type, ...rest } = RUN_FINISHED;
    expect(refusal(line(rest))).toBe(
      '"type" is missing; it must be one of run.started, run.finished, learning.proposed, help.requested',
    );
  });

  it('an unknown type is refused, and the reason lists the four types', () => {
    expect(refusal(line({ ...RUN_FINISHED, type: 'run.paused' }))).toBe(
      '"type" "run.paused" is not one of run.started, run.finished, learning.proposed, help.requested',
    );
  });

  it.each([
    ['2026-09-16T12:00:00+02:00', '2026-09-16T10:00:00.000Z'],
    ['2026-09-16T10:00:00.123456Z', '2026-09-16T10:00:00.123Z'],
    ['2026-09-16t10:00:00z', '2026-09-16T10:00:00.000Z'],
    ['2024-02-29T23:30:00-01:00', '2024-03-01T00:30:00.000Z'],
  ])('the timestamp %s is read as %s in UTC', (at, iso) => {
    expect(accepted(line({ ...RUN_FINISHED, at })).at).toBe(iso);
  });

  it.each([
    ['without a time zone', '2026-09-16T10:00:00'],
    ['with only a date', '2026-09-16'],
    ['on a day the month does not have', '2026-02-30T10:00:00Z'],
    ['in a month that does not exist', '2026-13-01T10:00:00Z'],
    ['at hour 24', '2026-09-16T24:00:00Z'],
    ['in another format', 'Wed, 16 Sep 2026 10:00:00 GMT'],
  ])('a timestamp %s is refused', (_name, at) => {
    expect(refusal(line({ ...RUN_FINISHED, at }))).toContain('is not an RFC 3339 timestamp with a time zone');
  });

  it('a timestamp given as a number is refused', () => {
    expect(refusal(line({ ...RUN_FINISHED, at: 1789552800000 }))).toBe(
      'run.finished: "at" must be a string, not 1789552800000',
    );
  });

  it('a missing timestamp is refused', () => {
    const { at: _at, ...rest } = RUN_FINISHED;
    expect(refusal(line(rest))).toBe('run.finished: "at" is missing');
  });
});

describe('events: agent names and identifiers', () => {
  it.each(['reviewer', 'a', '0day', 'release_bot-2', 'x'.repeat(64)])('the agent name %s is valid', (name) => {
    expect(isAgentName(name)).toBe(true);
    expect(accepted(line({ ...RUN_FINISHED, agent: name })).type).toBe('run.finished');
  });

  it('an agent name that climbs out of the factory is refused, saying agent names become file names', () => {
    const reason = refusal(line({ ...RUN_FINISHED, agent: '../x' }));
    expect(reason).toContain('agent "../x" is not a valid agent name');
    expect(reason).toContain('file names');
  });

  it.each([
    ['empty', ''],
    ['upper-case', 'Reviewer'],
    ['starting with a dash', '-x'],
    ['starting with an underscore', '_x'],
    ['with a slash', 'a/b'],
    ['with a dot', 'a.b'],
    ['with a space', 'a b'],
    ['65 characters long', 'x'.repeat(65)],
  ])('an agent name %s is refused', (_name, agent) => {
    expect(refusal(line({ ...RUN_FINISHED, agent }))).toContain('is not a valid agent name');
  });

  it.each(['con', 'prn', 'aux', 'nul', 'com1', 'com9', 'lpt1', 'lpt9'])(
    'the agent name %s is refused because it is a device name on Windows, where its learnings file cannot exist',
    (agent) => {
      expect(isAgentName(agent)).toBe(false);
      expect(refusal(line({ ...RUN_FINISHED, agent }))).toBe(
        `run.finished: agent "${agent}" is not a valid agent name: ${agent} is a device name on Windows, where learnings/${agent}.json cannot be a file`,
      );
    },
  );

  it.each(['console', 'con-1', 'com10', 'lpt0', 'nuldata'])('the agent name %s is not a device name and is valid', (agent) => {
    expect(isAgentName(agent)).toBe(true);
  });

  it('an agent name that is not a string is refused', () => {
    expect(refusal(line({ ...RUN_FINISHED, agent: 7 }))).toBe('run.finished: "agent" must be a string, not 7');
  });

  it('an empty run id is refused', () => {
    expect(refusal(line({ ...RUN_FINISHED, run: '' }))).toBe('run.finished: "run" is empty');
  });

  it('a run id longer than 200 characters is refused', () => {
    expect(refusal(line({ ...RUN_FINISHED, run: 'r'.repeat(201) }))).toBe(
      'run.finished: "run" is longer than 200 characters',
    );
    expect(accepted(line({ ...RUN_FINISHED, run: 'r'.repeat(200) })).type).toBe('run.finished');
  });

  it('an id holding a control character is refused', () => {
    expect(refusal(line({ ...HELP_REQUESTED, chain: 'chain\n01' }))).toBe(
      'help.requested: "chain" holds a control character',
    );
  });

  it('a missing chain is refused', () => {
    const { chain: _chain, ...rest } = RUN_STARTED;
    expect(refusal(line(rest))).toBe('run.started: "chain" is missing');
  });

  it('a string holding a lone surrogate is refused as not valid Unicode', () => {
    expect(refusal('{"type":"learning.proposed","at":"2026-09-16T10:00:00Z","agent":"a","text":"x\\ud800"}')).toContain(
      'lone surrogate',
    );
  });
});

describe('events: run.started fields', () => {
  it('flags must be an object', () => {
    expect(refusal(line({ ...RUN_STARTED, flags: ['publish'] }))).toBe('run.started: "flags" must be an object');
  });

  it('a flag that is neither string, number nor boolean is refused', () => {
    expect(refusal(line({ ...RUN_STARTED, flags: { publish: { really: true } } }))).toContain(
      'flag "publish" must be a string, a finite number or a boolean',
    );
    expect(refusal(line({ ...RUN_STARTED, flags: { publish: null } }))).toContain('flag "publish"');
  });

  it('a flag too large to be a finite number is refused', () => {
    expect(refusal(line(RUN_STARTED).replace('"budget":3', '"budget":1e400'))).toContain('flag "budget"');
  });

  it.each(['__proto__', 'constructor', 'prototype'])('a flag named %s is refused', (name) => {
    const text = line(RUN_STARTED).replace('"flags":{', `"flags":{"${name}":true,`);
    expect(refusal(text)).toBe(`run.started: "flags" may not have a key named ${name}`);
  });

  it('routes must be an array of strings', () => {
    expect(refusal(line({ ...RUN_STARTED, routes: 'github' }))).toBe('run.started: "routes" must be an array of strings');
    expect(refusal(line({ ...RUN_STARTED, routes: [1] }))).toContain('"routes[]" must be a string');
  });

  it('learnings must be an array of strings', () => {
    expect(refusal(line({ ...RUN_STARTED, learnings: [null] }))).toContain('"learnings[]" must be a string');
  });

  it('a missing workflow is refused', () => {
    const { workflow: _workflow, ...rest } = RUN_STARTED;
    expect(refusal(line(rest))).toBe('run.started: "workflow" is missing');
  });
});

describe('events: run.finished and learning.proposed fields', () => {
  it('an outcome other than succeeded, failed or stopped is refused, naming the three', () => {
    expect(refusal(line({ ...RUN_FINISHED, outcome: 'crashed' }))).toBe(
      'run.finished: "outcome" "crashed" is not one of succeeded, failed, stopped',
    );
  });

  it('a proposal without an impact is rated medium', () => {
    const { impact: _impact, ...rest } = LEARNING_PROPOSED;
    expect(accepted(line(rest))).toMatchObject({ impact: 'medium' });
    expect(accepted(line({ ...rest, impact: null }))).toMatchObject({ impact: 'medium' });
  });

  it('an impact other than low, medium or high is refused, naming the three', () => {
    expect(refusal(line({ ...LEARNING_PROPOSED, impact: 'critical' }))).toBe(
      'learning.proposed: "impact" "critical" is not one of low, medium, high',
    );
  });

  it('a proposal whose text is not a string is refused', () => {
    expect(refusal(line({ ...LEARNING_PROPOSED, text: ['a'] }))).toContain('"text" must be a string');
  });

  it('a proposal with empty text is accepted here, so the screen can refuse it with its own reason', () => {
    expect(accepted(line({ ...LEARNING_PROPOSED, text: '' }))).toMatchObject({ text: '' });
  });

  it('a proposal without a run has no run', () => {
    expect('run' in accepted(line(LEARNING_PROPOSED))).toBe(false);
  });
});

describe('events: help.requested fields', () => {
  it('a request without a category is accepted and its category stays unset, never other', () => {
    const event = accepted(line(HELP_REQUESTED));
    expect(event.type === 'help.requested' && event.category).toBe(undefined);
    expect('category' in event).toBe(false);
  });

  it('a request with a null category is read as one without a category', () => {
    expect('category' in accepted(line({ ...HELP_REQUESTED, category: null }))).toBe(false);
  });

  it.each(HELP_CATEGORIES)('the category %s is accepted', (category) => {
    expect(accepted(line({ ...HELP_REQUESTED, category }))).toMatchObject({ category });
  });

  it('an unknown category is refused, and the reason lists all six', () => {
    const reason = refusal(line({ ...HELP_REQUESTED, category: 'urgent' }));
    expect(reason).toBe(
      'help.requested: "category" "urgent" is not one of access, clarification, decision, environment, external, other',
    );
  });

  it('a category in the wrong case is refused, not guessed', () => {
    expect(refusal(line({ ...HELP_REQUESTED, category: 'Access' }))).toContain('is not one of access,');
  });

  it('fatal must be a boolean', () => {
    expect(refusal(line({ ...HELP_REQUESTED, fatal: 'yes' }))).toBe(
      'help.requested: "fatal" must be true or false, not "yes"',
    );
  });

  it('an empty question is refused', () => {
    expect(refusal(line({ ...HELP_REQUESTED, question: '  ' }))).toBe('help.requested: "question" is empty');
  });

  it('a missing id is refused', () => {
    const { id: _id, ...rest } = HELP_REQUESTED;
    expect(refusal(line(rest))).toBe('help.requested: "id" is missing');
  });
});

describe('events: fields a type does not name', () => {
  it('unknown fields are ignored and never copied into the event', () => {
    const event = accepted(line({ ...HELP_REQUESTED, flags: { publish: true }, workflow: 'evil', extra: 1 }));
    expect(Object.keys(event).sort()).toEqual(['agent', 'at', 'chain', 'fatal', 'id', 'question', 'run', 'type']);
  });

  it('a __proto__ key in the line is ignored and does not reach the event or its prototype', () => {
    const text = line(RUN_FINISHED).replace('{', '{"__proto__":{"polluted":true},');
    const event = accepted(text);
    expect(Object.keys(event)).not.toContain('__proto__');
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect((event as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a constructor key in the line is ignored like any other unknown field', () => {
    const event = accepted(line(RUN_FINISHED).replace('{', '{"constructor":1,'));
    expect(Object.hasOwn(event, 'constructor')).toBe(false);
    expect(event.constructor).toBe(Object);
  });
});

describe('events: serializing', () => {
  const events: FactoryEvent[] = [
    { ...(RUN_STARTED as Extract<FactoryEvent, { type: 'run.started' }>), at: '2026-09-16T10:00:00.000Z', answers: 'help_01' },
    { ...(RUN_FINISHED as Extract<FactoryEvent, { type: 'run.finished' }>), at: '2026-09-16T10:00:00.000Z' },
    { ...(LEARNING_PROPOSED as Extract<FactoryEvent, { type: 'learning.proposed' }>), at: '2026-09-16T10:00:00.000Z' },
    { ...(HELP_REQUESTED as Extract<FactoryEvent, { type: 'help.requested' }>), at: '2026-09-16T10:00:00.000Z', category: 'decision' },
  ];

  it.each(events.map((event) => [event.type, event] as const))('a serialized %s event reads back as itself', (_type, event) => {
    expect(accepted(serializeEvent(event))).toEqual(event);
  });

  it('a serialized event is one line, even when its text holds line breaks', () => {
    const text = serializeEvent({
      type: 'help.requested',
      at: '2026-09-16T10:00:00.000Z',
      id: 'h',
      agent: 'a',
      run: 'r',
      chain: 'c',
      fatal: false,
      question: 'first\nsecond\r\nthird\u2028fourth\u2029fifth',
    });
    expect(text).not.toMatch(/[\n\r\u2028\u2029]/u);
    expect(accepted(text)).toMatchObject({ question: 'first\nsecond\r\nthird\u2028fourth\u2029fifth' });
  });

  it('serializing copies only the fields the type names', () => {
    const event = { ...(RUN_FINISHED as Extract<FactoryEvent, { type: 'run.finished' }>), secret: 'x' };
    expect(serializeEvent(event)).not.toContain('secret');
  });

  it('an optional field left out is not written', () => {
    expect(serializeEvent(events[2] as FactoryEvent)).not.toContain('"run"');
  });
});
