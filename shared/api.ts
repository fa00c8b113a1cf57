/**
 * The one contract between the window and the Desk.
 *
 * Every call the UI can make is a channel here with a runtime schema for its input and its
 * output; every push the UI can subscribe to is an event here with a schema for its payload.
 * Two hosts implement it — the Electron preload bridge (IPC) and the browser host (HTTP +
 * server-sent events on 127.0.0.1) — and both validate every payload against these schemas on
 * the way in and out. A payload that does not fit is refused with a clear error, never passed
 * on: the renderer is the least trusted part of the app (it shows texts agents wrote).
 *
 * Runs anywhere: no Node, no Electron, no DOM.
 */
import { z } from 'zod';
import {
  Chain,
  DecisionKind,
  Flags,
  HelpRequest,
  HistoryEntry,
  Impact,
  Learning,
  LearningState,
  ProposalLogEntry,
  ProposalOutcome,
  RefusedLine,
  Run,
  RUN_OUTCOMES,
  SettingsShape,
  SweepReport,
  WatcherStatus,
} from './domain.js';

/** What the runs listing filters by outcome: a finished run's outcome, or `running` for one not finished. */
export const RunOutcomeFilter = z.enum([...RUN_OUTCOMES, 'running']);
export type RunOutcomeFilter = z.infer<typeof RunOutcomeFilter>;

/** Longest page a listing returns: the list is virtualized, so pages stay small. */
export const MAX_PAGE = 1000;
/** A person's name as typed into a form, and a reason for a decision. */
const PersonName = z.string().trim().min(1).max(200);
const Reason = z.string().max(2000);
const Id = z.string().min(1).max(200);
const Page = {
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(MAX_PAGE).default(100),
};

export const LEARNING_SORTS = [
  'last_at',
  'first_at',
  'impact',
  'runs_left',
  'rediscoveries',
  'echoes',
  'agent',
  'state',
] as const;

export const LearningFilter = z.object({
  agent: z.string().max(64).optional(),
  states: z.array(LearningState).optional(),
  impacts: z.array(Impact).optional(),
  /** Full-text search over the learning's text (FTS5 in the ledger). */
  search: z.string().max(400).optional(),
});
export type LearningFilter = z.infer<typeof LearningFilter>;

/**
 * Where learnings came from, for rejecting by origin (docs/rules.md#a-persons-decisions): the run
 * whose proposal discovered them, or any run of the chain. A learning only echoed or rediscovered
 * there is not of that origin: its discovery came from elsewhere.
 */
export const LearningOrigin = z.union([z.object({ run: Id }).strict(), z.object({ chain: Id }).strict()]);
export type LearningOrigin = z.infer<typeof LearningOrigin>;

/** Which learnings a bulk action applies to: named ones, all that match a filter, or all of one origin. */
export const LearningTarget = z.union([
  z.object({ ids: z.array(Id).min(1).max(100_000) }),
  z.object({ filter: LearningFilter }),
  z.object({ origin: LearningOrigin }),
]);
export type LearningTarget = z.infer<typeof LearningTarget>;

export const StateCounts = z.object({
  provisional: z.number().int(),
  confirmed: z.number().int(),
  lapsed: z.number().int(),
  rejected: z.number().int(),
});
export type StateCounts = z.infer<typeof StateCounts>;

/** Evidence about a learning for the operator's eye only: it never decides anything. */
export const RunEvidence = z.object({
  runs: z.number().int(),
  succeeded: z.number().int(),
  /** Wilson score lower bound (95%) of the success rate, so thin evidence is not over-read. */
  wilson_lower: z.number(),
});
export type RunEvidence = z.infer<typeof RunEvidence>;

/**
 * Whether a learning is in its agent's next run, and where (docs/window.md#learnings): its rank
 * in the run order and how many the run is given (`of`, at most the `max_per_run` cap), or its
 * rank below the cap, or that its state is not given to runs at all. Display only.
 */
