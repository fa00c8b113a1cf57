/**
 * Retention sweeps: deleting what has expired from the ledger and the factory's events folder.
 *
 * The rules are in `rules/retention.ts`; this is how they are applied:
 * - Help requests, runs (with the record of which learnings each was given), the proposal log
 *   and refused event lines go a whole UTC day at a time, by their `day` column (the proposal log
 *   by its time, which starts with the day).
 * - Lapsed learnings past their deadline go with their full-text entry and their history (the
 *   delete triggers); a proposal that stays gets back the text it shared with its learning
 *   (schema migration 8). The history of every
 *   learning that stays is kept whole, however old: it is part of the learning (who decided what,
 *   and what an undo restores), not an event log.
 * - All of that, and the sweep's report, is one SQLite transaction: a sweep is all done or not at
 *   all.
 * - Events files older than the horizon are deleted only once fully read (their committed offset
 *   equals their size), and only after the transaction committed. A file's `event_files` row goes
 *   only after the file itself is gone: a row removed while its file stays would make the next
 *   ingest read the file again from the start and apply its events twice. If a file cannot be
 *   deleted, the stored report is corrected to what really went and the file is tried again at
 *   the next sweep.
 *
 * Only sweeps read the clock (`now`); everything else in the ledger is dated by the events.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SweepReport } from '../../shared/domain.js';
import { SweepReport as SweepReportSchema } from '../../shared/domain.js';
import { eventFileDay, isLapsedExpired, lapsedCutoff, retentionHorizon } from '../rules/retention.js';
import type { Settings } from '../rules/settings.js';
import { factoryPaths, namesIn, noteSweptEventFiles } from './factory.js';
import type { Db } from './store/db.js';
import { stmt } from './store/statements.js';
import { trimDeletions } from './store/deletions.js';
import { withHandedCheckpoint } from './store/handedCheckpoint.js';


interface LapsedRow {
  rowid: number;
  lapsed_at: string | null;
  last_at: string;
}

/**
 * Takes back from Worth a look's counts what the finished runs before a horizon day counted
 * (schema migrations 10 and 13), before the sweep deletes them: for each learning, the number of
 * those runs of its agent whose list names it, and how many of them succeeded. One statement for
 * the whole day, the ids grouped first, so each learning is looked up and written once: a trigger
 * on each deleted run did it id by id, about 7 µs a link, some 300 ms of a day's 3,000 runs
 * (their 37,000 links come down to under a thousand learnings). Only a learning that has a count
 * is written, so no count goes below what was counted. (`WHERE true`: the SELECT of an upsert
 * needs a WHERE clause, or SQLite reads its ON CONFLICT as a join's constraint.)
 */
export const UNCOUNT_SWEPT_RUNS = `INSERT INTO learning_run_counts (learning_rowid, runs, succeeded)
  SELECT l.rowid, -g.runs, -g.succeeded
  FROM (SELECT j.value AS id, r.agent AS agent, count(*) AS runs, coalesce(sum(r.outcome = 'succeeded'), 0) AS succeeded
        FROM runs r, json_each(r.learnings) j WHERE r.day < ? AND r.finished_at IS NOT NULL GROUP BY 1, 2) g
  CROSS JOIN learnings l ON l.id = g.id AND l.agent = g.agent
  CROSS JOIN learning_run_counts c ON c.learning_rowid = l.rowid
  WHERE true
  ON CONFLICT (learning_rowid) DO UPDATE SET runs = runs + excluded.runs, succeeded = succeeded + excluded.succeeded`;

/** The lapsed learnings whose clock (lapse, else last proposal) is at or before the cutoff: a range of the partial index `learnings_lapsed_clock`. */
export const LAPSED_CANDIDATES = `SELECT rowid, lapsed_at, last_at FROM learnings
  WHERE state = 'lapsed' AND coalesce(lapsed_at, last_at) <= ?`;

interface EventFileCandidate {
  /** The file's name, which is also the key of its row in `event_files`. */
  name: string;
  file: string;
}

/**
 * The events files a sweep at `horizon` may delete: named for a day before the horizon, and read
 * to their last byte. A file the Desk has no row for has not been read at all and stays.
 */
function eventFileCandidates(db: Db, factory: string, horizon: string): EventFileCandidate[] {
  const dir = factoryPaths(factory).events;
  const names = namesIn(dir);
  const offsetOf = stmt<[string], { offset: number }>(db, 'SELECT offset FROM event_files WHERE name = ?');
  const candidates: EventFileCandidate[] = [];
  for (const name of names.sort()) {
    const day = eventFileDay(name);
    if (day === null || day >= horizon) continue;
    const file = path.join(dir, name);
    let size: number;
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile()) continue;
      size = stat.size;
    } catch {
      continue;
    }
    const row = offsetOf.get(name);
    if (row && row.offset === size) candidates.push({ name, file });
  }
  return candidates;
}

