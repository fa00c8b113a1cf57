import type { LearningFilter } from '../../shared/api.js';
import type { ProposalOutcome } from '../../shared/domain.js';
import { count, describeFilter, plural } from './format.js';

/**
 * "Reject 1,284 learnings matching: agent = reviewer, provisional", "Reject 3 learnings", or
 * "Keep the learning under the cursor": every bulk action says what it acts on, in the same words
 * for Reject and Keep, so a button or dialog never leaves its scope to be guessed.
 */
export function actionPhrase(verb: string, n: number, allMatching: boolean, filter: LearningFilter, underCursor = false): string {
  if (underCursor) return `${verb} the learning under the cursor`;
  if (allMatching) return `${verb} ${count(n)} ${n === 1 ? 'learning' : 'learnings'} matching: ${describeFilter(filter)}`;
  return `${verb} ${plural(n, 'learning')}`;
}

/**
 * Why a proposal had its outcome, for the proposal log's "Why" column when the log keeps no
 * reason of its own: a new learning and an echo are what their outcome says, and the log keeps
 * no text for them (one per proposal would grow the ledger with every echo). Refusals and
 * rediscoveries carry their own reason; the phrases here are only for entries without one.
 */
export const OUTCOME_WHY: Record<ProposalOutcome, string> = {
  new: 'nothing like it was known: a new provisional learning',
  echo: 'the agent is already given it: counted as an echo',
  rediscovery: 'proposed again after it lapsed',
  confirmed: 'rediscovered often enough to be confirmed',
  refused: 'refused',
};

