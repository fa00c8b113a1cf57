/**
 * A temporary factory with a ticking clock, the one factory the tests write histories in: each
 * event written is one step after the last, so a test writes a history in order without spelling
 * out times, then reads it with the CLI or opens a Desk on it (test/component/realDesk.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { jsonIn, runIn, type CliResult } from './cli.js';
import { helpRequested, proposed, runFinished, runStarted, type EventLine } from './events.js';
import { appendEvents, tempFactory, writeSettings } from './factory.js';

/** Where a factory's clock starts (ms since the epoch) and how far each event time is after the last. */
export interface FactoryClock {
  startMs: number;
  stepMs: number;
}

/**
 * The clock of a history that needs no real time: a fixed morning, a minute between events, so
 * its times (and its one events file, `2026-03-01.jsonl`) are the same at every run.
 */
export const FIXED_CLOCK: FactoryClock = { startMs: Date.parse('2026-03-01T08:00:00.000Z'), stepMs: 60_000 };

export interface TestFactoryOptions {
  /** `layover.toml`, written before anything else. */
  settings?: string;
  clock?: FactoryClock;
  /** The start of the temporary folder's name, to tell whose it is. */
  prefix?: string;
}

/** A help request as `ask` writes it: the run asking inherits `workflow`, `flags` and `routes`. */
export interface AskOptions {
  id: string;
  agent?: string;
  question?: string;
  fatal?: boolean;
  workflow?: string;
  flags?: Record<string, unknown>;
  routes?: string[];
}

/** A learning as `layover-desk learnings --json` lists it (the fields the tests read by name). */
export type ListedLearning = Record<string, unknown> & { id: string; agent: string; state: string; text: string };

export class TestFactory {
  readonly dir: string;
  readonly remove: () => void;
  private clock: number;
  private readonly stepMs: number;
  /** The events file `event` and `raw` write to unless named: the one of the clock's first day. */
  private readonly firstFile: string;
  private runSeq = 0;

  constructor(options: TestFactoryOptions = {}) {
    const { settings, clock = FIXED_CLOCK, prefix = 'layover-ledger-' } = options;
    ({ dir: this.dir, remove: this.remove } = tempFactory(prefix));
    this.clock = clock.startMs;
    this.stepMs = clock.stepMs;
    this.firstFile = `${new Date(clock.startMs).toISOString().slice(0, 10)}.jsonl`;
    fs.mkdirSync(path.join(this.dir, 'events'));
    if (settings !== undefined) writeSettings(this.dir, settings);
  }

  /** The next event time, one step after the last. */
  at(): string {
    this.clock += this.stepMs;
    return new Date(this.clock).toISOString();
  }

  file(name = this.firstFile): string {
    return path.join(this.dir, 'events', name);
  }

  /** Appends raw bytes to an events file (a line a factory wrote wrongly, half a line, bad UTF-8). */
  raw(bytes: string | Buffer, name?: string): void {
    fs.appendFileSync(this.file(name), bytes);
  }

  /** Appends `fields` as one event line to one events file, dated by the clock unless it has its own `at`. */
  event(fields: Record<string, unknown>, name?: string): void {
    const { at = this.at(), ...rest } = fields;
    this.raw(`${JSON.stringify({ at, ...rest })}\n`, name);
  }

  /** Appends whole event lines as the factory does: each in the file of its UTC day, in the order given. */
  write(...events: EventLine[]): void {
    appendEvents(this.dir, ...events);
  }

  propose(agent: string, text: string, extra: Record<string, unknown> = {}): void {
    this.event(proposed({ at: this.at(), agent, text, ...extra }));
  }

  start(agent: string, run = `run_${++this.runSeq}`, learnings: string[] = []): string {
    this.event(runStarted({ at: this.at(), run, agent, learnings }));
    return run;
  }

  finish(agent: string, run: string, outcome = 'succeeded'): void {
    this.event(runFinished({ at: this.at(), run, agent, outcome }));
  }

  /** A whole run of the agent: started and finished. */
  fullRun(agent: string): string {
    const run = this.start(agent);
    this.finish(agent, run);
    return run;
  }

  /**
   * A run that asks for help and waits: its request inherits the run's workflow, flags and
   * routes (a release run allowed to publish, by default).
   */
  ask(request: AskOptions): void {
    const run = `run_${request.id}`;
    const chain = `chain_${request.id}`;
    const { agent = 'builder', workflow = 'release', flags = { publish: true, tier: 'gold' }, routes = ['main'], ...asked } = request;
    this.write(
      runStarted({ at: this.at(), run, agent, chain, workflow, flags, routes }),
      helpRequested({ at: this.at(), agent, run, chain, ...asked }),
    );
  }

  /**
   * A request from a run the ledger never saw start (an older factory's): its workflow and flags
   * are unknown, so a reply must state them.
   */
  askUnknown(request: Omit<AskOptions, 'workflow' | 'flags' | 'routes'>): void {
    const { agent = 'builder', ...asked } = request;
    this.write(helpRequested({ at: this.at(), agent, run: `run_${request.id}`, chain: `chain_${request.id}`, ...asked }));
  }

  /** Runs `layover-desk ARGV --factory DIR`, whatever its exit code. */
  cli(...argv: string[]): Promise<CliResult> {
    return runIn(this.dir, ...argv);
  }

  /** Runs `layover-desk ARGV --factory DIR`, requiring it to succeed. */
  async ok(...argv: string[]): Promise<CliResult> {
    const result = await this.cli(...argv);
    if (result.code !== 0) throw new Error(`layover-desk ${argv.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result;
  }

  /** Runs `layover-desk ARGV --json --factory DIR`, requiring it to succeed, and parses what it printed. */
  json<T = unknown>(...argv: string[]): Promise<T> {
    return jsonIn<T>(this.dir, ...argv);
  }

  /** Takes up what the events files hold, as `layover-desk ingest` does. */
  ingest(): Promise<{ applied: number; refused: { file: string; line: number; reason: string }[]; runs_finished: number }> {
    return this.json('ingest');
  }

  /** The learnings the ledger holds, as `layover-desk learnings --json ARGV` lists them. */
  learnings(...argv: string[]): Promise<ListedLearning[]> {
    return this.json('learnings', ...argv);
  }
}
