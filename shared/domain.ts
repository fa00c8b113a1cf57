/**
 * The Desk's domain records, as both sides of the API see them.
 *
 * Each record is a zod schema first and a TypeScript type second (`z.infer`), so the same
 * definition validates a payload at runtime (main process, browser host, renderer) and types it
 * at compile time. Field names follow docs/rules.md exactly: the CLI prints them as they are under
 * `--json`, and the operator's scripts read them.
 *
 * This file runs anywhere: it imports nothing from Node, Electron or the DOM.
 */
import { z } from 'zod';

export const LEARNING_STATES = ['provisional', 'confirmed', 'lapsed', 'rejected'] as const;
export const LearningState = z.enum(LEARNING_STATES);
export type LearningState = z.infer<typeof LearningState>;

/** The agent's own rating of a learning: for display and sorting, never for a decision. */
export const IMPACTS = ['low', 'medium', 'high'] as const;
export const Impact = z.enum(IMPACTS);
export type Impact = z.infer<typeof Impact>;

export const HELP_CATEGORIES = [
  'access',
  'clarification',
  'decision',
  'environment',
  'external',
  'other',
] as const;
export const HelpCategory = z.enum(HELP_CATEGORIES);
export type HelpCategory = z.infer<typeof HelpCategory>;

/** A person's decisions on learnings (docs/rules.md#a-persons-decisions); undo is their taking back. */
export const DecisionKind = z.enum(['reject', 'keep']);
export type DecisionKind = z.infer<typeof DecisionKind>;

export const RUN_OUTCOMES = ['succeeded', 'failed', 'stopped'] as const;
export const RunOutcome = z.enum(RUN_OUTCOMES);
export type RunOutcome = z.infer<typeof RunOutcome>;

/** Flag values a run may carry: what the Tower allowed the work to do (e.g. `publish: true`). */
export const FlagValue = z.union([z.string(), z.number(), z.boolean()]);
export const Flags = z.record(z.string(), FlagValue);
export type Flags = z.infer<typeof Flags>;
/**
 * The flags a reply changed on purpose (docs/rules.md#help-requests-and-replies): each changed key and the value the new chain
 * would have inherited, `null` when the key was not set, so the change can be seen and undone.
 */
export const FlagsChanged = z.record(z.string(), FlagValue.nullable());
export type FlagsChanged = z.infer<typeof FlagsChanged>;

const Time = z.string();
const NullableTime = Time.nullable();

export const Learning = z.object({
  id: z.string(),
  agent: z.string(),
  text: z.string(),
  impact: Impact,
  state: LearningState,
  proposals: z.number().int(),
  rediscoveries: z.number().int(),
  echoes: z.number().int(),
  runs_left: z.number().int(),
  first_at: Time,
  last_at: Time,
  live_since: NullableTime,
  lapsed_at: NullableTime,
  decided_by: z.string().nullable(),
  decided_at: NullableTime,
  reason: z.string().nullable(),
});
export type Learning = z.infer<typeof Learning>;

export const HISTORY_KINDS = [
  'proposed',
  'echoed',
  'lapsed',
  'rediscovered',
  'confirmed',
  'rejected',
  'kept',
  'undone',
] as const;
export const HistoryKind = z.enum(HISTORY_KINDS);
export type HistoryKind = z.infer<typeof HistoryKind>;

