/**
 * A temporary factory with a ticking clock: each event written is one minute after the last, so
 * a test writes a history in order without spelling out times, then reads it with the CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import { jsonIn, runIn, type CliResult } from './cli.js';
import { proposed, runFinished, runStarted } from './events.js';
import { tempFactory, writeSettings } from './factory.js';

export class TestFactory {
  readonly dir: string;
  readonly remove: () => void;
  private clock = Date.parse('2026-03-01T08:00:00.000Z');
  private runSeq = 0;

  constructor(toml?: string) {
    ({ dir: this.dir, remove: this.remove } = tempFactory('layover-ledger-'));
    fs.mkdirSync(path.join(this.dir, 'events'));
    if (toml !== undefined) writeSettings(this.dir, toml);
  }

  /** The next event time (one minute after the last). */
  tick(): string {
    this.clock += 60_000;
    return new Date(this.clock).toISOString();
  }

  file(name = '2026-03-01.jsonl'): string {
    return path.join(this.dir, 'events', name);
  }

  raw(bytes: string | Buffer, name?: string): void {
    fs.appendFileSync(this.file(name), bytes);
  }

  /** Appends `fields` as one event line, dated by the clock unless it has its own `at`. */
  event(fields: Record<string, unknown>, name?: string): void {
    const { at = this.tick(), ...rest } = fields;
    this.raw(`${JSON.stringify({ at, ...rest })}\n`, name);
  }

  propose(agent: string, text: string, extra: Record<string, unknown> = {}): void {
    this.event(proposed({ at: this.tick(), agent, text, ...extra }));
  }

  start(agent: string, run = `run_${++this.runSeq}`, learnings: string[] = []): string {
    this.event(runStarted({ at: this.tick(), run, agent, learnings }));
    return run;
  }

  finish(agent: string, run: string, outcome = 'succeeded'): void {
    this.event(runFinished({ at: this.tick(), run, agent, outcome }));
  }

  /** A whole run of the agent: started and finished. */
  fullRun(agent: string): string {
    const run = this.start(agent);
    this.finish(agent, run);
    return run;
  }

  cli(...argv: string[]): Promise<CliResult> {
    return runIn(this.dir, ...argv);
  }

  json<T = unknown>(...argv: string[]): Promise<T> {
    return jsonIn<T>(this.dir, ...argv);
  }

  ingest(): Promise<{ applied: number; refused: { file: string; line: number; reason: string }[]; runs_finished: number }> {
    return this.json('ingest');
  }

  learnings(...argv: string[]): Promise<Array<Record<string, unknown> & { id: string; state: string; text: string }>> {
    return this.json('learnings', ...argv);
  }
}
