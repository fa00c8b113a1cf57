/**
 * "Worth a look" (docs/rules.md#worth-a-look): which active learnings the evidence singles out
 * for a person's eye, and why, in one line each. Review by exception that does the pointing.
 *
 * Display only, never a decision: nothing here changes a learning. A learning is shown, and a
 * person rejects it, keeps it or dismisses it; the Desk does nothing by itself. The rules are
 * pure so that what singles a learning out can be tested at its boundaries without a ledger.
 *
 * Three kinds of evidence, each with its own rule:
 * - **failing**: the runs given the learning fail clearly more often than the agent's other runs;
 * - **echoes**: the agent keeps proposing again what it is already being told;
 * - **same chain**: a rediscovery came from the same chain as the learning's first proposal, so it
 *   is not the independent finding that rediscovery is meant to be (docs/rules.md#learnings).
 */
import { wilsonInterval } from './wilson.js';

/**
 * Least finished runs on each side (given the learning, not given it) before the failing rule
 * looks at all. Wilson intervals are already wide on small samples, but 3 failures out of 3 still
 * separate from 0 out of 50: one bad morning (a broken build, an outage) would then point at every
 * learning those three runs were given. Five on each side needs five failures in a row at the
 * least, which an outage of one run or two does not produce. Raising it hides real problems of
 * learnings that are given rarely; lowering it fills the section with bad luck.
 */
export const MIN_RUNS_EACH_SIDE = 5;

/** Finished runs and how many of them did not succeed (failed or stopped). */
export interface RunCounts {
  runs: number;
  failed: number;
}

/**
 * True when the runs given a learning fail clearly more often than the agent's other runs: both
 * sides have at least {@link MIN_RUNS_EACH_SIDE} finished runs and the 95% Wilson interval of the
 * failure rate given it lies wholly above the other runs' one (the intervals do not overlap). Not
 * a test of significance in the strict sense (non-overlap is stricter than one), and for display
 * only: it points, a person decides.
 */
export function failsMoreOften(given: RunCounts, other: RunCounts): boolean {
  if (given.runs < MIN_RUNS_EACH_SIDE || other.runs < MIN_RUNS_EACH_SIDE) return false;
  return wilsonInterval(given.failed, given.runs).lower > wilsonInterval(other.failed, other.runs).upper;
}

/**
 * Echoes that are always "far above" the norm, whatever the agent's median: an agent whose
 * learnings are almost never echoed (median 0 or 1) would otherwise have every learning with two
 * or three echoes flagged, and a couple of repeats are ordinary (a run that restates its context).
 */
export const ECHO_FLOOR = 5;
/**
 * How many times the agent's median echo count "far above" is. A median is used, not a mean, so
 * that the few learnings the agent parrots do not raise the bar that is meant to find them; three
 * times is clearly out of the ordinary run of an agent's learnings without flagging the upper
 * half of an agent that echoes a lot.
 */
export const ECHO_TIMES_MEDIAN = 3;

/** The echo count from which a learning of an agent whose median is `median` is flagged. */
export function echoThreshold(median: number): number {
  return Math.max(ECHO_FLOOR, ECHO_TIMES_MEDIAN * median);
}

/**
 * True when a learning's echoes are far above its agent's norm: at least
 * max({@link ECHO_FLOOR}, {@link ECHO_TIMES_MEDIAN} × the median echoes of the agent's active
 * learnings). The agent keeps proposing what it is already told: the learning may be worded so
 * that the agent does not recognise it, or may not be acted on.
 */
export function echoesFarAboveNorm(echoes: number, median: number): boolean {
  return echoes >= echoThreshold(median);
}

/**
 * The median of a distribution given as (value, how many) pairs, in any order: the middle value,
 * or the mean of the two middle ones. What the store reads is such a histogram (one row per echo
 * count per agent), not every learning. Empty: 0.
 */
export function medianOfCounts(counts: readonly { value: number; count: number }[]): number {
  const sorted = [...counts].filter((c) => c.count > 0).sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, c) => sum + c.count, 0);
  if (total === 0) return 0;
  const valueAt = (index: number): number => {
    let seen = 0;
    for (const c of sorted) {
      seen += c.count;
      if (index < seen) return c.value;
    }
    return sorted[sorted.length - 1]!.value;
  };
  return total % 2 === 1 ? valueAt((total - 1) / 2) : (valueAt(total / 2 - 1) + valueAt(total / 2)) / 2;
}

/**
 * True when a rediscovery came from the chain the learning was first proposed in. A chain carries
 * its answers and context from run to run, so the "finding again" may be the same work repeating
 * itself, not an independent arrival. Unknown chains (a proposal with no run, or a run the ledger
 * does not know) prove nothing either way: not the same.
 */
export function sameChain(originalChain: string | null, rediscoveryChain: string | null): boolean {
  return originalChain !== null && rediscoveryChain !== null && originalChain === rediscoveryChain;
}

/** Everything the section weighs about one active learning. */
export interface WorthEvidence {
  given: RunCounts;
  other: RunCounts;
  echoes: number;
  /** The median echo count of the agent's active learnings. */
  agentMedianEchoes: number;
  /** Rediscoveries that came from the chain of the learning's first proposal. */
  sameChainRediscoveries: number;
  /** That chain, to name it. */
  originalChain: string | null;
}

function percent(part: number, whole: number): string {
  return `${Math.round((100 * part) / whole)}%`;
}

/**
 * Why a learning is worth a look, one line per kind of evidence; empty when it is not. Counts
 * named here are never below their rule's minimum (five runs, five echoes), so they read plural.
 */
export function worthReasons(e: WorthEvidence): string[] {
  const reasons: string[] = [];
  if (failsMoreOften(e.given, e.other)) {
    reasons.push(
      `runs given it fail more often: ${e.given.failed} of ${e.given.runs} did not succeed (${percent(e.given.failed, e.given.runs)}), ` +
        `against ${percent(e.other.failed, e.other.runs)} of the agent's ${e.other.runs} other runs`,
    );
  }
  if (echoesFarAboveNorm(e.echoes, e.agentMedianEchoes)) {
    reasons.push(
      `echoed ${e.echoes} times while it was being given: the agent's median is ${e.agentMedianEchoes} ` +
        `(flagged from ${echoThreshold(e.agentMedianEchoes)})`,
    );
  }
  if (e.sameChainRediscoveries > 0) {
    reasons.push(
      `${e.sameChainRediscoveries === 1 ? 'a rediscovery' : `${e.sameChainRediscoveries} rediscoveries`} came from ` +
        `chain ${e.originalChain ?? '?'}, where it was first proposed: not independent`,
    );
  }
  return reasons;
}

/**
 * What a dismissal is remembered against: the evidence that counts against the learning (failed
 * runs given it, echoes, same-chain rediscoveries). A dismissal holds while this stays the same
 * and lapses the moment any of it grows, so the entry comes back with the new evidence. Runs that
 * succeed, and the agent's other runs, are left out: they do not make the case against the
 * learning stronger, and a busy agent would otherwise bring back every dismissed entry at its
 * next run.
 */
export function evidenceFingerprint(e: WorthEvidence): string {
  return `failed:${e.given.failed}/echoes:${e.echoes}/same-chain:${e.sameChainRediscoveries}`;
}
