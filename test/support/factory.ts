/**
 * What the integration tests share: a temporary factory on disk, the CLI run in-process against
 * it, and event lines appended the way the factory appends them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../electron/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fresh, empty factory folder; `remove()` deletes it. */
export function tempFactory(prefix = 'layover-test-'): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `layover-desk ARGV --factory DIR` in this process and captures what it printed. */
export async function runIn(factory: string, ...argv: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv, '--factory', factory], {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env: {},
    cwd: factory,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

/** Appends events as the factory does: one JSON line each, in the file of their UTC day. */
export function appendEvents(factory: string, ...events: Record<string, unknown>[]): void {
  const dir = path.join(factory, 'events');
  fs.mkdirSync(dir, { recursive: true });
  for (const event of events) {
    const day = String(event.at).slice(0, 10);
    fs.appendFileSync(path.join(dir, `${day}.jsonl`), `${JSON.stringify(event)}\n`);
  }
}

/** Waits until `check` returns a value (not undefined/false), or fails after `ms`. */
export async function eventually<T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
