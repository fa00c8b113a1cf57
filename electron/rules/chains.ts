/**
 * What state a chain is in, from facts the ledger gathers about it.
 *
 * `awaiting_human` is the state a list of runs cannot show: every run ended cleanly, nothing is
 * queued, and still the work is not done because a person has to say something. It holds only
 * while the fatal request filed by the chain's *last* run is open; a request an earlier run filed,
 * which the chain then went on past, does not hold it. Closing that request (an answer, which
 * starts a new chain, or a resolution, which says nothing more is needed) finishes the chain, even
 * before the factory has reported that the asking run ended.
 *
 * Pure: no SQL, no clock, so the rule is tested on its own.
 */
import type { ChainState } from '../../shared/domain.js';

export interface ChainFacts {
  /** An open fatal request filed by the chain's last run (or, with no recorded runs after it). */
  heldByOpenFatal: boolean;
  /** The chain's last recorded run, or null when none of its runs was recorded. */
  lastRun: { finished: boolean } | null;
  /** A fatal request of the last run was answered or resolved: that run asked to stop. */
  lastRunClosedFatal: boolean;
  /** The chain was started by a reply (it answers a help request). */
  startedByReply: boolean;
}

export function chainState(facts: ChainFacts): ChainState {
  if (facts.heldByOpenFatal) return 'awaiting_human';
  if (facts.lastRunClosedFatal) return 'finished';
  if (facts.lastRun) return facts.lastRun.finished ? 'finished' : 'running';
  // No run recorded yet: a chain a reply started is waiting for the Tower to start it; any other
  // (a request filed before runs were recorded) has nothing known to be running.
  return facts.startedByReply ? 'running' : 'finished';
}