/**
 * Runs one sweep at `now` under `settings` and returns (and records) what it deleted.
 *
 * Why `later`. SQLite copies the write-ahead log into the ledger file (a checkpoint, with its
 * syncs) at the end of the first commit that leaves more than `wal_autocheckpoint` pages (1,000)
 * in the log. One expired day of a 30-day ledger writes some 3,500 pages (the day's rows of
 * runs, help requests and the proposal log sit together, but their entries in the indexes by run
 * id, chain and request id are spread over all of those indexes), so that copy took 75–90 ms of a
 * 200 ms sweep, measured on a copy of the benchmark's ledger. Given `later`, the sweep holds the
 * automatic checkpoint off while it commits and hands the checkpoint to `later`, to run once the
 * report is out, as a person's decision does (store/handedCheckpoint.ts); without it (the CLI),
 * the sweep's commit checkpoints as any commit does.
 */
export function sweep(
  db: Db,
  factory: string,
  settings: Settings,
  now: Date = new Date(),
  later?: (checkpoint: () => void) => void,
): SweepReport {
  if (later === undefined) return sweepNow(db, factory, settings, now);
  return withHandedCheckpoint(db, later, () => sweepNow(db, factory, settings, now));
}

function sweepNow(db: Db, factory: string, settings: Settings, now: Date): SweepReport {
  const horizon = retentionHorizon(now, settings);

  const deleteHelp = stmt(db, 'DELETE FROM help_requests WHERE day < ?');
  const uncountRuns = stmt(db, UNCOUNT_SWEPT_RUNS);
  const deleteRuns = stmt(db, 'DELETE FROM runs WHERE day < ?');
  // The log's day is the start of its time (schema migration 8): a time before the horizon day
  // sorts before the day's own name, one on that day after it.
  const deleteProposals = stmt(db, 'DELETE FROM proposal_log WHERE at < ?');
  const deleteRefused = stmt(db, 'DELETE FROM refused_lines WHERE day < ?');
  // Only the lapsed learnings whose clock is past the cutoff, through the partial index on that
  // clock: a sweep with nothing to delete reads nothing. Ledger times are canonical ISO strings,
  // so comparing them as text compares the instants. Two statements, not one with
  // `@cutoff IS NULL OR ...`: SQLite plans a statement once for every value of its parameters, so
  // that form read the whole index, every lapsed learning (about 7 ms at 56,000 of them, in
  // every sweep, also one with nothing to delete); without a cutoff every lapsed learning is a
  // candidate anyway (LAPSED_CANDIDATES is tested by its query plan).
  const cutoff = lapsedCutoff(now, settings);
  const lapsedRows = (): LapsedRow[] =>
    cutoff === null
      ? stmt<[], LapsedRow>(db, `SELECT rowid, lapsed_at, last_at FROM learnings WHERE state = 'lapsed'`).all()
      : stmt<[string], LapsedRow>(db, LAPSED_CANDIDATES).all(cutoff.toISOString());
  const deleteLearnings = stmt(db, "DELETE FROM learnings WHERE rowid IN (SELECT value FROM json_each(?)) AND state = 'lapsed'");
  // A chain is only its links: once its runs and the requests that name it are gone, nothing
  // refers to it and it would otherwise stay forever. One made by a reply today has no run yet,
  // which is why only chains created before the horizon go.
  const deleteChains = stmt(
    db,
    `DELETE FROM chains WHERE substr(created_at, 1, 10) < @horizon
       AND NOT EXISTS (SELECT 1 FROM runs WHERE runs.chain = chains.chain)
       AND NOT EXISTS (SELECT 1 FROM help_requests h WHERE h.chain = chains.chain)
       AND NOT EXISTS (SELECT 1 FROM help_requests h WHERE h.continued_as = chains.chain)`,
  );
  // The sweep reports are a log like the others, kept as long.
  const deleteOldSweeps = stmt(db, 'DELETE FROM sweeps WHERE substr(at, 1, 10) < ?');
  const insertSweep = stmt(db, 'INSERT INTO sweeps (at, report) VALUES (?, ?)');

  const { report, seq, files } = db
    .transaction(() => {
      const help_requests = deleteHelp.run(horizon).changes;
      uncountRuns.run(horizon);
      const runs = deleteRuns.run(horizon).changes;
      const proposals = deleteProposals.run(horizon).changes;
      const refused_lines = deleteRefused.run(horizon).changes;
      const chains = deleteChains.run({ horizon }).changes;
      deleteOldSweeps.run(horizon);

      // The rule decides each candidate; the deletions then go in one statement, not one a learning.
      // Each learning's delete trigger takes its history along (schema migration 8).
      const expired = lapsedRows().filter((row) => isLapsedExpired({ state: 'lapsed', lapsed_at: row.lapsed_at, last_at: row.last_at }, now, settings));
      const lapsed_learnings = deleteLearnings.run(JSON.stringify(expired.map((row) => row.rowid))).changes;

      const files = eventFileCandidates(db, factory, horizon);
      const report: SweepReport = {
        at: now.toISOString(),
        help_requests,
        runs,
        proposals,
        refused_lines,
        event_files: files.length,
        lapsed_learnings,
        chains,
      };
      const seq = Number(insertSweep.run(report.at, JSON.stringify(report)).lastInsertRowid);
      trimDeletions(db);
      return { report, seq, files };
    })
    .immediate();

  if (files.length === 0) return report;

  // Noted before the files go: from now on the ledger can no longer be made from the event
  // files alone (`layover-desk rebuild` refuses). A note for a deletion that then fails only
  // makes rebuild refuse when it could have worked, never the other way round.
  noteSweptEventFiles(factory, files.map((candidate) => candidate.name), report.at);
  const gone: EventFileCandidate[] = [];
  for (const candidate of files) {
    try {
      fs.unlinkSync(candidate.file);
      gone.push(candidate);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') gone.push(candidate);
      // Otherwise the file stays, with its row, and is tried again at the next sweep.
    }
  }
  const finalReport: SweepReport = { ...report, event_files: gone.length };
  const deleteEventFile = stmt(db, 'DELETE FROM event_files WHERE name = ?');
  const updateSweep = stmt(db, 'UPDATE sweeps SET report = ? WHERE seq = ?');
  db.transaction(() => {
    for (const candidate of gone) deleteEventFile.run(candidate.name);
    if (gone.length !== files.length) updateSweep.run(JSON.stringify(finalReport), seq);
  })();
  return finalReport;
}

