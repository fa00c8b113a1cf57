/**
 * A factory on disk for the tests: a fresh temporary folder, event lines appended the way the
 * factory appends them, and waiting for what a running Desk or watcher does by itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface TempFactory {
  dir: string;
  remove(): void;
}

/** A fresh, empty factory folder; `remove()` deletes it. */
export function tempFactory(prefix = 'layover-test-'): TempFactory {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Appends events as the factory does: one JSON line each, in the file of their UTC day, in the order given. */
export function appendEvents(factory: string, ...events: Record<string, unknown>[]): void {
  const dir = path.join(factory, 'events');
  fs.mkdirSync(dir, { recursive: true });
  for (const event of events) {
    const day = String(event.at).slice(0, 10);
    fs.appendFileSync(path.join(dir, `${day}.jsonl`), `${JSON.stringify(event)}\n`);
  }
}

/** The same events in time order (`at`), as a factory writing them as they happen would. */
export function inTimeOrder<E extends { at: unknown }>(events: readonly E[]): E[] {
  return [...events].sort((a, b) => (String(a.at) < String(b.at) ? -1 : String(a.at) > String(b.at) ? 1 : 0));
}

/** Writes `layover.toml` into the factory. */
export function writeSettings(factory: string, toml: string): void {
  fs.writeFileSync(path.join(factory, 'layover.toml'), toml);
}

/**
 * Waits until `check` returns a value (not undefined / false) and returns it, failing after `ms`
 * with `what` in the message, rather than sleeping a fixed time; `what` may be a function, called
 * only on failure, to say what was seen by then. The default wait is long enough for a watcher to
 * notice a change and its worker to ingest it on a machine busy with the rest of the suite; a
 * passing check returns as soon as it holds, so only a failure waits it out.
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  what: string | (() => string) = 'the condition holds',
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting until ${typeof what === 'string' ? what : what()}`);
    await sleep(20);
  }
}
