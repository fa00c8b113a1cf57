/**
 * A killed ingest ends in the same ledger as an uninterrupted one: the CLI is started as a child
 * process and SIGKILLed at random moments many times, then allowed to finish; the ledger is
 * compared, by its stable fields, with one ingest of the same files in one go.
 *
 * The child is the compiled CLI when the build is current (a fraction of a second to start),
 * else the sources through tsx (over a second each), with the time allowed scaled to match.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ingestSync } from '../../electron/node/ingest.js';
import { ledgerPath, openDb, type Db } from '../../electron/node/store/db.js';
import { parseSettingsToml, type Settings } from '../../electron/rules/settings.js';
import { tempFactory, writeSettings, type TempFactory } from '../support/factory.js';
import { cliStartAllowanceMs, spawnCli } from '../support/spawnCli.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';

const TOML = '[learnings]\nprovisional_runs = 3\nconfirm_after = 2\n';
/** Kills that must land while an ingest is under way (it has committed a batch and not exited). */
const KILLS = 10;
/** Attempts allowed for them: a kill can come too late, after the child has finished. */
const ATTEMPTS = 30;
/** A kill comes up to this long after the child's first commit. */
const KILL_SPREAD_MS = 40;
const factories: TempFactory[] = [];
afterAll(() => {
  for (const f of factories) f.remove();
});


const CLAIMS = [
  'Clear the build cache when the compiler reports phantom type errors after a branch switch.',
  'The staging database resets every night at 02:00 UTC, so schedule long migrations earlier.',
  'Pin the container base image by digest so rebuilds pick up the same system libraries.',
  'The flaky upload test passes when the mock server is started before the fixtures load.',
  'Use the read replica for analytics queries, the primary times out on full table scans.',
  'Run the linter with the cache disabled after upgrading any eslint plugin version.',
];

/** Runs in the history: enough lines that ten kills a few batches apart still land mid-ingest. */
const RUNS = 800;

function writeEvents(factory: string): number {
  const rand = seededRandom(7);
  fs.mkdirSync(path.join(factory, 'events'), { recursive: true });
  writeSettings(factory, TOML);
  let t = Date.parse('2026-04-01T00:00:00Z');
  let lines = 0;
  let out = '';
  let file = '2026-04-01.jsonl';
  const flush = () => {
    fs.appendFileSync(path.join(factory, 'events', file), out);
    out = '';
  };
  const emit = (e: Record<string, unknown>) => {
    t += 30_000;
    out += `${JSON.stringify({ at: new Date(t).toISOString(), ...e })}\n`;
    lines++;
  };
  const agents = ['builder', 'reviewer', 'scout'];
  for (let i = 0; i < RUNS; i++) {
    if (i === RUNS / 2) {
      flush();
      file = '2026-04-02.jsonl';
    }
    const agent = agents[i % 3]!;
    const run = `run_${i}`;
    emit({ type: 'run.started', run, agent, chain: `chn_${Math.floor(i / 6)}`, workflow: 'w', flags: { n: i }, routes: [], learnings: [] });
    const k = Math.floor(rand() * 3);
    for (let j = 0; j < k; j++) {
      const claim = CLAIMS[Math.floor(rand() * CLAIMS.length)]!;
      emit({ type: 'learning.proposed', agent, text: rand() < 0.5 ? claim : claim.toLowerCase(), impact: 'medium', run });
    }
    if (rand() < 0.05) emit({ type: 'help.requested', id: `hlp_${i}`, agent, run, chain: `chn_${Math.floor(i / 6)}`, fatal: rand() < 0.5, question: 'Which way?' });
    if (rand() < 0.03) {
      out += '{"type": "broken\n';
      lines++;
    }
    emit({ type: 'run.finished', run, agent, outcome: rand() < 0.8 ? 'succeeded' : 'failed' });
  }
  flush();
  return lines;
}

