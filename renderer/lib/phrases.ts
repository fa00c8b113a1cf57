import type { LearningFilter } from '../../shared/api.js';
import { count, describeFilter, plural } from './format.js';

/** "Reject 1,284 learnings matching: agent = reviewer, provisional" or "Reject 3 learnings". */
export function actionPhrase(verb: string, n: number, allMatching: boolean, filter: LearningFilter): string {
  if (allMatching) return `${verb} ${count(n)} ${n === 1 ? 'learning' : 'learnings'} matching: ${describeFilter(filter)}`;
  return `${verb} ${plural(n, 'learning')}`;
}
