/**
 * The watcher under load (issue 10): `serve` watches a factory while another process appends
 * 2,000 event lines a second for 30 seconds, every line split across two or three writes, and
 * switches to the next day's file at a UTC midnight half-way through. When the writer is done
 * and serve has read both files to their end, every line is in the ledger exactly once.
 *
 * The real duration is kept: a shorter burst would not show whether a watcher that lags behind a
 * steady writer catches up, nor whether it ever reads half a line. The event times are set
 * around the midnight before today, so the sweeps serve runs (which read the clock) keep them.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { caughtUp, startServe } from '../support/serve.js';
import { eventually, tempFactory, type TempFactory } from '../support/factory.js';
import { queryLedger } from '../support/ledger.js';
import { REPO } from '../support/spawnCli.js';
import { LINES_PER_RUN, lineAt, lineFile, type WriterPlan } from '../support/steadyWriter.js';

const LINES_PER_SECOND = 2_000;
const WRITE_SECONDS = 30;
const LINES = LINES_PER_SECOND * WRITE_SECONDS;
/** Longest wait for serve to read the last lines once the writer is done (a hang guard, not a target). */
const CATCH_UP_LIMIT_MS = 40_000;

const factories: TempFactory[] = [];
afterAll(() => {
  for (const f of factories) f.remove();
});

/** Runs the writer process to its end; resolves with the bytes it wrote. */
function runWriter(factory: string, plan: WriterPlan): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'test', 'support', 'steadyWriter.ts'), factory, JSON.stringify(plan)], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const done = /^done (\d+) (\d+)$/m.exec(stdout);
      if (code === 0 && done) resolve(Number(done[2]));
      else reject(new Error(`the writer exited ${code}: ${stderr.trim()}`));
    });
  });
}

/** The midnight that starts today (UTC). */
function lastMidnight(): string {
  return `${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`;
}

describe('the watcher under a steady writer', () => {
  it('applies every line exactly once when 2,000 lines/s for 30 s arrive split across writes and the day file changes at a UTC midnight', async () => {
    const temp = tempFactory('layover-load-');
    factories.push(temp);
    const factory = temp.dir;
    fs.mkdirSync(path.join(factory, 'events'));
    const plan: WriterPlan = { lines: LINES, durationMs: WRITE_SECONDS * 1000, midnightLine: LINES / 2, midnight: lastMidnight() };
    const days = [lineFile(plan, 0), lineFile(plan, LINES - 1)];
    expect(days[0]).not.toBe(days[1]);

    const serve = await startServe(factory);
    try {
      await eventually(async () => caughtUp((await serve.info()).value), 'serve watches the empty factory', 20_000);
      const bytes = await runWriter(factory, plan);
      const sizes = days.map((day) => fs.statSync(path.join(factory, 'events', day)).size);
      expect(sizes[0]! + sizes[1]!).toBe(bytes);
      await eventually(
        () => {
          const read = queryLedger<{ name: string; offset: number }>(factory, 'SELECT name, offset FROM event_files ORDER BY name');
          return read.length === 2 && read.every((file, i) => file.name === days[i] && file.offset === sizes[i]);
        },
        'serve has read both day files to their end',
        CATCH_UP_LIMIT_MS,
      );
    } finally {
      await serve.stop();
    }

    const runs = LINES / LINES_PER_RUN;
    expect(queryLedger(factory, 'SELECT file, line, reason FROM refused_lines')).toEqual([]);
    expect(queryLedger(factory, 'SELECT name, lines FROM event_files ORDER BY name')).toEqual([
      { name: days[0], lines: LINES / 2 },
      { name: days[1], lines: LINES / 2 },
    ]);
    expect(queryLedger(factory, "SELECT count(*) AS n, count(DISTINCT run) AS distinct_runs, count(finished_at) AS finished FROM runs WHERE outcome = 'succeeded'")).toEqual([
      { n: runs, distinct_runs: runs, finished: runs },
    ]);
    const proposals = queryLedger<{ at: string; outcome: string }>(factory, 'SELECT at, outcome FROM proposals ORDER BY at');
    const expectedAts = Array.from({ length: LINES }, (_, i) => i)
      .filter((i) => i % LINES_PER_RUN === 1 || i % LINES_PER_RUN === 2)
      .map((i) => lineAt(plan, i));
    expect(proposals.map((p) => p.at)).toEqual(expectedAts);
    expect(proposals.filter((p) => p.outcome === 'refused')).toEqual([]);
  }, 90_000);
});
