/**
 * Case 6: a person's bulk reject, and the two sweeps that run unasked, on copies of the mixed ledger.
 *
 * - Reject N learnings by id as the Desk answers it (`answerDecision`: `decideLearnings`, its
 *   journal line appended, the learnings files of the agents whose active learnings it changed
 *   re-written) ≤ 300 ms: the toast waits for it. The median of `REJECT_ROUNDS` rejects, each on
 *   a fresh copy, every one given in the note. The checkpoint the hosts run after the answer
 *   is timed apart and given in the note. Baseline: one plain UPDATE of the
 *   same rows in one transaction, rolled back. The mixed ledger's runs leave most learnings
 *   lapsed (about 4,500 of 100,000 are active in full), so the N are every active learning first,
 *   then lapsed ones: every agent's file is re-written, and N is the full 10,000.
 * - A sweep with nothing to delete ≤ 20 ms however many lapsed learnings wait for their day: it
 *   runs after finished runs, at most once a minute, on the host's thread. The ledger is swept
 *   once first (untimed) so that what is left is lapsed but not yet due.
 * - A sweep where one day of history has just expired ≤ 200 ms, as the ingest thread runs it: its
 *   checkpoint handed back and timed apart, in the note (sweep.ts). The shared ledger holds 30 days,
 *   so one day is a thirtieth of it — more than the ninetieth a full 90-day history would lose,
 *   so this is the harder form. Lapsed learnings are kept longer in this sweep's settings, so the
 *   figure is the day's rows and its events file alone.
 * The sweeps run on a copy of the whole factory (event files linked), as a sweep deletes expired
 * event files too.
 * Baseline of both sweeps: the same sweep of an empty ledger (the fixed cost), alternated.
 */
import { answerDecision } from '../../../electron/node/answerDecision.js';
import { decideLearnings } from '../../../electron/node/store/decisions.js';
import { openDb, ledgerPath, type Db } from '../../../electron/node/store/db.js';
import { sweep } from '../../../electron/node/sweep.js';
import type { Settings } from '../../../electron/rules/settings.js';
import { SETTINGS, alternate, formatCount, measured, median, mixedSpec, openCopy, result, timed, type BenchCase, type BenchWork } from '../harness.js';

const MOST_REJECT_MS = 300;
/**
 * Rejects timed, each on a fresh copy, the median reported: one reject is one sample of a few
 * hundred milliseconds of I/O and memory, and on this shared machine one sample alone ranged
 * from 158 to 455 ms on the same code (docs/performance-log.md#full-runs-session-by-session).
 */
const REJECT_ROUNDS = 3;
const MOST_IDLE_SWEEP_MS = 20;
const MOST_DAY_SWEEP_MS = 200;
const SWEEP_ROUNDS = 5;
const DAY_MS = 86_400_000;
/** Lapsed learnings outlive any sweep of this case's day-expiry run. */
const KEEP_LAPSED_LONG = 36_500;

/** `count` learnings a reject changes: the active ones first (they are what re-writes export files), then lapsed ones. */
function rejectableIds(db: Db, count: number): string[] {
  return (
    db
      .prepare("SELECT id FROM learnings WHERE state <> 'rejected' ORDER BY state IN ('provisional', 'confirmed') DESC, rowid LIMIT ?")
      .all(count) as { id: string }[]
  ).map((r) => r.id);
}

function emptyLedger(work: BenchWork): { db: Db; dir: string } {
  const dir = work.folder('empty-sweep');
  return { db: openDb(ledgerPath(dir)), dir };
}

function oldestDay(db: Db): string {
  return (db.prepare('SELECT min(day) AS day FROM runs').get() as { day: string }).day;
}

/** One timed reject: its time, its baseline's, the checkpoint's after the answer, and what it changed. */
interface RejectRound {
  reject: number;
  floor: number;
  checkpoint: number;
  agents: number;
  learnings: number;
}

/**
 * One reject of `count` learnings as the Desk answers it, on a fresh copy of the ledger and a
 * connection just opened (as a person's first reject after the app starts), with its baseline on
 * the same copy just before.
 */
