/**
 * The ledger's rules (docs/rules.md#learnings), with no storage and no clock: every function takes the learnings
 * it is about and returns what they become, so the rules can be read and tested on their own and
 * the store only has to find the right rows and write the answers back.
 *
 * Why the rules are shaped this way:
 * - A learning applies at once and decays unless it proves itself, so nobody has to work off a
 *   queue. What proves it is an independent *rediscovery*: a proposal that arrives after the
 *   learning lapsed. A proposal while it is still being shown to the agent is an *echo*; the agent
 *   may just be repeating what it was told, so it is counted for the operator and nothing else.
 * - A person's "no" outranks every other match: a proposal matching a rejected learning is
 *   refused, otherwise the agent could bring a refused claim back by proposing it again.
 * - Runs are counted against a learning only when it was already live when the run started; a
 *   run that did not see a learning is no evidence against it.
 */
import { z } from 'zod';
import { DecisionKind, Learning as LearningSchema, type Impact, type Learning, type LearningState } from '../../shared/domain.js';
import { humanDay } from './time.js';
import { wilsonInterval, Z_95 } from './wilson.js';

/** The settings these rules read (a subset of `layover.toml`'s `[learnings]`). */
export interface LedgerSettings {
  provisional_runs: number;
  confirm_after: number;
  max_per_run: number;
}

/** A proposal that already passed the screen (its text trimmed). */
export interface ScreenedProposal {
  agent: string;
  text: string;
  impact: Impact;
  at: string;
  run: string | null;
}

/**
 * What happens to a proposal, given the agent's learnings that say the same thing.
 * `learning` is the learning after the change (absent for a refusal).
 */
export type ProposalDecision =
  | { outcome: 'refused'; learning_id: string; reason: string }
  | { outcome: 'echo'; learning: Learning; before: Learning }
  | { outcome: 'rediscovery' | 'confirmed'; learning: Learning; before: Learning }
  | { outcome: 'new'; learning: Learning };

/** The states given to runs (docs/rules.md#learnings): the one list, in code and, as `ACTIVE_SQL`, in the ledger's queries. */
export const ACTIVE_STATES = ['provisional', 'confirmed'] as const satisfies readonly LearningState[];
export type ActiveState = (typeof ACTIVE_STATES)[number];

export function isActive(state: LearningState): state is ActiveState {
  return (ACTIVE_STATES as readonly LearningState[]).includes(state);
}

