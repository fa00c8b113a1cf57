/**
 * The benchmark's plumbing: timing, percentiles, the results table and `results.json`, sizes,
 * and the ledgers and factories the cases share.
 *
 * Why a baseline beside every figure: these machines are shared and noisy, so an absolute time
 * means little on its own. Each case times its baseline in the same run, alternating with the
 * measured side where it can, so both see the same load and the ratio is what to read. Targets
 * are checked on the ratio where the issue states a ratio, and on the value where it states an
 * absolute bound (a stall, a memory size).
 *
 * Why fills are cached: building a ledger of 100,000 learnings is the slowest part of the run,
 * and most cases only read one. Each factory and ledger is built once per size and copied (after
 * a checkpoint, so the copy is the whole ledger) for the cases that change it.
 *
 * Why ledgers are grown a day at a time: a run is given the learnings its agent's file names
 * when it starts, ids the Desk made up when it took those learnings in. A generated history
 * cannot know them, so a ledger is ingested day by day, each day's runs given what the files
 * exported after the day before say ({@link growLedger}), and its runs link to learnings it has.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { ledgerPath, openDb, type Db } from '../../electron/node/store/db.js';
import { ingestSync } from '../../electron/node/ingest.js';
import { factoryPaths } from '../../electron/node/factory.js';
import { currentLearnings } from '../../electron/cli/commands/agentSide.js';
import { exportPending } from '../../electron/node/exporter.js';
import { ScreenAhead } from '../../electron/node/screenAhead.js';
import { applyProposal } from '../../electron/node/store/proposals.js';
import { IMPACTS } from '../../shared/domain.js';
import { serializeEvent } from '../../electron/rules/events.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { ProposalTexts, generateFactory, withGivenLearnings, type FactorySpec, type GeneratedFactory } from './corpus.js';

/** One line of `results.json`. */
export interface BenchResult {
  /** What was measured: the case id, a colon, and the figure in words ("ingest: 1,000,000 mixed events…"). */
  case: string;
  /** The measured figure, in `unit`; null when it could not be measured (the case failed, or had no samples). */
  value: number | null;
  unit: string;
  /** The same figure for the baseline, in `unit`; null where the case has none. */
  baseline: number | null;
  /** value ÷ baseline, or null without a baseline. */
  ratio: number | null;
  /** The target as the issue states it, e.g. "ratio ≤ 10" or "value ≤ 100 ms". */
  target: string;
  /** Whether the target is met; null when the figure is reported without a target. */
  ok: boolean | null;
}

/** What a case hands back: its results and a note per result for the table (sizes, rates). */
export interface CaseOutput {
  results: { result: BenchResult; note: string }[];
}

/** An upper bound on the ratio or on the value (every target of issue 9 is one); null: reported only. */
export type Target = { on: 'ratio' | 'value'; most: number } | null;

function targetText(target: Target, unit: string): string {
  if (target === null) return 'none (reported)';
  return target.on === 'ratio' ? `ratio ≤ ${target.most}` : `value ≤ ${target.most} ${unit}`;
}

/** Builds a result and checks it against its target. */
export function result(name: string, value: number, unit: string, baseline: number | null, target: Target): BenchResult {
  const figure = finite(value);
  const base = baseline === null ? null : finite(baseline);
  const ratio = figure === null || base === null || base === 0 ? null : figure / base;
  let ok: boolean | null = null;
  if (target !== null) {
    const checked = target.on === 'ratio' ? ratio : figure;
    ok = checked !== null && checked <= target.most;
  }
  const shown = (on: 'ratio' | 'value', n: number | null) => (ok === false && target?.on === on ? overBound(n, target.most) : round(n));
  return { case: name, value: shown('value', figure), unit, baseline: round(base), ratio: shown('ratio', ratio), target: targetText(target, unit), ok };
}

/** The entry of a case that threw: it still appears, with no figures and its target unmet. */
export function failedResult(id: string, error: unknown): BenchResult {
  return { case: `${id}: failed: ${error instanceof Error ? error.message : String(error)}`, value: null, unit: '', baseline: null, ratio: null, target: 'the case runs', ok: false };
}

