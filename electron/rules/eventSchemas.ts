/**
 * The records of an events file, defined once, as zod schemas: what each event type holds, which
 * values each field takes, and what a checked event looks like (its TypeScript type is inferred
 * from here). The pieces each field is checked with (an identifier, an agent name, a time) are
 * the rules in `events.ts`, so the two readers cannot differ on what a value may be.
 *
 * Why ingest does not parse with these. `parseEventLine` (events.ts) is a hand-written reader of
 * the same records because it refuses a line with one sentence an agent can act on
 * ("run.started: "chain" is missing"), in the order a person would check, where zod reports
 * issues by path. Speed is not the reason: on the benchmark's lines zod took about 1.3× the hand
 * reader's time (some 5 µs a line against 3.6 on this machine), which ingest could afford.
 * `test/unit/eventSchemas.test.ts` holds the two together: on many generated and mutated lines
 * they take and refuse the same lines and give the same events.
 */
import { z } from 'zod';
import { HelpCategory, Impact, RunOutcome } from '../../shared/domain.js';
import {
  DEFAULT_IMPACT,
  UNSAFE_FLAG_KEYS,
  agentNameProblem,
  identifierProblem,
  isRealTime,
  stringProblem,
  utcOfEventTime,
} from './events.js';

/** A string as every field holds it: no NUL, no lone surrogate. */
const text = z.string().refine((value) => stringProblem(value) === null);
const identifier = z.string().refine((value) => identifierProblem(value) === null);
/** `null` and absent both mean "not given", as writers spell it either way. */
const optionalIdentifier = identifier.nullish().transform((value) => value ?? undefined).optional();
const agent = text.refine((name) => agentNameProblem(name) === null);
const at = text.refine(isRealTime).transform(utcOfEventTime);
const flagValue = z.union([text, z.number().refine(Number.isFinite), z.boolean()]);
/**
 * Keys are checked on the line as read, before zod copies the object: copying `__proto__` by
 * assignment would set a prototype rather than a key (see UNSAFE_FLAG_KEYS).
 */
const flags = z
  .custom<object>((value) => typeof value === 'object' && value !== null && !Array.isArray(value))
  .refine((value) => Object.keys(value).every((key) => !UNSAFE_FLAG_KEYS.has(key)))
  .pipe(z.record(text, flagValue));

export const RunStartedSchema = z.object({
  type: z.literal('run.started'),
  at,
  run: identifier,
  agent,
  chain: identifier,
  workflow: identifier,
  flags,
  routes: z.array(text),
  learnings: z.array(text),
  answers: optionalIdentifier,
});

export const RunFinishedSchema = z.object({
  type: z.literal('run.finished'),
  at,
  run: identifier,
  agent,
  outcome: RunOutcome,
});

/** The text is only a string here: whether it may become a learning is the screen's to say. */
export const LearningProposedSchema = z.object({
  type: z.literal('learning.proposed'),
  at,
  agent,
  text,
  impact: Impact.nullish().transform((value) => value ?? DEFAULT_IMPACT),
  run: optionalIdentifier,
});

export const HelpRequestedSchema = z.object({
  type: z.literal('help.requested'),
  at,
  id: identifier,
  agent,
  run: identifier,
  chain: identifier,
  fatal: z.boolean(),
  question: text.refine((question) => question.trim().length > 0),
  category: HelpCategory.nullish().transform((value) => value ?? undefined).optional(),
});

/** One checked line of an events file. */
export const FactoryEventSchema = z.discriminatedUnion('type', [
  RunStartedSchema,
  RunFinishedSchema,
  LearningProposedSchema,
  HelpRequestedSchema,
]);

export type RunStarted = z.output<typeof RunStartedSchema>;
export type RunFinished = z.output<typeof RunFinishedSchema>;
export type LearningProposed = z.output<typeof LearningProposedSchema>;
export type HelpRequested = z.output<typeof HelpRequestedSchema>;
export type FactoryEvent = z.output<typeof FactoryEventSchema>;