function snapshot(db: Db): unknown {
  const all = (sql: string) => db.prepare(sql).all();
  return {
    learnings: all(`SELECT agent, text, impact, state, proposals, rediscoveries, echoes, runs_left, first_at, last_at,
      live_since, lapsed_at FROM learnings ORDER BY agent, first_at, text`),
    proposals: all(`SELECT p.at, p.agent, p.run, p.text, p.outcome, p.reason, l.text AS learning
      FROM proposals p LEFT JOIN learnings l ON l.id = p.learning_id ORDER BY p.seq`),
    history: all(`SELECT h.at, h.kind, h.run, h.state_before, h.state_after, l.text FROM learning_history h
      JOIN learnings l ON l.id = h.learning_id ORDER BY h.seq`),
    runs: all('SELECT run, seq, agent, chain, flags, started_at, finished_at, outcome FROM runs ORDER BY seq'),
    help: all('SELECT id, agent, run, chain, fatal, state, workflow, flags FROM help_requests ORDER BY id'),
    refused: all('SELECT file, line, reason FROM refused_lines ORDER BY seq'),
    files: all('SELECT name, offset, lines FROM event_files ORDER BY name'),
  };
}

/** Runs the CLI ingest; with `killAfterMs`, SIGKILLs it that long after it has committed its first batch. */
function runChild(factory: string, killAfterMs: number | null): Promise<{ code: number | null; killed: boolean }> {
  const start = progress(factory);
  return new Promise((resolve, reject) => {
    const child = spawnCli(['ingest', '--batch', '3', '--factory', factory], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    let timer: NodeJS.Timeout | null = null;
    if (killAfterMs !== null) {
      const watch = setInterval(() => {
        if (progress(factory) > start) {
          clearInterval(watch);
          timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
        }
      }, 10);
      child.on('exit', () => clearInterval(watch));
    }
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (code !== null && code !== 0) reject(new Error(`ingest exited ${code}: ${stderr}`));
      else resolve({ code, killed: signal === 'SIGKILL' });
    });
  });
}

describe('a killed ingest', () => {
  it('ends, after many SIGKILLs at random moments, in the same ledger as an uninterrupted ingest', async () => {
    const killedFactory = tempFactory('layover-kill-');
    const calmFactory = tempFactory('layover-calm-');
    factories.push(killedFactory, calmFactory);
    const killed = killedFactory.dir;
    const calm = calmFactory.dir;
    const lines = writeEvents(killed);
    expect(lines).toBeGreaterThan(2400);
    fs.cpSync(path.join(killed, 'events'), path.join(calm, 'events'), { recursive: true });

    const rand = seededRandom(99);
    let interrupted = 0;
    for (let i = 0; i < ATTEMPTS && interrupted < KILLS; i++) {
      const before = progress(killed);
      const result = await runChild(killed, Math.round(rand() * KILL_SPREAD_MS));
      const after = progress(killed);
      if (result.killed && after > before) interrupted++;
      if (!result.killed) break; // it finished first: nothing is left to interrupt
    }
    await runChild(killed, null);
    expect(interrupted).toBeGreaterThanOrEqual(KILLS);

    const settings = parseSettingsToml(TOML) as { settings: Settings };
    const calmDb = openDb(ledgerPath(calm));
    ingestSync(calmDb, calm, { settings: settings.settings });
    const killedDb = openDb(ledgerPath(killed));
    try {
      const a = snapshot(calmDb) as { learnings: unknown[]; refused: unknown[] };
      expect(a.learnings.length).toBeGreaterThan(3);
      expect(a.refused.length).toBeGreaterThan(3);
      expect(snapshot(killedDb)).toEqual(a);
    } finally {
      calmDb.close();
      killedDb.close();
    }
  }, 20_000 + (KILLS + 1) * cliStartAllowanceMs());
});

/**
 * Bytes of events committed so far, or 0 while the ledger is being created. Each look opens the
 * ledger read-only and closes it at once: a reader kept open beside the children could be the
 * one left holding the log after a kill.
 */
function progress(factory: string): number {
  const file = ledgerPath(factory);
  if (!fs.existsSync(file)) return 0;
  let db: Db;
  try {
    db = openDb(file, { readonly: true });
  } catch {
    return 0; // being created by the child right now
  }
  try {
    return (db.prepare('SELECT coalesce(sum(offset), 0) AS n FROM event_files').get() as { n: number }).n;
  } catch {
    return 0; // its tables are being created
  } finally {
    db.close();
  }
}
