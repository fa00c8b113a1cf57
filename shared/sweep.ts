/**
 * The one wording of what a retention sweep deleted (docs/rules.md#retention-sweeps), for the CLI's
 * `layover-desk sweep` and the window's status bar alike: "deleted 3 runs, 12 log entries", or
 * "nothing to delete". Only the counts that are not zero are named. The two sides had each their
 * own: the CLI listed all seven counts, zeros included, the status bar only the others, so the
 * same sweep read differently depending on where the person looked; a list of seven zeros said
 * nothing and pushed the status bar onto a second line.
 */
import type { SweepReport } from './domain.js';
import { plural } from './words.js';

/** The counts a sweep reports, in the order they are named, each with its singular and plural noun. */
const SWEPT: ReadonlyArray<[keyof Omit<SweepReport, 'at'>, string, string]> = [
  ['help_requests', 'request', 'requests'],
  ['runs', 'run', 'runs'],
  ['proposals', 'log entry', 'log entries'],
  ['refused_lines', 'refused line', 'refused lines'],
  ['event_files', 'event file', 'event files'],
  ['lapsed_learnings', 'lapsed learning', 'lapsed learnings'],
  ['chains', 'chain', 'chains'],
];

/** What a sweep deleted, in a few words: only the counts that are not zero, or "nothing to delete". */
export function sweptPhrase(report: SweepReport): string {
  const parts = SWEPT.filter(([key]) => report[key] > 0).map(([key, one, many]) => plural(report[key], one, many));
  return parts.length === 0 ? 'nothing to delete' : `deleted ${parts.join(', ')}`;
}