export const NextRun = z.discriminatedUnion('place', [
  z.object({ place: z.literal('in_run'), rank: z.number().int().min(1), of: z.number().int().min(1), cap: z.number().int().min(0) }),
  z.object({ place: z.literal('below_cap'), rank: z.number().int().min(1), cap: z.number().int().min(0) }),
  z.object({ place: z.literal('not_given'), state: z.enum(['lapsed', 'rejected']) }),
]);
export type NextRun = z.infer<typeof NextRun>;


/**
 * A learning the evidence singles out for a person's eye (docs/rules.md#worth-a-look), with one
 * line per reason, and the fingerprint of the evidence a dismissal is remembered against.
 * Display only: the section never changes a learning.
 */
export const WorthEntry = z.object({
  learning: Learning,
  reasons: z.array(z.string()).min(1),
  fingerprint: z.string(),
  /** The decisions that would change its learning now (the ledger's rules decide which), as in a learning's detail. */
  decisions: z.array(DecisionKind),
});
export type WorthEntry = z.infer<typeof WorthEntry>;

export const LedgerProblem = z.object({
  file: z.string(),
  message: z.string(),
  newest_backup: z.string().nullable(),
});
export type LedgerProblem = z.infer<typeof LedgerProblem>;

/**
 * Where the Desk's full check of its ledger stands (docs/rules.md#retention-sweeps): not run yet (or it could not run,
 * e.g. the ledger was locked), running in the background, passed, or failed (then
 * `ledger_problem` says what is wrong and offers the restore, and nothing is written).
 */
export const LedgerCheckState = z.enum(['not_run', 'checking', 'passed', 'failed']);
export type LedgerCheckState = z.infer<typeof LedgerCheckState>;

export const DeskInfo = z.object({
  version: z.string(),
  host: z.enum(['electron', 'browser']),
  factory: z.string(),
  factory_error: z.string().nullable(),
  ledger_problem: LedgerProblem.nullable(),
  ledger_check: LedgerCheckState,
  os_user: z.string(),
  settings: SettingsShape,
  settings_error: z.string().nullable(),
  settings_warnings: z.array(z.string()),
  watcher: WatcherStatus,
  last_sweep: SweepReport.nullable(),
});
export type DeskInfo = z.infer<typeof DeskInfo>;

export const DayStats = z.object({
  day: z.string(),
  proposals: z.number().int(),
  lapses: z.number().int(),
  help_requests: z.number().int(),
});
export type DayStats = z.infer<typeof DayStats>;

/** Refused proposals that one rule refused: the screen's rule, or `rejected_learning`. */
export const RefusalGroup = z.object({
  rule: z.string(),
  count: z.number().int(),
  last_at: z.string(),
});
export type RefusalGroup = z.infer<typeof RefusalGroup>;

/** An events file refused as a whole: cut or rewritten since the Desk read it (docs/factory-format.md#reading-events). */
export const RefusedFile = z.object({
  file: z.string(),
  reason: z.string(),
});
export type RefusedFile = z.infer<typeof RefusedFile>;

export const LearningRef = z.object({
  id: z.string(),
  text: z.string(),
  state: LearningState,
  impact: Impact,
});
export type LearningRef = z.infer<typeof LearningRef>;

/**
 * A learning a run was given, as it stood when the run started (docs/window.md#runs): its state
 * and runs left then, replayed from its history (null when the ledger has no history of it from
 * before the start), and its state now beside it.
 */
export const GivenLearning = z.object({
  id: z.string(),
  text: z.string(),
  impact: Impact,
  state: LearningState.nullable(),
  runs_left: z.number().int().nullable(),
  now: LearningState,
});
export type GivenLearning = z.infer<typeof GivenLearning>;

/** A proposal a run made, with what became of the learning it was about since (null: none, or gone). */
export const RunProposal = ProposalLogEntry.extend({ now: LearningState.nullable() });
export type RunProposal = z.infer<typeof RunProposal>;

