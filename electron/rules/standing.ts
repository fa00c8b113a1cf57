/**
 * How a learning stood at a moment in the past (docs/window.md#runs): its state and runs left,
 * replayed from its history and its agent's finished runs — never its state today. The run
 * detail answers "what was it told when it did that?" with this: a learning kept today was
 * provisional on last week's run, and showing it as confirmed there would mislead the operator
 * about what the run saw.
 *
 * Why a replay. The history has a line for every change of state, but not for every run that
 * counted against a provisional learning (that would be a line per learning per run). So the
 * state comes from the lines, and the runs left from what set them (a proposal or rediscovery
 * gives a full `provisional_runs`; a person's decision keeps the learning's own figures in its
 * undo snapshot, and neither it nor its undo changes them) minus the agent's runs
 * that finished in between and counted against it — by the same rule `countRuns` applies
 * (rules/ledger.ts): only while provisional, only runs started after it became live.
 *
 * Runs from the agent's runs the ledger still holds: after a retention sweep deleted older runs,
 * the runs left of a learning whose live period began before them reads high, never a state.
 */
import type { HistoryKind, LearningState } from '../../shared/domain.js';
import { countsAgainst, type DecisionSnapshot, type FinishedRun } from './ledger.js';

/** A history line as the replay reads it (the `learning_history` view's columns). */
export interface StandingLine {
  at: string;
  kind: HistoryKind;
  state_after: LearningState;
  /** A decision's snapshot of what it overwrote; null on every other line. */
  undo: DecisionSnapshot | null;
}

/** One of the agent's finished runs, as the replay needs it. */
export type CountedRun = Pick<FinishedRun, 'started_at' | 'finished_at'>;

export interface Standing {
  state: LearningState;
  runs_left: number;
}

/**
 * The learning's state and runs left just before `at`, from its history lines (in the order they
 * were written) and its agent's finished runs (by finish time); null when it had no history yet.
 * A run that finished at the same moment as a line is counted first: a lapse is written at the
 * finish of the run that caused it.
 */
export function standingAt(lines: readonly StandingLine[], runs: readonly CountedRun[], at: string, provisionalRuns: number): Standing | null {
  let state: LearningState | null = null;
  let runsLeft = 0;
  let liveSince: string | null = null;
  let next = 0;
  const countUntil = (until: string, inclusive: boolean) => {
    for (; next < runs.length; next++) {
      const run = runs[next]!;
      if (inclusive ? run.finished_at > until : run.finished_at >= until) break;
      if (state !== null && countsAgainst(state, liveSince, run.started_at)) runsLeft = Math.max(0, runsLeft - 1);
    }
  };
  for (const line of lines) {
    if (line.at >= at) break;
    countUntil(line.at, true);
    switch (line.kind) {
      case 'proposed':
      case 'rediscovered':
        runsLeft = provisionalRuns;
        liveSince = line.at;
        break;
      case 'lapsed':
        runsLeft = 0;
        break;
      case 'rejected':
      case 'kept':
        if (line.undo) ({ runs_left: runsLeft, live_since: liveSince } = line.undo);
        break;
      case 'undone':
      case 'echoed':
      case 'confirmed':
        break;
    }
    state = line.state_after;
  }
  countUntil(at, false);
  return state === null ? null : { state, runs_left: runsLeft };
}