const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

function round(n: number | null): number | null {
  if (n === null) return null;
  return Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 1000) / 1000;
}

/**
 * A figure that missed its bound `most`, rounded as {@link round} unless that would bring it down
 * onto the bound: then as measured. Rounded, a catch-up's slowest answer just over 100 ms read as
 * "100 ms" against "≤ 100 ms" in results.json and the table, on a row marked missed: a figure that
 * seemed to meet the target its own verdict said it missed.
 */
function overBound(n: number | null, most: number): number | null {
  const rounded = round(n);
  return rounded !== null && rounded <= most ? n : rounded;
}

/** Milliseconds `fn` takes. */
export function timed(fn: () => void): number {
  return measured(fn).ms;
}

/** Milliseconds `fn` takes, what it returned, and when it began (`performance.now()`). */
export function measured<T>(fn: () => T): { ms: number; value: T; start: number } {
  const start = performance.now();
  const value = fn();
  return { ms: performance.now() - start, value, start };
}

/**
 * One call timed, with what the process did meanwhile as this machine's kernel counts it (every
 * thread: the collector's helpers too).
 */
export interface TimedCall {
  /** When it began (`performance.now()`). */
  start: number;
  ms: number;
  /** CPU time of the process's threads. */
  cpuMs: number;
  /**
   * Times one of the process's threads gave up its CPU to wait (for a lock, the disk, a timer).
   * Told apart from `preemptions` because a call off the CPU for long reads differently by cause:
   * a wait is the process's own doing, a preemption the machine's. Why, in the log:
   * docs/performance-log.md#session-36-seventeen-runs-on-a-busier-host-ingest-over-its-10-in-nine
   */
  waits: number;
  /** Times the scheduler took the CPU from one of the process's threads that could run on. */
  preemptions: number;
}

/** Times `fn` by the clock and the process's CPU, and counts its threads' waits and preemptions. */
export function timedCall<T>(fn: () => T): TimedCall & { value: T } {
  const before = process.resourceUsage();
  const { start, ms, value } = measured(fn);
  const after = process.resourceUsage();
  return {
    start,
    ms,
    value,
    cpuMs: (after.userCPUTime + after.systemCPUTime - before.userCPUTime - before.systemCPUTime) / 1000,
    waits: after.voluntaryContextSwitches - before.voluntaryContextSwitches,
    preemptions: after.involuntaryContextSwitches - before.involuntaryContextSwitches,
  };
}

/** Where Linux tells a thread its own time on the CPU: nanoseconds, the file's first field. */
const THREAD_SCHEDSTAT = '/proc/thread-self/schedstat';

/**
 * The calling thread's own CPU time in ms, or null where the kernel does not tell it (not Linux,
 * or a kernel that keeps no scheduler statistics and writes zeros). Beside the process's CPU time
 * ({@link timedCall}) it tells a call's own work from what the process's other threads (the
 * collector's helpers, a worker) did while it ran. Read around a call, not inside `timedCall`,
 * whose many short calls (the query case) would pay for the reads.
 *
 * Why the process's CPU time is asked for first: the kernel brings a running thread's count up to
 * date only at its timer tick (every 4 ms at 250 a second) or when the thread leaves the CPU, so
 * the file alone can be milliseconds behind. Asking for the process's CPU time makes it bring the
 * calling thread's count up to date, so the file then tells it to within the few microseconds of
 * the two calls.
 */
export function threadCpuMs(): number | null {
  try {
    process.cpuUsage();
    const ns = Number(fs.readFileSync(THREAD_SCHEDSTAT, 'utf8').split(' ')[0]);
    return ns > 0 ? finite(ns / 1e6) : null;
  } catch {
    return null;
  }
}

/** Time taken by the clock and CPU time of the whole process (every thread), in ms; they add up over calls. */
export class Stopwatch {
  ms = 0;
  cpuMs = 0;

  time<T>(fn: () => T): T {
    const call = timedCall(fn);
    this.ms += call.ms;
    this.cpuMs += call.cpuMs;
    return call.value;
  }
}