/** Past sweeps, newest first. */
export function listSweeps(db: Db, page: { offset: number; limit: number }): { rows: SweepReport[] } {
  const rows = stmt<[number, number], { report: string }>(db, 'SELECT report FROM sweeps ORDER BY seq DESC LIMIT ? OFFSET ?')
    .all(page.limit, page.offset);
  return { rows: rows.map((row) => SweepReportSchema.parse(JSON.parse(row.report))) };
}

/** The most recent sweep, or null before the first. */
export function lastSweep(db: Db): SweepReport | null {
  return listSweeps(db, { offset: 0, limit: 1 }).rows[0] ?? null;
}

/** The timers a scheduler uses: the real ones by default, fakes in tests. */
export interface SchedulerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_CLOCK: SchedulerClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A pending sweep must not keep a finished process (the CLI, a test) alive.
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const SWEEP_EVERY_MS = 60 * 60 * 1000;
export const SWEEP_MIN_GAP_MS = 60 * 1000;

export interface SweepSchedulerOptions {
  /** Runs one sweep (the caller binds the ledger, factory and current settings). */
  sweep: () => SweepReport;
  onSweep?: (report: SweepReport) => void;
  /** A sweep that threw (a locked ledger, a full disk): reported, and tried again on schedule. */
  onError?: (error: unknown) => void;
  clock?: SchedulerClock;
  everyMs?: number;
  minGapMs?: number;
}

/**
 * When sweeps run: once at `start()`, after ingested runs finish (`noteRunsFinished()`, at most
 * once a minute: a burst of finishing runs makes one sweep, and the last of them is never
 * lost), and hourly. Each sweep resets the hourly timer.
 */
export class SweepScheduler {
  private readonly clock: SchedulerClock;
  private readonly everyMs: number;
  private readonly minGapMs: number;
  private hourly: unknown = null;
  private pending: unknown = null;
  private lastAt: number | null = null;
  private running = false;

  constructor(private readonly options: SweepSchedulerOptions) {
    this.clock = options.clock ?? REAL_CLOCK;
    this.everyMs = options.everyMs ?? SWEEP_EVERY_MS;
    this.minGapMs = options.minGapMs ?? SWEEP_MIN_GAP_MS;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.runNow();
  }

  /** Ingest saw runs finish: sweep now, or as soon as a minute has passed since the last. */
  noteRunsFinished(): void {
    if (!this.running || this.pending !== null) return;
    const wait = this.lastAt === null ? 0 : this.lastAt + this.minGapMs - this.clock.now();
    if (wait <= 0) {
      this.runNow();
      return;
    }
    this.pending = this.clock.setTimeout(() => {
      this.pending = null;
      this.runNow();
    }, wait);
  }

  stop(): void {
    this.running = false;
    if (this.hourly !== null) this.clock.clearTimeout(this.hourly);
    if (this.pending !== null) this.clock.clearTimeout(this.pending);
    this.hourly = null;
    this.pending = null;
  }

  private runNow(): void {
    if (!this.running) return;
    if (this.pending !== null) {
      this.clock.clearTimeout(this.pending);
      this.pending = null;
    }
    this.lastAt = this.clock.now();
    try {
      const report = this.options.sweep();
      this.options.onSweep?.(report);
    } catch (error) {
      this.options.onError?.(error);
    }
    if (!this.running) return; // stopped from a callback
    if (this.hourly !== null) this.clock.clearTimeout(this.hourly);
    this.hourly = this.clock.setTimeout(() => {
      this.hourly = null;
      this.runNow();
    }, this.everyMs);
  }
}