function call<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}

/** Every request/response channel. Names are `area.verb`; both hosts route by this name. */
export const CALLS = {
  'desk.info': call(z.object({}), DeskInfo),
  /** Switch to another factory; without a path the Electron host asks with a folder dialog. */
  /**
   * Opens the factory at `path` (or the folder the operator chooses, in Electron). A folder that
   * is not a factory yet is answered `needs_confirmation` and opened only when called again with
   * `create: true` (without `path`: the folder just chosen), so a mistyped path or a stray click
   * does not turn some folder into a factory.
   */
  'factory.open': call(z.object({ path: z.string().min(1).max(4096).optional(), create: z.boolean().optional() }), DeskInfo),
  'learnings.query': call(
    z.object({
      filter: LearningFilter.default({}),
      sort: z.enum(LEARNING_SORTS).default('last_at'),
      dir: z.enum(['asc', 'desc']).default('desc'),
      ...Page,
    }),
    z.object({
      total: z.number().int(),
      rows: z.array(Learning),
      /** Counts per state under the filter's other conditions, for the filter chips. */
      counts: StateCounts,
      agents: z.array(z.string()),
    }),
  ),
  'learnings.detail': call(
    z.object({ id: Id }),
    z.object({
      learning: Learning,
      history: z.array(HistoryEntry),
      given: RunEvidence,
      agent_overall: RunEvidence,
      runs: z.array(Run),
      next_run: NextRun,
      /** The decisions that would change this learning now (the ledger's rules decide which). */
      decisions: z.array(DecisionKind),
    }),
  ),
  /** The learnings an origin names (docs/rules.md#a-persons-decisions): what rejecting by origin lists before it asks. */
  'learnings.origin': call(z.object({ origin: LearningOrigin }), z.object({ learnings: z.array(LearningRef) })),
  'learnings.reject': call(
    z.object({ target: LearningTarget, by: PersonName, reason: Reason.optional() }),
    z.object({ changed: z.array(z.string()) }),
  ),
  'learnings.keep': call(
    z.object({ target: LearningTarget, by: PersonName }),
    z.object({ changed: z.array(z.string()) }),
  ),
  /** Undo the last rejection or keep of each learning named. */
  'learnings.undo': call(
    z.object({ ids: z.array(Id).min(1).max(100_000), by: PersonName }),
    z.object({ changed: z.array(z.string()) }),
  ),
  /** The "Worth a look" section of Needs you: the first entries (most reasons first) and how many there are. */
  'learnings.worthALook': call(z.object({}), z.object({ total: z.number().int(), entries: z.array(WorthEntry) })),
  /** Leaves a learning out of "Worth a look" until its evidence no longer has this fingerprint. */
  'learnings.dismissWorth': call(
    z.object({ id: Id, fingerprint: z.string().min(1).max(200), by: PersonName }),
    z.object({ id: z.string() }),
  ),
  'help.list': call(
    z.object({
      open: z.boolean().optional(),
      agent: z.string().max(64).optional(),
      ...Page,
    }),
    z.object({ total: z.number().int(), rows: z.array(HelpRequest) }),
  ),
  'help.detail': call(
    z.object({ id: Id }),
    z.object({
      request: HelpRequest,
      chain: Chain.nullable(),
      runs: z.array(Run),
      continued: Chain.nullable(),
    }),
  ),
  'help.reply': call(
    z.object({
      id: Id,
      answer: z.string().max(20_000),
      by: z.string().max(200).optional(),
      workflow: z.string().max(200).optional(),
      flags: Flags.optional(),
      /** Changes to inherited flags, made on purpose (docs/rules.md#help-requests-and-replies); refused together with `flags`. */
      set_flags: Flags.optional(),
      routes: z.array(z.string().max(200)).max(100).optional(),
    }),
    HelpRequest,
  ),
  'help.resolve': call(z.object({ id: Id, by: z.string().max(200).optional() }), HelpRequest),
  'runs.list': call(
    z.object({
      agent: z.string().max(64).optional(),
      chain: z.string().max(200).optional(),
      workflow: z.string().max(200).optional(),
      outcome: RunOutcomeFilter.optional(),
      /** A run, chain or help request id, or its first characters. */
      search: z.string().max(200).optional(),
      ...Page,
    }),
    z.object({ total: z.number().int(), rows: z.array(Run) }),
  ),
  /**
   * Every workflow a run has, for the runs filter's choices: a call of its own, asked once when the
   * view opens and after the ledger changes, as it does not depend on the page or filter shown.
   */
  'runs.workflows': call(z.object({}), z.object({ workflows: z.array(z.string()) })),
  'runs.detail': call(
    z.object({ run: Id }),
    z.object({
      run: Run,
      given: z.array(GivenLearning),
      /** Its proposals, in the order it made them. */
      proposed: z.array(RunProposal),
      /** The help requests it filed. */
      asked: z.array(HelpRequest),
      previous: z.string().nullable(),
      added: z.array(z.string()),
      removed: z.array(z.string()),
    }),
  ),
  'chains.list': call(
    z.object({
      agent: z.string().max(64).optional(),
      /** A chain id or a help request id (its chain, and the chain its reply started), or their first characters. */
      search: z.string().max(200).optional(),
      ...Page,
    }),
    z.object({ total: z.number().int(), rows: z.array(Chain) }),
  ),
  'activity.proposals': call(
    z.object({ outcome: ProposalOutcome.optional(), agent: z.string().max(64).optional(), ...Page }),
    z.object({ total: z.number().int(), rows: z.array(ProposalLogEntry) }),
  ),
  'activity.refused': call(
    z.object({ ...Page }),
    z.object({ total: z.number().int(), rows: z.array(RefusedLine) }),
  ),
  'activity.sweeps': call(z.object({ ...Page }), z.object({ rows: z.array(SweepReport) })),
  'activity.refusalsByRule': call(z.object({}), z.array(RefusalGroup)),
  'activity.refusedFiles': call(z.object({}), z.array(RefusedFile)),
  /** Reads an events file again from its first line; what the ledger holds of it is not applied twice. */
  'events.reread': call(z.object({ file: z.string().regex(/^[^/\\]{1,100}\.jsonl$/) }), z.object({ file: z.string() })),
  'stats.daily': call(z.object({ days: z.number().int().min(1).max(366).default(30) }), z.array(DayStats)),
  'ledger.restore': call(z.object({ backup: z.string().min(1).max(300) }), DeskInfo),
} as const;