function rejectOnce(work: BenchWork, file: string, count: number, round: number, log: (line: string) => void): RejectRound {
  const { db, dir } = openCopy(work, file, `reject-${round}`);
  try {
    const ids = rejectableIds(db, count);
    const plain = db.prepare("UPDATE learnings SET state = 'rejected' WHERE id IN (SELECT value FROM json_each(?))");
    const floor = timed(() => {
      db.exec('BEGIN IMMEDIATE');
      plain.run(JSON.stringify(ids));
      db.exec('ROLLBACK');
    });
    log(`rejecting ${formatCount(ids.length)} learnings (round ${round + 1} of ${REJECT_ROUNDS})`);
    let checkpoint = (): void => {};
    const reject = measured(() =>
      answerDecision(
        db,
        dir,
        SETTINGS.learnings.max_per_run,
        () => {
          const decided = decideLearnings(db, 'reject', { ids }, { by: 'bench', now: new Date() });
          if (decided.changed.length !== ids.length) throw new Error(`rejected ${decided.changed.length} of ${ids.length} learnings`);
          return decided.agents.length;
        },
        (later) => (checkpoint = later),
      ),
    );
    return { reject: reject.ms, floor, checkpoint: timed(checkpoint), agents: reject.value, learnings: ids.length };
  } finally {
    db.close();
  }
}

export const rejectSweepCase: BenchCase = {
  id: 'reject-sweep',
  about: 'reject N learnings by id with their export files (÷ one plain UPDATE); sweep with nothing to delete and sweep of one expired day (÷ the same sweep of an empty ledger)',
  run({ sizes, work, log }) {
    const ledger = work.ledger(mixedSpec(sizes.ledgerEvents));
    const out = [];

    {
      const rounds: RejectRound[] = [];
      for (let round = 0; round < REJECT_ROUNDS; round++) rounds.push(rejectOnce(work, ledger.file, sizes.rejected, round, log));
      const middle = (of: (round: RejectRound) => number): number => median(rounds.map(of));
      const each = rounds.map((r) => `${formatCount(r.reject)} ms (its plain UPDATE ${formatCount(r.floor)} ms)`).join(', ');
      const { agents, learnings } = rounds[0]!;
      out.push({
        result: result(`reject-sweep: reject ${formatCount(learnings)} learnings with their export files`, middle((r) => r.reject), 'ms', middle((r) => r.floor), { on: 'value', most: MOST_REJECT_MS }),
        note: `medians of ${REJECT_ROUNDS}, each on a fresh copy: ${each}; ${agents} agents' learnings files re-written, journal line appended; then the checkpoint ${formatCount(middle((r) => r.checkpoint))} ms; baseline: one plain UPDATE of the same rows`,
      });
    }

    const now = new Date();
    const empty = emptyLedger(work);
    {
      const dir = work.factoryCopy(ledger, 'idle-sweep');
      const db = openDb(ledgerPath(dir));
      sweep(db, dir, SETTINGS, now);
      const lapsed = (db.prepare("SELECT count(*) AS n FROM learnings WHERE state = 'lapsed'").get() as { n: number }).n;
      const { measured: swept, baseline: base } = alternate(
        SWEEP_ROUNDS,
        () => sweep(db, dir, SETTINGS, now),
        () => sweep(empty.db, empty.dir, SETTINGS, now),
      );
      db.close();
      out.push({
        result: result(`reject-sweep: sweep with nothing to delete, ${formatCount(lapsed)} lapsed learnings`, median(swept), 'ms', median(base), { on: 'value', most: MOST_IDLE_SWEEP_MS }),
        note: `median of ${SWEEP_ROUNDS}; baseline: the same sweep of an empty ledger`,
      });
    }

    {
      const dir = work.factoryCopy(ledger, 'day-sweep');
      const db = openDb(ledgerPath(dir));
      const first = oldestDay(db);
      const settings: Settings = { ...SETTINGS, learnings: { ...SETTINGS.learnings, keep_lapsed_days: KEEP_LAPSED_LONG } };
      // The horizon is `days` before now's day: one day after the oldest one, so exactly it expires.
      const expiresOne = new Date(Date.parse(`${first}T12:00:00.000Z`) + (settings.retention.days + 1) * DAY_MS);
      const base = timed(() => sweep(empty.db, empty.dir, settings, expiresOne));
      let checkpoint = (): void => {};
      const { ms, value: report } = measured(() => sweep(db, dir, settings, expiresOne, (later) => (checkpoint = later)));
      const checkpointMs = timed(checkpoint);
      db.close();
      out.push({
        result: result(`reject-sweep: sweep of one expired day (${first}) of ${ledger.factory.files.length}`, ms, 'ms', base, { on: 'value', most: MOST_DAY_SWEEP_MS }),
        note: `deleted ${formatCount(report.runs)} runs, ${formatCount(report.proposals)} proposals, ${formatCount(report.help_requests)} help requests, ${report.event_files} event files; then the checkpoint ${formatCount(checkpointMs)} ms, as the ingest thread runs it after the report`,
      });
    }
    empty.db.close();
    return { results: out };
  },
};
