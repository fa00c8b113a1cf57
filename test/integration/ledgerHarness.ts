/** A temporary factory, an events writer with a ticking clock, and the CLI run in-process. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../electron/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class TestFactory {
  readonly dir: string;
  private clock = Date.parse('2026-03-01T08:00:00.000Z');
  private runSeq = 0;

  constructor(toml?: string) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-ledger-'));
    fs.mkdirSync(path.join(this.dir, 'events'));
    if (toml !== undefined) fs.writeFileSync(path.join(this.dir, 'layover.toml'), toml);
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

  event(fields: Record<string, unknown>, name?: string): void {
    this.raw(`${JSON.stringify({ at: this.tick(), ...fields })}\n`, name);
  }

  propose(agent: string, text: string, extra: Record<string, unknown> = {}): void {
    this.event({ type: 'learning.proposed', agent, text, impact: 'medium', ...extra });
  }

  start(agent: string, run = `run_${++this.runSeq}`, learnings: string[] = []): string {
    this.event({ type: 'run.started', run, agent, chain: `chn_${run}`, workflow: 'w', flags: {}, routes: [], learnings });
    return run;
  }

  finish(agent: string, run: string, outcome = 'succeeded'): void {
    this.event({ type: 'run.finished', run, agent, outcome });
  }

  /** A whole run of the agent: started and finished. */
  fullRun(agent: string): string {
    const run = this.start(agent);
    this.finish(agent, run);
    return run;
  }

  async cli(...argv: string[]): Promise<CliResult> {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...argv, '--factory', this.dir], {
      stdout: (t) => (stdout += t),
      stderr: (t) => (stderr += t),
      env: {},
      cwd: this.dir,
      signal: new AbortController().signal,
    });
    return { code, stdout, stderr };
  }

  async json<T = unknown>(...argv: string[]): Promise<T> {
    const r = await this.cli(...argv, '--json');
    if (r.code !== 0) throw new Error(`${argv.join(' ')} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  }

  async ingest(): Promise<{ applied: number; refused: { file: string; line: number; reason: string }[] }> {
    return this.json('ingest');
  }

  async learnings(...argv: string[]): Promise<Array<Record<string, unknown> & { id: string; state: string; text: string }>> {
    return this.json('learnings', ...argv);
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Waits until `condition` holds, failing after a deadline rather than sleeping a fixed time. */
export async function eventually(condition: () => boolean | Promise<boolean>, what: string, deadlineMs = 5000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