export type Channel = keyof typeof CALLS;
export const CHANNELS = Object.keys(CALLS) as Channel[];
export type CallInput<C extends Channel> = z.input<(typeof CALLS)[C]['input']>;
export type CallArgs<C extends Channel> = z.output<(typeof CALLS)[C]['input']>;
export type CallOutput<C extends Channel> = z.output<(typeof CALLS)[C]['output']>;

/** Everything the main process pushes to the window without being asked. */
export const PUSHES = {
  /** The ledger changed (ingest, a decision, a sweep): listings should be re-queried. */
  'ledger.changed': z.object({ reason: z.string() }),
  /** A new fatal help request arrived: the "Needs you" view and a notification. */
  'help.fatal': HelpRequest,
  'watcher.status': WatcherStatus,
  /** Settings, factory or ledger health changed: re-read `desk.info`. */
  'desk.changed': DeskInfo,
} as const;

export type PushName = keyof typeof PUSHES;
export const PUSH_NAMES = Object.keys(PUSHES) as PushName[];
export type PushPayload<P extends PushName> = z.output<(typeof PUSHES)[P]>;

export const API_ERROR_CODES = ['bad_input', 'refused', 'not_found', 'unavailable', 'failure', 'needs_confirmation'] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * How a failed call reaches the window. `refused` is a rule saying no (already answered,
 * flags not stated); `bad_input` a payload that does not fit the contract; `failure` a bug or
 * an I/O problem; `needs_confirmation` a step the operator must confirm first (the message says
 * what; the call is repeated with the confirmation). The message is written for the operator.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The envelope every host returns, so an error crosses IPC/HTTP with its code intact. */
