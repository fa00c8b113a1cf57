import type { LearningFilter } from '../../shared/api.js';
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
