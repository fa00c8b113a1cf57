/**
 * `layover-desk serve` as a child process: the host as the operator runs it, reached from outside
 * through its HTTP API with the token it prints. The benchmark and the soak measure it this way,
 * and the integration tests that kill or load it and the end-to-end specs in the browser start it
 * here too, so that there is one way to start it, read its address and stop it.
 *
 * It runs the build (`bin/layover-desk.js`) when the build is current, as the issue asks, since
 * that is what ships; a stale or missing build would measure other code, so then it runs the
 * sources through tsx instead and the bench says so in its header (`npm run build` first for
 * figures of the shipped program). Which of the two is decided when the header names it and kept
 * for the run (`sourcesReason`), so the header never names another program than the one measured.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeskInfo } from '../../shared/api.js';
import { sourcesReason, spawnCli } from './spawnCli.js';
import { TOKEN_HEADER } from '../../electron/node/host/guards.js';

/** Longest wait for serve to print its URL, and to stop once asked. */
const START_LIMIT_MS = 60_000;
const STOP_LIMIT_MS = 10_000;
/**
 * Longest one call may take before it is given up as unanswered: far beyond any answer of a live
 * serve, so it only ends a call to a serve that was killed under it without the connection
 * closing (then the caller sees an error instead of waiting for ever).
 */
const CALL_LIMIT_MS = 20_000;
const URL_LINE = /^Open (http:\/\/127\.0\.0\.1:\d+)\/\?token=([A-Za-z0-9_-]+)$/mu;

/** Which program the serve cases run, for the header: chosen once for the whole run (`sourcesReason`). */
export function serveProgram(): string {
  const reason = sourcesReason();
  return reason === null ? 'the build (bin/layover-desk.js)' : `the sources through tsx, because ${reason} (npm run build first to measure the build)`;
}

export interface RunningServe {
  pid: number;
  /** The address it printed, token included: what the operator opens. */
  url: string;
  /** Where its API answers, and the token it takes (for a caller in another thread: callerOf). */
  origin: string;
  token: string;
  /** One API call; its answer's `value`, and how long the answer took in ms. */
  call<T>(channel: string, input?: unknown): Promise<{ ms: number; value: T }>;
  info(): Promise<{ ms: number; value: DeskInfo }>;
  /** Resident and peak memory of the process, from /proc (Linux), in MB. */
  memory(): { rss: number; peak: number };
  /** Asks it to stop (SIGTERM; SIGKILL if it has not exited in time) and settles with its exit code (null if a signal ended it). */
  stop(): Promise<number | null>;
}

/** An answer of serve's API and how long it took, in ms. */
export type Call = <T>(channel: string, input?: unknown) => Promise<{ ms: number; value: T }>;

/** Calls serve's API at `origin` with its `token`, timing each answer from the request to the parsed reply. */
export function callerOf(origin: string, token: string): Call {
  return async <T>(channel: string, input: unknown = {}): Promise<{ ms: number; value: T }> => {
    const start = performance.now();
    const response = await fetch(`${origin}/api/call/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
      body: JSON.stringify(input),
      signal: AbortSignal.timeout(CALL_LIMIT_MS),
    });
    const envelope = (await response.json()) as { ok: true; value: T } | { ok: false; error: { message: string } };
    const ms = performance.now() - start;
    if (!envelope.ok) throw new Error(`serve refused ${channel}: ${envelope.error.message}`);
    return { ms, value: envelope.value };
  };
}

/** Starts `serve` on `factory` on a free port, with `extraArgs` after those (e.g. `--create`). */
export async function startServe(factory: string, extraArgs: readonly string[] = []): Promise<RunningServe> {
  const child: ChildProcess = spawnCli(['serve', '--factory', factory, '--port', '0', ...extraArgs]);
  /**
   * Settles once serve has exited, however it ended and however late it is awaited. `stop()`
   * waits on this rather than on a fresh 'exit' listener guarded by `exitCode`: a process ended
   * by a signal keeps `exitCode` null (the signal is in `signalCode`) and 'exit' fires only once,
   * so when a SIGKILL's exit was already seen, such a guard waited for ever (the rare hang of
   * serveKill.test.ts, which kills serve and then stops it).
   */
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const { origin, token } = await new Promise<{ origin: string; token: string }>((resolve, reject) => {
    const limit = setTimeout(() => reject(new Error(`serve printed no URL within ${START_LIMIT_MS / 1000} s: ${stderr.trim() || stdout.trim()}`)), START_LIMIT_MS);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = URL_LINE.exec(stdout);
      if (found) {
        clearTimeout(limit);
        resolve({ origin: found[1]!, token: found[2]! });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(limit);
      reject(new Error(`serve exited (${code}) before it listened: ${stderr.trim()}`));
    });
  });
  const call = callerOf(origin, token);
  const pid = child.pid!;
  return {
    pid,
    url: `${origin}/?token=${token}`,
    origin,
    token,
    call,
    info: () => call<DeskInfo>('desk.info'),
    memory() {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'mu').exec(status)?.[1] ?? Number.NaN);
      return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
    },
    async stop() {
      // Once serve has exited, `kill` sends nothing (it cannot reach another process that took the pid).
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_LIMIT_MS);
      child.kill('SIGTERM');
      const code = await exited;
      clearTimeout(kill);
      return code;
    },
  };
}

/**
 * Whether serve's watcher has read every event file to its end. A watcher in error will never
 * get there: that throws, with its reason, rather than leaving a case waiting for ever.
 */
export function caughtUp(info: DeskInfo): boolean {
  if (info.watcher.state === 'error') throw new Error(`serve's watcher stopped: ${info.watcher.error ?? 'no reason given'}`);
  return info.watcher.state === 'watching' && info.watcher.done_bytes >= info.watcher.total_bytes;
}

/** Longest a catch-up may take before a case gives up on it (far beyond any target: a hang guard). */
const CATCH_UP_LIMIT_MS = 30 * 60_000;

/**
 * Calls `desk.info` every `everyMs` (start to start; at once after a slow answer) until serve
 * reports it has caught up, handing each answer's time to `onAnswer` — also the last, which
 * says it is done. Throws if the watcher fails or the catch-up outlasts the limit.
 */
export async function pingUntilCaughtUp(
  info: () => Promise<{ ms: number; value: DeskInfo }>,
  everyMs: number,
  onAnswer: (ms: number, done: boolean) => void,
): Promise<void> {
  const deadline = performance.now() + CATCH_UP_LIMIT_MS;
  for (;;) {
    const started = performance.now();
    if (started > deadline) throw new Error(`serve did not catch up within ${CATCH_UP_LIMIT_MS / 60_000} minutes`);
    const { ms, value } = await info();
    const done = caughtUp(value);
    onAnswer(ms, done);
    if (done) return;
    await sleep(Math.max(0, everyMs - (performance.now() - started)));
  }
}