export const Envelope = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.enum(API_ERROR_CODES), message: z.string() }) }),
]);
export type Envelope = z.infer<typeof Envelope>;

/** What the renderer holds: one typed door, whichever host is behind it. */
export interface DeskApi {
  call<C extends Channel>(channel: C, input: CallInput<C>): Promise<CallOutput<C>>;
  on<P extends PushName>(name: P, listener: (payload: PushPayload<P>) => void): () => void;
  /**
   * Called each time a door whose pushes come over a connection (the browser host's event
   * stream) has (re)connected. A push the host sent while it was not connected is not sent again,
   * so whoever shows the Desk's state reads it afresh then: the window's first read could answer
   * before a push it then missed (the status bar stayed at "starting"). The Electron door has no
   * such gap and has none.
   */
  onConnected?(listener: () => void): () => void;
}

/** The main-process side: one handler per channel, receiving already-validated input. */
export type Handlers = { [C in Channel]: (input: CallArgs<C>) => Promise<CallOutput<C>> | CallOutput<C> };

function describe(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(payload)'}: ${issue.message}`)
    .join('; ');
}

/** Validates a call's input; throws `ApiError('bad_input')` naming the fields that do not fit. */
export function parseInput<C extends Channel>(channel: C, input: unknown): CallArgs<C> {
  const result = CALLS[channel].input.safeParse(input);
  if (!result.success) throw new ApiError('bad_input', `${channel}: ${describe(result.error)}`);
  return result.data as CallArgs<C>;
}

/** Validates a call's output, so a host never passes on something the contract does not allow. */
export function parseOutput<C extends Channel>(channel: C, output: unknown): CallOutput<C> {
  const result = CALLS[channel].output.safeParse(output);
  if (!result.success) throw new ApiError('failure', `${channel} returned an invalid result: ${describe(result.error)}`);
  return result.data as CallOutput<C>;
}

export function parsePush<P extends PushName>(name: P, payload: unknown): PushPayload<P> {
  const result = PUSHES[name].safeParse(payload);
  if (!result.success) throw new ApiError('failure', `push ${name}: ${describe(result.error)}`);
  return result.data as PushPayload<P>;
}

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(CALLS, name);
}

export function isPushName(name: unknown): name is PushName {
  return typeof name === 'string' && Object.hasOwn(PUSHES, name);
}

/**
 * Runs one call against the handlers with validation on both sides and wraps the result in an
 * envelope. Both hosts (IPC and HTTP) go through here, so they cannot drift apart.
 */
export async function dispatch(handlers: Handlers, channel: unknown, input: unknown): Promise<Envelope> {
  try {
    if (!isChannel(channel)) throw new ApiError('bad_input', `unknown channel ${JSON.stringify(channel)}`);
    const args = parseInput(channel, input);
    const handler = handlers[channel] as (input: unknown) => unknown;
    const value = parseOutput(channel, await handler(args));
    return { ok: true, value };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error: { code: error.code, message: error.message } };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { code: 'failure', message } };
  }
}

/** The renderer's side of `dispatch`: unwraps an envelope into a value or an `ApiError`. */
export function unwrap<C extends Channel>(channel: C, envelope: unknown): CallOutput<C> {
  const parsed = Envelope.safeParse(envelope);
  if (!parsed.success) throw new ApiError('failure', `${channel}: the host sent a malformed reply`);
  if (!parsed.data.ok) throw new ApiError(parsed.data.error.code, parsed.data.error.message);
  return parseOutput(channel, parsed.data.value);
}