/** Later `last_at` first, then the larger id, so "the most recent" has one answer. */
function mostRecent(a: Learning, b: Learning): number {
  if (a.last_at !== b.last_at) return a.last_at < b.last_at ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** A learning that never existed before: provisional, with a full count of runs. */
export function newLearning(id: string, proposal: ScreenedProposal, settings: LedgerSettings): Learning {
  return {
    id,
    agent: proposal.agent,
    text: proposal.text,
    impact: proposal.impact,
    state: 'provisional',
    proposals: 1,
    rediscoveries: 0,
    echoes: 0,
    runs_left: settings.provisional_runs,
    first_at: proposal.at,
    last_at: proposal.at,
    live_since: proposal.at,
    lapsed_at: null,
    decided_by: null,
    decided_at: null,
    reason: null,
  };
}

/**
 * Decides a screened proposal. `matches` are the agent's learnings that sameness says are the
 * same claim (any state); `newId` is called only when a new learning is made.
 */
export function decideProposal(
  proposal: ScreenedProposal,
  matches: readonly Learning[],
  settings: LedgerSettings,
  newId: () => string,
): ProposalDecision {
  const own = matches.filter((l) => l.agent === proposal.agent);

  const rejected = own.filter((l) => l.state === 'rejected').sort(mostRecent)[0];
  if (rejected) {
    return {
      outcome: 'refused',
      learning_id: rejected.id,
      reason: `rejected by ${rejected.decided_by ?? 'a person'} on ${humanDay(rejected.decided_at)}`,
    };
  }

  const active = own.filter((l) => isActive(l.state)).sort(mostRecent)[0];
  if (active) {
    return { outcome: 'echo', before: active, learning: { ...active, echoes: active.echoes + 1 } };
  }

  const lapsed = own.filter((l) => l.state === 'lapsed').sort(mostRecent)[0];
  if (lapsed) {
    const rediscoveries = lapsed.rediscoveries + 1;
    const confirmed = rediscoveries >= settings.confirm_after;
    const learning: Learning = {
      ...lapsed,
      proposals: lapsed.proposals + 1,
      rediscoveries,
      last_at: proposal.at,
      state: confirmed ? 'confirmed' : 'provisional',
      runs_left: confirmed ? lapsed.runs_left : settings.provisional_runs,
      live_since: proposal.at,
      lapsed_at: null,
    };
    return { outcome: confirmed ? 'confirmed' : 'rediscovery', before: lapsed, learning };
  }

  return { outcome: 'new', learning: newLearning(newId(), proposal, settings) };
}

/** A finished run, as run counting needs it. */
export interface FinishedRun {
  agent: string;
  started_at: string;
  finished_at: string;
}

/**
 * Whether a finished run counts against a learning: the learning is provisional, of the run's
 * agent, and was live before the run started (a run that never saw it is no evidence against it).
 */
export function runCounts(learning: Learning, run: FinishedRun): boolean {
  return learning.agent === run.agent && countsAgainst(learning.state, learning.live_since, run.started_at);
}

/**
 * The same rule for one agent's own run, from the learning's state and the time it became live:
 * also what a run's detail replays to show a learning as it stood then (rules/standing.ts).
 */
export function countsAgainst(state: LearningState, liveSince: string | null, runStartedAt: string): boolean {
  return state === 'provisional' && liveSince !== null && liveSince < runStartedAt;
}

/**
 * The finished runs that count against a learning before it lapses: its `runs_left`, but at least
 * one (a provisional learning left at zero lapses at the next run that counts).
 */
export function runsToLapse(learning: Learning): number {
  return Math.max(1, learning.runs_left);
}

/**
 * What finished runs do to one learning, taken in the order they finished from `runs[from]` on:
 * each run that counts ({@link runCounts}) takes one off `runs_left`, and the one that reaches
 * zero lapses it at that run's finish, after which no run counts. Returns null when no run counts,
 * else the learning after them and, when it lapsed, the index of the run that lapsed it.
 *
 * Counting many runs at once is what lets ingest count a finished run lazily (learningWrites.ts):
 * a learning is brought up to date only when it is read or could lapse, not once per run; the
 * answer is the one counting each run on its own gives (a property test checks it).
 */
export function countRuns(learning: Learning, runs: readonly FinishedRun[], from = 0): { learning: Learning; lapsedBy: number | null } | null {
  const need = runsToLapse(learning);
  let counted = 0;
  for (let i = from; i < runs.length; i++) {
    if (!runCounts(learning, runs[i]!)) continue;
    if (++counted === need) return { learning: { ...learning, runs_left: 0, state: 'lapsed', lapsed_at: runs[i]!.finished_at }, lapsedBy: i };
  }
  return counted === 0 ? null : { learning: { ...learning, runs_left: learning.runs_left - counted }, lapsedBy: null };
}

const IMPACT_RANK: Record<Impact, number> = { high: 0, medium: 1, low: 2 };
const STATE_RANK: Partial<Record<LearningState, number>> = { confirmed: 0, provisional: 1 };

/** The order runs are given learnings in: confirmed, then provisional; higher impact; newer. */
export function compareForRun(
  a: Pick<Learning, 'id' | 'state' | 'impact' | 'last_at'>,
  b: Pick<Learning, 'id' | 'state' | 'impact' | 'last_at'>,
): number {
  const byState = (STATE_RANK[a.state] ?? 9) - (STATE_RANK[b.state] ?? 9);
  if (byState !== 0) return byState;
  const byImpact = IMPACT_RANK[a.impact] - IMPACT_RANK[b.impact];
  if (byImpact !== 0) return byImpact;
  if (a.last_at !== b.last_at) return a.last_at < b.last_at ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The fields a person's decision overwrites, kept so that undo restores them exactly: a part of
 * the one `Learning` schema (shared/domain.ts), so a snapshot read back from the ledger is checked
 * as the learning's own fields are.
 */
export const DecisionSnapshot = LearningSchema.pick({
  state: true,
  runs_left: true,
  live_since: true,
  lapsed_at: true,
  decided_by: true,
  decided_at: true,
  reason: true,
});
export type DecisionSnapshot = z.infer<typeof DecisionSnapshot>;

/**
 * The fields of a {@link DecisionSnapshot}, in the order its JSON lists them. The ledger builds a
 * bulk decision's snapshots in SQL from this list (store/decisions.ts), so a field added to the
 * snapshot is restored by undo on both paths.
 */
export const SNAPSHOT_FIELDS = Object.keys(DecisionSnapshot.shape) as Array<keyof DecisionSnapshot>;

/** The snapshot of `l`: its fields the schema names, nothing else. */
export function snapshotOf(l: Learning): DecisionSnapshot {
  return DecisionSnapshot.parse(l);
}

/** Whether a snapshot read back from the ledger is one undo can restore. */
export function isDecisionSnapshot(value: unknown): value is DecisionSnapshot {
  return DecisionSnapshot.safeParse(value).success;
}

export interface Decision {
  by: string;
  at: string;
  reason?: string | null;
}

/**
 * What each decision does, as data, so the ledger can apply it to ten thousand learnings in one
 * statement (store/decisions.ts) and {@link decide} to one: the states it applies to, the state it
 * leaves, and whether it clears the lapse time. Both paths read this table, so they cannot drift.
 * Reject: any state but rejected. Keep: a provisional or lapsed learning becomes confirmed.
 */
export const DECISION_RULES: Readonly<Record<DecisionKind, { from: readonly LearningState[]; to: LearningState; clearsLapse: boolean }>> = {
  reject: { from: ['provisional', 'confirmed', 'lapsed'], to: 'rejected', clearsLapse: false },
  keep: { from: ['provisional', 'lapsed'], to: 'confirmed', clearsLapse: true },
};

/**
 * The decisions that would change a learning in `state` now, from {@link DECISION_RULES}: what the
 * Desk sends with a learning (its detail, a Worth a look entry), so the window offers exactly
 * those buttons and holds no copy of the table — a copy would offer Keep where the ledger refuses it.
 */
export function decisionsOn(state: LearningState): DecisionKind[] {
  return DecisionKind.options.filter((kind) => DECISION_RULES[kind].from.includes(state));
}

/**
 * The learning after a person's decision, or null when the decision does not apply to it: the
 * rule of {@link DECISION_RULES} on one learning. The ledger applies it to many at once in SQL
 * made from the same table (store/decisions.ts); this is the plain form that bulk statement is
 * held to (test/integration/bulkDecisions.store.test.ts).
 */
export function decide(kind: DecisionKind, l: Learning, d: Decision): Learning | null {
  const rule = DECISION_RULES[kind];
  if (!rule.from.includes(l.state)) return null;
  return { ...l, state: rule.to, ...(rule.clearsLapse ? { lapsed_at: null } : {}), decided_by: d.by, decided_at: d.at, reason: d.reason ?? null };
}

/** Undo a decision: the learning gets back exactly the fields the decision overwrote. */
export function undo(l: Learning, before: DecisionSnapshot): Learning {
  return { ...l, ...before };
}

/**
 * Wilson score lower bound of a success rate (95% by default). For display only: it keeps one
 * success out of one run from looking better than 50 out of 55. Zero runs → 0.
 */
export function wilsonLower(successes: number, runs: number, z = Z_95): number {
  return wilsonInterval(successes, runs, z).lower;
}
