/**
 * One line of a factory's events file, checked.
 *
 * The events files are written by the factory: the Tower and the agents it runs. An agent is a
 * model reading untrusted input, so nothing in a line is believed because of where it came from.
 * Each line is checked on its own and either becomes a typed event or is refused with a reason a
 * person can act on; ingestion records the refusal and reads on, so one bad line never hides the
 * lines after it. The CLI's agent commands check with the same function before they append, so an
 * agent hears "refused" at once instead of the operator finding it later.
 *
 * The result is built from the fields each type names and nothing else. Newer writers may add
 * fields, and they are ignored rather than refused; but they are never copied, so an agent cannot
 * smuggle, say, its own idea of its flags into a help request through an extra field.
 */
import { HELP_CATEGORIES, IMPACTS, RUN_OUTCOMES, type Impact } from '../../shared/domain.js';
import { daysIn, isStoredTime } from './time.js';

export { HELP_CATEGORIES };

/**
 * The characters of an agent name: 1–64 of a-z, 0-9, `_` and `-`, starting with a letter or
 * digit. Agent names become file names (`learnings/<agent>.json`), so this is what keeps an agent
 * called `../x` from writing outside the factory, and what keeps names case-exact on every file
 * system.
 */
const AGENT_NAME_CHARACTERS = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * Names Windows keeps for devices: `con.json`, `nul.json`, `com1.json` cannot be files there,
 * whatever the extension, so an agent of that name would have a learnings file that cannot
 * exist when the factory sits on (or is copied to) a Windows machine.
 */
const WINDOWS_DEVICE_NAMES: ReadonlySet<string> = new Set([
  'con',
  'prn',
  'aux',
  'nul',
  ...Array.from({ length: 9 }, (_, i) => `com${i + 1}`),
  ...Array.from({ length: 9 }, (_, i) => `lpt${i + 1}`),
]);

/**
 * Why `name` cannot be an agent name ("is not a valid agent name: …", to follow the name), or
 * null when it can. The one rule every reader and writer of agent names asks.
 */
export function agentNameProblem(name: string): string | null {
  if (!AGENT_NAME_CHARACTERS.test(name)) {
    return 'is not a valid agent name: 1–64 of a-z, 0-9, _ and -, starting with a letter or digit, because agent names become file names';
  }
  if (WINDOWS_DEVICE_NAMES.has(name)) {
    return `is not a valid agent name: ${name} is a device name on Windows, where learnings/${name}.json cannot be a file`;
  }
  return null;
}

export function isAgentName(name: string): boolean {
  return agentNameProblem(name) === null;
}

/** The most one line may hold, in UTF-8 bytes: the factory writes each event with one append. */
export const MAX_LINE_BYTES = 64 * 1024;
/** The limit as messages name it. */
export const MAX_LINE_SIZE = `${MAX_LINE_BYTES / 1024} KiB`;

/** Longest identifier (run, chain, help request, workflow), in characters. */
export const MAX_ID_LENGTH = 200;