/** The `p`-th percentile (0–100) of `samples`, nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/**
 * Runs `measured` and `baseline` in turn, `rounds` times each, and returns their times in ms:
 * alternating rather than one block then the other, so a burst of load on the shared machine
 * falls on both sides.
 */
export function alternate(rounds: number, measured: (round: number) => void, baseline: (round: number) => void): { measured: number[]; baseline: number[] } {
  const out = { measured: [] as number[], baseline: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    out.baseline.push(timed(() => baseline(round)));
    out.measured.push(timed(() => measured(round)));
  }
  return out;
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export const formatCount = (n: number): string => Math.round(n).toLocaleString('en');

// ---------------------------------------------------------------------------------------------
// Sizes

/** The agents and days of the mixed factories (issue 9). */
export const MIXED_AGENTS = 50;
export const MIXED_DAYS = 30;
/** Of mixed events, about this share become new learnings (30% proposals, most of them new). */
const NEW_LEARNINGS_PER_EVENT = 0.3 * 0.7;

/** Mixed events that give about `learnings` learnings. */
export function eventsForLearnings(learnings: number): number {
  return Math.ceil(learnings / NEW_LEARNINGS_PER_EVENT);
}


/** The sizes every case reads; `--quick` and `--scale` choose them. */
export interface Sizes {
  /** Case 1 and 4: mixed events ingested / caught up. */
  events: number;
  /** Case 2 and 3: learnings of one agent; proposals timed against them. */
  oneAgentLearnings: number;
  proposalsTimed: number;
  /** Case 3: lines ingested on top of `oneAgentLearnings`. */
  linesOnTop: number;
  /** Cases 5, 6, 8: mixed events of the shared ledger (sized for about 100,000 learnings in full). */
  ledgerEvents: number;
  /** Case 5: timed calls per filter × sort × search combination. */
  queryRounds: number;
  /** Case 6: learnings rejected in one call. */
  rejected: number;
  /** Case 7: runs and learnings of the ledger `serve` holds. */
  memoryRuns: number;
  memoryLearnings: number;
}

export const FULL_SIZES: Sizes = {
  events: 1_000_000,
  oneAgentLearnings: 100_000,
  proposalsTimed: 1_000,
  linesOnTop: 10_000,
  ledgerEvents: eventsForLearnings(100_000),
  queryRounds: 20,
  rejected: 10_000,
  memoryRuns: 1_000_000,
  memoryLearnings: 100_000,
};

/**
 * `--quick`: small enough to finish within a minute on today's code. The shared ledger is the one
 * case 1 ingests (20,000 events give about 4,000 learnings), so nothing is ingested twice.
 */
export const QUICK_SIZES: Sizes = {
  events: 20_000,
  oneAgentLearnings: 5_000,
  proposalsTimed: 200,
  linesOnTop: 1_000,
  ledgerEvents: 20_000,
  queryRounds: 3,
  rejected: 1_000,
  memoryRuns: 3_000,
  memoryLearnings: 1_500,
};

/** Smallest size a scaled run uses, so `--scale 0.001` still measures something. */
const LEAST = 100;

/** The full sizes times `scale` (counts of rounds are kept: they set the precision, not the load). */
export function scaledSizes(scale: number): Sizes {
  const s = (n: number): number => Math.max(LEAST, Math.round(n * scale));
  return {
    events: s(FULL_SIZES.events),
    oneAgentLearnings: s(FULL_SIZES.oneAgentLearnings),
    proposalsTimed: FULL_SIZES.proposalsTimed,
    linesOnTop: s(FULL_SIZES.linesOnTop),
    ledgerEvents: s(FULL_SIZES.ledgerEvents),
    queryRounds: FULL_SIZES.queryRounds,
    rejected: s(FULL_SIZES.rejected),
    memoryRuns: s(FULL_SIZES.memoryRuns),
    memoryLearnings: s(FULL_SIZES.memoryLearnings),
  };
}

// ---------------------------------------------------------------------------------------------
// Shared fills

export const SETTINGS = DEFAULT_SETTINGS;

const MIXED_SEED = 9;

/** The mixed factory of `events` events: 50 agents, 30 day files, the shares. */
export function mixedSpec(events: number): FactorySpec {
  return { events, agents: MIXED_AGENTS, days: MIXED_DAYS, seed: MIXED_SEED };
}

/** The agent whose learnings cases 2 and 3 grow, and a neighbour whose learnings must never be candidates. */
export const ONE_AGENT = 'builder';
const NEIGHBOUR = 'reviewer';
/** The neighbour holds this share of the one agent's learnings. */
const NEIGHBOUR_SHARE = 0.1;
const ONE_AGENT_SEED = 11;
/** Proposals of the fill are this far apart (event times, not the clock). */
const FILL_STEP_MS = 1000;

export interface OneAgentLedger {
  /** Checkpointed ledger file: copy it to change it. */
  file: string;
  /** Every text the fill proposed for {@link ONE_AGENT}, in order (to reword from). */
  texts: string[];
  learnings: number;
  /** What the fill's proposals (both agents) take as `learning.proposed` lines. */
  proposalLineBytes: number;
  /** The time of the last proposal of the fill. */
  lastAt: number;
}

/** Provisional learnings an agent keeps after its runs have counted: about three runs' worth of proposals for each run a learning lives. */
const PROVISIONAL_KEPT = SETTINGS.learnings.provisional_runs * 3;

/**
 * Leaves the ledger as the agents' runs would have: a learning lives `provisional_runs` of its
 * agent's runs, so an agent with 100,000 learnings has a few dozen provisional ones and the rest
 * lapsed (each with its history line), not 100,000 provisional ones. The fill proposes without
 * runs (runs would swamp what the cases measure), so without this every finished run ingested on
 * top would have to count against every learning, a state no factory reaches.
 */
function ageAsRunsWould(db: Db): void {
  const old = `agent = @agent AND state = 'provisional' AND rowid NOT IN
    (SELECT rowid FROM learnings WHERE agent = @agent AND state = 'provisional' ORDER BY rowid DESC LIMIT @kept)`;
  for (const agent of [ONE_AGENT, NEIGHBOUR]) {
    const params = { agent, kept: PROVISIONAL_KEPT };
    db.prepare(
      `INSERT INTO learning_history (learning_id, at, day, kind, reason, state_before, state_after)
       SELECT id, last_at, substr(last_at, 1, 10), 'lapsed', 'ran out of runs', 'provisional', 'lapsed' FROM learnings WHERE ${old}`,
    ).run(params);
    db.prepare(
      `UPDATE learnings SET state = 'lapsed', runs_left = 0, lapsed_at = last_at,
         changed = (SELECT max(changed) + 1 FROM learnings) WHERE ${old}`,
    ).run(params);
  }
}

/**
 * `learnings` new learnings of one agent (and a tenth as many of a neighbour), taken up through
 * `applyProposal` — the path ingest takes — in one transaction: proposals are drawn until that
 * many were new, so rewordings among them were echoes, as in real use.
 */
function fillOneAgent(file: string, learnings: number): OneAgentLedger {
  const db = openDb(file);
  const texts = new ProposalTexts(ONE_AGENT_SEED);
  const next = seededRandom(ONE_AGENT_SEED);
  const start = Date.UTC(2026, 0, 1);
  const proposed: string[] = [];
  let at = start;
  let lineBytes = 0;
  const propose = (agent: string, wanted: number): number => {
    let made = 0;
    for (let tries = 0; made < wanted && tries < wanted * 3; tries++) {
      const text = texts.text(agent);
      if (agent === ONE_AGENT) proposed.push(text);
      at += FILL_STEP_MS;
      const proposal = { agent, text, impact: IMPACTS[Math.floor(next() * IMPACTS.length)]!, at: new Date(at).toISOString() };
      lineBytes += Buffer.byteLength(serializeEvent({ type: 'learning.proposed', ...proposal })) + 1;
      const outcome = applyProposal(db, proposal, SETTINGS.learnings);
      if (outcome.outcome === 'new') made++;
    }
    return made;
  };
  const made = db.transaction(() => {
    propose(NEIGHBOUR, Math.round(learnings * NEIGHBOUR_SHARE));
    const count = propose(ONE_AGENT, learnings);
    ageAsRunsWould(db);
    return count;
  })();
  checkpointAndClose(db);
  return { file, texts: proposed, learnings: made, proposalLineBytes: lineBytes, lastAt: at };
}

export interface IngestedLedger {
  /** The factory as the ledger read it: its day files with the given ids the runs really got. */
  factory: GeneratedFactory;
  /** The ledger file, checkpointed (no WAL beside it): copy it to change it. */
  file: string;
}

export interface GrownLedger extends IngestedLedger {
  /**
   * The work of one `ingestSync` over every day file: the lines of each day, summed, and the one
   * export of the learnings files after the last day. The exports after the earlier days are
   * left out: a catch-up makes one (the benchmark needs the others only to know what to give).
   */
  ingest: Stopwatch;
  /** The exports after the earlier days, which `ingest` leaves out. */
  dailyExports: Stopwatch;
  /** Lines ingest refused. */
  refused: number;
}

/**
 * Ingests `template`'s day files into a new ledger as a factory grows: a day at a time, each
 * day's runs given what the Tower gives a run — the first of its agent's learnings in the file
 * the Desk exported after the day before (`currentLearnings`, as `run start` reads it; none on
 * the first day) — in place of the template's made-up ids ({@link withGivenLearnings}). Each
 * day is `ingestSync`'s work as the CLI runs it, in its two parts (the lines, then the export
 * after them), timed as {@link GrownLedger} says. Filling and writing a day file is not timed; `beforeIngest` sees each written day file before it is ingested (the ingest case
 * times its floor there, so both see the same load).
 */
export function growLedger(work: BenchWork, template: GeneratedFactory, label: string, beforeIngest: (file: string) => void = () => {}): GrownLedger {
  const dir = work.folder(label);
  const events = factoryPaths(dir).events;
  fs.mkdirSync(events);
  const factory: GeneratedFactory = { ...template, dir, bytes: 0 };
  const ingest = new Stopwatch();
  const dailyExports = new Stopwatch();
  let refused = 0;
  const db = openDb(ledgerPath(dir));
  // One screen helper for every day, as the hosts' watcher keeps one (ingest.ts, `screenAhead`).
  const screenAhead = new ScreenAhead();
  try {
    for (const name of template.files) {
      // The files change only at an ingest, so each agent's is read once a day.
      const learnings = new Map<string, string[]>();
      const given = (agent: string): string[] => {
        let ids = learnings.get(agent);
        if (!ids) learnings.set(agent, (ids = currentLearnings(dir, agent).learnings.map((l) => l.id)));
        return ids;
      };
      const text = withGivenLearnings(fs.readFileSync(path.join(template.dir, 'events', name), 'utf8'), given);
      const file = path.join(events, name);
      fs.writeFileSync(file, text);
      factory.bytes += Buffer.byteLength(text);
      beforeIngest(file);
      refused += ingest.time(() => ingestSync(db, dir, { settings: SETTINGS, export: false, screenAhead })).refused.length;
      const last = name === template.files.at(-1);
      (last ? ingest : dailyExports).time(() => exportPending(db, dir, SETTINGS.learnings.max_per_run));
    }
  } finally {
    screenAhead.close();
    checkpointAndClose(db);
  }
  return { factory, file: ledgerPath(dir), ingest, dailyExports, refused };
}

/**
 * Copies the ledger file `from` to `to` and flushes the copy to disk, as a ledger in use is.
 *
 * Why the flush. A fresh copy is hundreds of megabytes the OS has not written yet, and on ext4
 * (ordered mode) the first sync of any file waits for them. SQLite syncs at the first write of
 * the write-ahead log, so without the flush the first case to write to the copy timed the OS
 * writing the whole copy: 200 ms of the 300-ms sweep of one day at 300,000 events, and the
 * doubling of the reject and of its plain-UPDATE baseline once the shared ledger grew.
 */
function copyLedger(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  const fd = fs.openSync(to, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Opens a copy of `file` in a fresh folder (its own `.layover/`); the caller closes it. */
export function openCopy(work: BenchWork, file: string, label: string): { db: Db; dir: string } {
  const dir = work.folder(label);
  const copy = path.join(dir, '.layover', 'ledger.sqlite');
  copyLedger(file, copy);
  return { db: openDb(copy), dir };
}

/**
 * What the benchmark counts in a ledger: rows of a table, or the links from runs to learnings of
 * their agent they were given (each run's list, schema migration 13).
 */
const COUNTED = {
  learnings: 'SELECT count(*) FROM learnings',
  runs: 'SELECT count(*) FROM runs',
  proposals: 'SELECT count(*) FROM proposals',
  links: 'SELECT count(*) FROM runs r, json_each(r.learnings) j CROSS JOIN learnings l ON l.id = j.value AND l.agent = r.agent',
};

/** One of `COUNTED` in the ledger file `file` (opened read-only for the count). */
export function countIn(file: string, what: keyof typeof COUNTED): number {
  const db = openDb(file, { readonly: true });
  try {
    return db.prepare(COUNTED[what]).pluck().get() as number;
  } finally {
    db.close();
  }
}

/** Folds the WAL into the main file and closes, so the file alone is the whole ledger. */
export function checkpointAndClose(db: Db): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** Cache key of a factory spec: everything but the text stream, which is state, not a size. */
const specKey = (spec: FactorySpec): string => JSON.stringify({ ...spec, texts: undefined });

/** The run's working folder: generated factories and ledgers, deleted at the end. */
export class BenchWork {
  readonly root: string;
  private readonly factories = new Map<string, GeneratedFactory>();
  private readonly ledgers = new Map<string, IngestedLedger>();
  private readonly oneAgent = new Map<number, OneAgentLedger>();
  private count = 0;

  /** `log` hears of each fill as it starts: they are the slow part of a run. */
  constructor(private readonly log: (line: string) => void) {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-bench-'));
  }

  /** A new empty folder under the root. */
  folder(label: string): string {
    const dir = path.join(this.root, `${String(++this.count).padStart(3, '0')}-${label}`);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  /**
   * The factory of `spec`, generated the first time it is asked for: its runs name made-up
   * learning ids. Never ingested into: cases link its files, or grow a ledger from it.
   */
  factory(spec: FactorySpec): GeneratedFactory {
    const key = specKey(spec);
    let factory = this.factories.get(key);
    if (!factory) {
      this.log(`generating ${formatCount(spec.events)} events`);
      factory = generateFactory(this.folder(`factory-${spec.events}`), spec);
      this.factories.set(key, factory);
    }
    return factory;
  }

  /** A fresh factory folder whose `events/` are hard links to `factory`'s files (cheap, and a sweep there removes only links). */
  linkedFactory(factory: GeneratedFactory, label: string): string {
    const dir = this.folder(label);
    fs.mkdirSync(path.join(dir, 'events'));
    for (const name of factory.files) fs.linkSync(path.join(factory.dir, 'events', name), path.join(dir, 'events', name));
    return dir;
  }

  /**
   * A factory folder that is a copy of `ledger`'s: its event files linked, its ledger copied to
   * `.layover/ledger.sqlite`, read to the end — as the Desk leaves a factory it has caught up with.
   */
  factoryCopy(ledger: IngestedLedger, label: string): string {
    const dir = this.linkedFactory(ledger.factory, label);
    copyLedger(ledger.file, ledgerPath(dir));
    return dir;
  }

  /** Remembers a ledger grown from `spec`'s factory (case 1 measures the ingest that makes it). */
  keepLedger(spec: FactorySpec, ledger: IngestedLedger): void {
    this.ledgers.set(specKey(spec), ledger);
  }

  /** The ledger of `spec`'s factory, grown day by day ({@link growLedger}) the first time it is asked for. */
  ledger(spec: FactorySpec): IngestedLedger {
    return this.remembered(specKey(spec), () => {
      const factory = this.factory(spec);
      this.log(`ingesting ${formatCount(spec.events)} events day by day into a ledger the cases share`);
      return growLedger(this, factory, `ledger-${spec.events}`);
    });
  }

  /**
   * The ledger of `spec`'s factory read as the generator wrote it, in one ingest, the first time it
   * is asked for: its runs name made-up ids and link to nothing. For the memory case: serve keeps
   * no links in memory, and growing its two million events a day at a time took minutes.
   */
  unlinkedLedger(spec: FactorySpec): IngestedLedger {
    return this.remembered(`unlinked ${specKey(spec)}`, () => {
      const factory = this.factory(spec);
      this.log(`ingesting ${formatCount(spec.events)} events at once, their runs linked to nothing`);
      const dir = this.linkedFactory(factory, `unlinked-${spec.events}`);
      const db = openDb(ledgerPath(dir));
      try {
        ingestSync(db, dir, { settings: SETTINGS });
      } finally {
        checkpointAndClose(db);
      }
      return { factory, file: ledgerPath(dir) };
    });
  }

  /** The ledger kept under `key`, made by `make` the first time it is asked for. */
  private remembered(key: string, make: () => IngestedLedger): IngestedLedger {
    let ledger = this.ledgers.get(key);
    if (!ledger) this.ledgers.set(key, (ledger = make()));
    return ledger;
  }

  /** The ledger of `learnings` learnings of {@link ONE_AGENT}, filled the first time it is asked for. */
  oneAgentLedger(learnings: number): OneAgentLedger {
    let ledger = this.oneAgent.get(learnings);
    if (!ledger) {
      this.log(`filling ${formatCount(learnings)} learnings of one agent`);
      ledger = fillOneAgent(path.join(this.folder(`one-agent-${learnings}`), 'ledger.sqlite'), learnings);
      this.oneAgent.set(learnings, ledger);
    }
    return ledger;
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The table and the file

export function machineLine(): string {
  const cpus = os.cpus();
  const memory = (os.totalmem() / 1024 ** 3).toFixed(1);
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${memory} GB memory, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

/** Width of the verdict column that starts every row. */
const VERDICT = 5;

export function tableHeader(): string {
  const head = `${'ok'.padEnd(VERDICT)}case — value vs baseline = ratio (target); note`;
  return `${head}\n${'─'.repeat(100)}`;
}

function figure(n: number | null, unit: string): string {
  if (n === null) return '—';
  return `${n >= 100 || Number.isInteger(n) ? formatCount(n) : n.toFixed(n >= 10 ? 1 : 3)} ${unit}`;
}

/** A missed figure as results.json holds it, so that the table's shorter form never reads as met. */
function missedFigure(n: number | null, unit: string): string {
  if (n === null || Number.isInteger(n)) return figure(n, unit);
  return `${n} ${unit}`;
}

/** Three lines a result: verdict and case; the figures; the note. Case names are too long for columns. */
export function tableRow(r: BenchResult, note: string): string {
  const ok = r.ok === null ? '·' : r.ok ? 'yes' : 'NO';
  const indent = ' '.repeat(VERDICT);
  const missed = r.ok === false;
  const ratio = r.ratio === null ? '' : ` = ${missed ? r.ratio : r.ratio.toFixed(r.ratio < 1 ? 3 : 2)}×`;
  const baseline = r.baseline === null ? '' : ` vs ${figure(r.baseline, r.unit)}`;
  const value = missed ? missedFigure(r.value, r.unit) : figure(r.value, r.unit);
  const lines = [`${ok.padEnd(VERDICT)}${r.case}`, `${indent}${value}${baseline}${ratio} (target: ${r.target})`];
  if (note) lines.push(`${indent}${note}`);
  return lines.join('\n');
}

export function writeResults(file: string, results: readonly BenchResult[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

// ---------------------------------------------------------------------------------------------
// Cases

export interface BenchContext {
  sizes: Sizes;
  work: BenchWork;
  /** A progress line (fills, long steps), printed as it happens. */
  log: (line: string) => void;
}

export interface BenchCase {
  /** Short name for `--only`; every result's `case` starts with `<id>: `. */
  id: string;
  /** One line for the header: what is measured against what. */
  about: string;
  /** Whether it runs `serve` as a child process (which should be the build, see `bench.ts`). */
  runsServe?: boolean;
  run(ctx: BenchContext): Promise<CaseOutput> | CaseOutput;
}