/** One line of a learning's history: what happened, when, and who did it when a person did. */
export const HistoryEntry = z.object({
  at: Time,
  kind: HistoryKind,
  by: z.string().nullable(),
  reason: z.string().nullable(),
  run: z.string().nullable(),
  state_before: LearningState.nullable(),
  state_after: LearningState,
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const PROPOSAL_OUTCOMES = ['new', 'echo', 'rediscovery', 'confirmed', 'refused'] as const;
export const ProposalOutcome = z.enum(PROPOSAL_OUTCOMES);
export type ProposalOutcome = z.infer<typeof ProposalOutcome>;

/** Every proposal, whatever became of it, so echoes and refusals are visible to the operator. */
export const ProposalLogEntry = z.object({
  at: Time,
  agent: z.string(),
  run: z.string().nullable(),
  text: z.string(),
  impact: Impact,
  outcome: ProposalOutcome,
  learning_id: z.string().nullable(),
  reason: z.string().nullable(),
  /** How many proposals this entry stands for: the same refused proposal is listed once (listProposals). */
  count: z.number().int().min(1),
});
export type ProposalLogEntry = z.infer<typeof ProposalLogEntry>;

export const Run = z.object({
  run: z.string(),
  agent: z.string(),
  chain: z.string(),
  workflow: z.string(),
  flags: Flags,
  routes: z.array(z.string()),
  started_at: Time,
  finished_at: NullableTime,
  outcome: RunOutcome.nullable(),
  learnings: z.array(z.string()),
  answers: z.string().nullable(),
});
export type Run = z.infer<typeof Run>;

export const HELP_STATES = ['open', 'answered', 'resolved'] as const;
export const HelpState = z.enum(HELP_STATES);
export type HelpState = z.infer<typeof HelpState>;

/**
 * A help request. `workflow`, `flags` and `routes` are copied from the asking run's own
 * `run.started` record; they are null when that record is missing ("unknown flags").
 */
export const HelpRequest = z.object({
  id: z.string(),
  agent: z.string(),
  run: z.string(),
  chain: z.string(),
  fatal: z.boolean(),
  category: HelpCategory.nullable(),
  question: z.string(),
  at: Time,
  state: HelpState,
  workflow: z.string().nullable(),
  flags: Flags.nullable(),
  routes: z.array(z.string()).nullable(),
  awaiting_human: z.boolean(),
  answer: z.string().nullable(),
  responder: z.string().nullable(),
  answered_at: NullableTime,
  continued_as: z.string().nullable(),
  /** Set by a reply that changed inherited flags: the keys and their inherited values. */
  flags_changed: FlagsChanged.nullable(),
});
export type HelpRequest = z.infer<typeof HelpRequest>;

export const CHAIN_STATES = ['running', 'awaiting_human', 'finished'] as const;
export const ChainState = z.enum(CHAIN_STATES);
export type ChainState = z.infer<typeof ChainState>;

export const Chain = z.object({
  chain: z.string(),
  agent: z.string(),
  state: ChainState,
  /** The help request whose reply started this chain, if one did. */
  answers: z.string().nullable(),
  /** The chain a reply to one of this chain's requests started, if any. */
  continued_as: z.string().nullable(),
  workflow: z.string().nullable(),
  flags: Flags.nullable(),
  routes: z.array(z.string()).nullable(),
  created_at: Time,
  runs: z.number().int(),
});
export type Chain = z.infer<typeof Chain>;

/** A line of an events file that was not a valid event: kept so nothing is dropped silently. */
export const RefusedLine = z.object({
  file: z.string(),
  line: z.number().int(),
  reason: z.string(),
  excerpt: z.string(),
  seen_at: Time,
});
export type RefusedLine = z.infer<typeof RefusedLine>;

export const SweepReport = z.object({
  at: Time,
  help_requests: z.number().int(),
  runs: z.number().int(),
  proposals: z.number().int(),
  /** Refused event lines deleted with their day. Reports stored before it was counted read as 0. */
  refused_lines: z.number().int().default(0),
  event_files: z.number().int(),
  lapsed_learnings: z.number().int(),
  /** Chains left with no run and no request, older than the horizon. Earlier reports read as 0. */
  chains: z.number().int().default(0),
});
export type SweepReport = z.infer<typeof SweepReport>;

export const SettingsShape = z.object({
  learnings: z.object({
    provisional_runs: z.number().int(),
    confirm_after: z.number().int(),
    max_text: z.number().int(),
    max_per_run: z.number().int(),
    keep_lapsed_days: z.number().int(),
  }),
  retention: z.object({ days: z.number().int() }),
});
export type SettingsShape = z.infer<typeof SettingsShape>;

/** What the watcher is doing, for the status bar. */
export const WatcherStatus = z.object({
  state: z.enum(['starting', 'catching_up', 'watching', 'stopped', 'error']),
  /** Bytes of event files read so far during a catch-up, and how many there are in all. */
  done_bytes: z.number(),
  total_bytes: z.number(),
  last_event_at: NullableTime,
  error: z.string().nullable(),
  /** Whether events/ is watched by polling (network drives) rather than by file-system events. */
  polling: z.boolean(),
});
export type WatcherStatus = z.infer<typeof WatcherStatus>;