export const EVENT_TYPES = ['run.started', 'run.finished', 'learning.proposed', 'help.requested'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The impact of a proposal that does not say: the middle, so it neither jumps nor sinks the list. */
export const DEFAULT_IMPACT: Impact = 'medium';

export type FlagValue = string | number | boolean;

export type { FactoryEvent, HelpRequested, LearningProposed, RunFinished, RunStarted } from './eventSchemas.js';
import type { FactoryEvent, HelpRequested, LearningProposed, RunFinished, RunStarted } from './eventSchemas.js';

export type ParsedLine = { ok: true; event: FactoryEvent } | { ok: false; reason: string };

/** Thrown inside the parser to refuse the line; never escapes `parseEventLine`. */
class Refused extends Error {}

type Fields = Record<string, unknown>;

/**
 * Keys that would reach an object's prototype machinery if copied by assignment. JSON.parse makes
 * `__proto__` an ordinary own key, so it is harmless until somebody copies it; flags are the one
 * place keys are copied, so they are refused there.
 */
export const UNSAFE_FLAG_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * RFC 3339 date-time with a time zone. The parts are checked by hand because `Date` rolls
 * 2026-02-30 over into March instead of refusing it.
 */
const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

const CONTROL = /\p{Cc}/u;
const LONE_SURROGATE = /\p{Cs}/u;
/** One scan that clears a string of both checks below at once: nearly every string passes it. */
const MAY_HOLD_NUL_OR_SURROGATE = /[\u0000\ud800-\udfff]/;

/** A value as it may appear inside a reason: short and escaped (JSON), so it cannot forge a line. */
function quote(value: unknown): string {
  const shorten = (text: string): string => {
    const points = [...text];
    return points.length > 64 ? `${points.slice(0, 64).join('')}…` : text;
  };
  return typeof value === 'string' ? JSON.stringify(shorten(value)) : shorten(JSON.stringify(value) ?? String(value));
}

/**
 * UTF-8 length, stopping as soon as it passes `limit`. A lone surrogate counts as the three bytes
 * of the replacement character an encoder would write for it.
 */
function utf8LengthExceeds(text: string, limit: number): boolean {
  if (text.length > limit) return true; // every UTF-16 unit is at least one byte
  if (text.length * 3 <= limit) return false; // and at most three (a pair of them four)
  let bytes = 0;
  for (const char of text) {
    const point = char.codePointAt(0) ?? 0;
    bytes += point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    if (bytes > limit) return true;
  }
  return false;
}

function field(fields: Fields, key: string): unknown {
  return Object.hasOwn(fields, key) ? fields[key] : undefined;
}

/** An optional field: absent and `null` both mean "not given", as writers spell it either way. */
function optional(fields: Fields, key: string): unknown {
  const value = field(fields, key);
  return value === null ? undefined : value;
}

function string(fields: Fields, key: string): string {
  const value = field(fields, key);
  if (value === undefined) throw new Refused(`"${key}" is missing`);
  return checkedString(key, value);
}

/** Why a string cannot be the value of a field (after its key), or null: NUL, a lone surrogate. */
export function stringProblem(value: string): string | null {
  if (!MAY_HOLD_NUL_OR_SURROGATE.test(value)) return null;
  if (value.includes('\u0000')) return 'holds a NUL character';
  if (LONE_SURROGATE.test(value)) return 'holds a lone surrogate, which is not valid Unicode';
  return null;
}

function checkedString(key: string, value: unknown): string {
  if (typeof value !== 'string') throw new Refused(`"${key}" must be a string, not ${quote(value)}`);
  const problem = stringProblem(value);
  if (problem !== null) throw new Refused(`"${key}" ${problem}`);
  return value;
}

/** Why a string cannot be a run, chain, help request or workflow identifier, or null: short, non-empty, one line. */
export function identifierProblem(text: string): string | null {
  const problem = stringProblem(text);
  if (problem !== null) return problem;
  if (text.length === 0) return 'is empty';
  if (text.length > MAX_ID_LENGTH && [...text].length > MAX_ID_LENGTH) return `is longer than ${MAX_ID_LENGTH} characters`;
  if (CONTROL.test(text)) return 'holds a control character';
  return null;
}

function identifier(key: string, value: unknown): string {
  if (typeof value !== 'string') throw new Refused(`"${key}" must be a string, not ${quote(value)}`);
  const problem = identifierProblem(value);
  if (problem !== null) throw new Refused(`"${key}" ${problem}`);
  return value;
}

function requiredId(fields: Fields, key: string): string {
  const value = field(fields, key);
  if (value === undefined) throw new Refused(`"${key}" is missing`);
  return identifier(key, value);
}

function optionalId(fields: Fields, key: string): string | undefined {
  const value = optional(fields, key);
  return value === undefined ? undefined : identifier(key, value);
}

function agent(fields: Fields): string {
  const name = string(fields, 'agent');
  const problem = agentNameProblem(name);
  if (problem !== null) throw new Refused(`agent ${quote(name)} ${problem}`);
  return name;
}

/** Whether `at` is an RFC 3339 timestamp with a time zone and a real date (no 30 February). */
export function isRealTime(at: string): boolean {
  if (isStoredTime(at)) return true;
  const parts = RFC_3339.exec(at);
  if (parts === null) return false;
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = parts.slice(1).map((part) => Number(part ?? 0));
  return (
    month !== undefined && month >= 1 && month <= 12 &&
    day !== undefined && day >= 1 && day <= daysIn(year ?? 0, month) &&
    (hour ?? 0) <= 23 && (minute ?? 0) <= 59 && (second ?? 0) <= 59 &&
    (offsetHour ?? 0) <= 23 && (offsetMinute ?? 0) <= 59 &&
    !Number.isNaN(Date.parse(at.toUpperCase()))
  );
}

/** A real time (`isRealTime`) as an ISO string in UTC, as the ledger stores it. */
export function utcOfEventTime(at: string): string {
  return isStoredTime(at) ? at : new Date(Date.parse(at.toUpperCase())).toISOString();
}

/** Checks an RFC 3339 timestamp and gives it back as an ISO string in UTC. */
function atField(fields: Fields): string {
  const at = string(fields, 'at');
  if (isStoredTime(at)) return at; // nearly every line: one check, not three
  if (!isRealTime(at)) {
    throw new Refused(`"at" ${quote(at)} is not an RFC 3339 timestamp with a time zone, such as 2026-09-16T10:00:00Z`);
  }
  return utcOfEventTime(at);
}

/** A value from a fixed list; the refusal lists the whole list, so the next attempt is right. */
function oneOf<T extends string>(key: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  const choices = allowed.join(', ');
  throw new Refused(
    value === undefined ? `"${key}" is missing; it must be one of ${choices}` : `"${key}" ${quote(value)} is not one of ${choices}`,
  );
}

function boolean(fields: Fields, key: string): boolean {
  const value = field(fields, key);
  if (typeof value !== 'boolean') {
    throw new Refused(value === undefined ? `"${key}" is missing` : `"${key}" must be true or false, not ${quote(value)}`);
  }
  return value;
}

function strings(fields: Fields, key: string): string[] {
  const value = field(fields, key);
  if (!Array.isArray(value)) {
    throw new Refused(value === undefined ? `"${key}" is missing` : `"${key}" must be an array of strings`);
  }
  return value.map((item: unknown) => checkedString(`${key}[]`, item));
}

function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function flags(fields: Fields): Record<string, FlagValue> {
  const value = field(fields, 'flags');
  if (!isObject(value)) {
    throw new Refused(value === undefined ? '"flags" is missing' : '"flags" must be an object');
  }
  const result: Record<string, FlagValue> = {};
  for (const [name, flag] of Object.entries(value)) {
    if (UNSAFE_FLAG_KEYS.has(name)) throw new Refused(`"flags" may not have a key named ${name}`);
    checkedString('flags key', name);
    if (typeof flag === 'string') result[name] = checkedString(`flags.${name}`, flag);
    else if ((typeof flag === 'number' && Number.isFinite(flag)) || typeof flag === 'boolean') result[name] = flag;
    else throw new Refused(`flag ${quote(name)} must be a string, a finite number or a boolean`);
  }
  return result;
}

function runStarted(fields: Fields, at: string): RunStarted {
  const event: RunStarted = {
    type: 'run.started',
    at,
    run: requiredId(fields, 'run'),
    agent: agent(fields),
    chain: requiredId(fields, 'chain'),
    workflow: requiredId(fields, 'workflow'),
    flags: flags(fields),
    routes: strings(fields, 'routes'),
    learnings: strings(fields, 'learnings'),
  };
  const answers = optionalId(fields, 'answers');
  if (answers !== undefined) event.answers = answers;
  return event;
}

function runFinished(fields: Fields, at: string): RunFinished {
  return {
    type: 'run.finished',
    at,
    run: requiredId(fields, 'run'),
    agent: agent(fields),
    outcome: oneOf('outcome', field(fields, 'outcome'), RUN_OUTCOMES),
  };
}

/**
 * The text is only required to be a string here. Whether it may become a learning is the
 * screen's decision, made at ingestion, so that a refused proposal is still recorded with the
 * screen's reason rather than lost as a bad line.
 */
function learningProposed(fields: Fields, at: string): LearningProposed {
  const impact = optional(fields, 'impact');
  const event: LearningProposed = {
    type: 'learning.proposed',
    at,
    agent: agent(fields),
    text: string(fields, 'text'),
    impact: impact === undefined ? DEFAULT_IMPACT : oneOf('impact', impact, IMPACTS),
  };
  const run = optionalId(fields, 'run');
  if (run !== undefined) event.run = run;
  return event;
}

/**
 * No category is fine: an agent that asks without classifying has still asked, and refusing
 * would lose the one message meant for a person. A value that is not a category is refused and
 * never filed as `other`, where it would vanish from the filter the category exists for; the
 * reason lists all six so the agent's second attempt is right.
 */
function helpRequested(fields: Fields, at: string): HelpRequested {
  const event: HelpRequested = {
    type: 'help.requested',
    at,
    id: requiredId(fields, 'id'),
    agent: agent(fields),
    run: requiredId(fields, 'run'),
    chain: requiredId(fields, 'chain'),
    fatal: boolean(fields, 'fatal'),
    question: string(fields, 'question'),
  };
  if (event.question.trim().length === 0) throw new Refused('"question" is empty');
  const category = optional(fields, 'category');
  if (category !== undefined) event.category = oneOf('category', category, HELP_CATEGORIES);
  return event;
}

const PARSERS: Record<EventType, (fields: Fields, at: string) => FactoryEvent> = {
  'run.started': runStarted,
  'run.finished': runFinished,
  'learning.proposed': learningProposed,
  'help.requested': helpRequested,
};

function parse(line: string): FactoryEvent {
  if (line.includes('\u0000')) throw new Refused('the line holds a NUL byte');
  if (utf8LengthExceeds(line, MAX_LINE_BYTES)) throw new Refused(`the line is longer than ${MAX_LINE_SIZE}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    // Asked only here: a line JSON can read is not empty, and trimming every line cost a copy of it.
    if (line.trim().length === 0) throw new Refused('the line is empty');
    throw new Refused('the line is not valid JSON');
  }
  if (!isObject(parsed)) throw new Refused('the line is not a JSON object');

  const type = oneOf('type', field(parsed, 'type'), EVENT_TYPES);
  try {
    return PARSERS[type](parsed, atField(parsed));
  } catch (error) {
    if (error instanceof Refused) throw new Refused(`${type}: ${error.message}`);
    throw error;
  }
}

/** Checks one line of an events file (without its newline). Never throws. */
export function parseEventLine(line: string): ParsedLine {
  try {
    return { ok: true, event: parse(line) };
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * One event as one line of JSON, without the newline, for appending to an events file.
 *
 * Written from the fields each type names, in a fixed order, so what is appended is exactly what
 * `parseEventLine` reads back. U+2028 and U+2029 are escaped as well, since some line readers
 * treat them as line breaks and would cut the event in two.
 */
export function serializeEvent(event: FactoryEvent): string {
  let fields: Record<string, unknown>;
  switch (event.type) {
    case 'run.started':
      fields = {
        type: event.type, at: event.at, run: event.run, agent: event.agent, chain: event.chain,
        workflow: event.workflow, flags: event.flags, routes: event.routes, learnings: event.learnings,
        answers: event.answers,
      };
      break;
    case 'run.finished':
      fields = { type: event.type, at: event.at, run: event.run, agent: event.agent, outcome: event.outcome };
      break;
    case 'learning.proposed':
      fields = { type: event.type, at: event.at, agent: event.agent, text: event.text, impact: event.impact, run: event.run };
      break;
    case 'help.requested':
      fields = {
        type: event.type, at: event.at, id: event.id, agent: event.agent, run: event.run, chain: event.chain,
        fatal: event.fatal, question: event.question, category: event.category,
      };
      break;
  }
  return JSON.stringify(fields).replace(/\u2028/gu, '\\u2028').replace(/\u2029/gu, '\\u2029');
}
