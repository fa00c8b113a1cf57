/**
 * `npm run soak [-- --minutes N]`: `serve` for N minutes (default 10) under a steady stream of
 * events and window calls, to show it does not leak (issue 10). Not part of the test run: it
 * takes minutes by design.
 *
 * `serve` runs as the operator runs it (the build when current, else the sources; the header
 * says which) on a fresh factory. Every `TICK_MS` the soak appends a few event lines to the day
 * file (runs, proposals, now and then a fatal help request) and makes the calls a window makes
 * (status, the lists, a detail), answering each fatal request as it arrives: reads and a
 * person's writes, the watcher, the outbox and the journal all stay busy.
 *
 * It prints serve's resident memory (RSS, from /proc/PID/status) and its open handles (entries of
 * /proc/PID/fd) at start, once warmed up and at the end, and exits 1 if either grew from the
 * warmed-up figure to the end by more than its bound (below), or if serve failed a call or did
 * not read every line. Growth is measured from after a warm-up, not from the start: V8 and SQLite
 * fill their heaps and caches in the first seconds, and that growth is not a leak. Linux only
 * (/proc).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { caughtUp, serveProgram, startServe, type RunningServe } from '../support/serve.js';
import { helpRequested, proposed, runFinished, runStarted, type EventLine } from '../support/events.js';

const DEFAULT_MINUTES = 10;
/** Time between two rounds of appends and calls, start to start. */
const TICK_MS = 100;
/** Runs started per tick, each with a proposal and its finish: 30 lines a second. */
const RUNS_PER_TICK = 1;
/** Every this many runs asks a fatal help request, which the soak then answers. */
const HELP_EVERY_RUNS = 20;
/** Warm-up before the first figures: the heap and SQLite's page cache settle in the first seconds. */
const WARM_UP_MS = 15_000;
/**
 * Most RSS may grow from the warmed-up figure to the end. A leak of one retained object per call
 * or line would pass it within minutes (tens of thousands of calls); the heap's normal breathing
 * (garbage collection runs, SQLite's page cache of each connection, at most a few MB) stays under.
 */
const MOST_RSS_GROWTH_MB = 48;
/**
 * Most open handles may grow: a few for sockets of HTTP calls being answered at that moment and
 * the ledger's WAL files; a handle leaked per call or per event would pass it within a minute.
 */
const MOST_HANDLE_GROWTH = 12;
/** Longest wait for serve to read the last lines once the stream stops (a hang guard). */
const CATCH_UP_LIMIT_MS = 60_000;

const TEXTS = [
  'Clear the build cache when the compiler reports phantom type errors after a branch switch.',
  'Pin the container base image by digest so rebuilds pick up the same system libraries.',
  'Use the read replica for analytics queries, the primary times out on full table scans.',
  'Run the linter with the cache disabled after upgrading any eslint plugin version.',
];
const AGENTS = ['builder', 'reviewer', 'scout'];

interface Figures {
  rssMb: number;
  handles: number;
}

function figures(serve: RunningServe): Figures {
  return { rssMb: serve.memory().rss, handles: fs.readdirSync(`/proc/${serve.pid}/fd`).length };
}

function minutesOption(): number {
  const { values } = parseArgs({ options: { minutes: { type: 'string' } } });
  const minutes = Number(values.minutes ?? DEFAULT_MINUTES);
  if (!Number.isFinite(minutes) || minutes <= 0) {
    console.error(`soak: --minutes must be a positive number, not '${values.minutes}'`);
    process.exit(2);
  }
  return minutes;
}

/** The stream of events: `RUNS_PER_TICK` runs per call, each with a proposal, some with a fatal help request. */
class EventStream {
  runs = 0;
  lines = 0;
  readonly helpIds: string[] = [];

  constructor(private readonly dir: string) {}

  append(): void {
    const events: EventLine[] = [];
    for (let i = 0; i < RUNS_PER_TICK; i++) {
      const n = this.runs++;
      const at = new Date().toISOString();
      const run = `run_${n}`;
      const agent = AGENTS[n % AGENTS.length]!;
      events.push(runStarted({ at, run, agent, chain: `chn_${n}` }), proposed({ at, agent, run, text: TEXTS[n % TEXTS.length]! }));
      if (n % HELP_EVERY_RUNS === 0) {
        const id = `hlp_${n}`;
        events.push(helpRequested({ at, id, agent, run, chain: `chn_${n}`, fatal: true }));
        this.helpIds.push(id);
      }
      events.push(runFinished({ at, run, agent }));
    }
    this.lines += events.length;
    // One file per UTC day, as the factory writes them; a soak across midnight switches files too.
    const file = path.join(this.dir, `${new Date().toISOString().slice(0, 10)}.jsonl`);
    fs.appendFileSync(file, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
  }
}

/** One round of the calls a window makes while it is open, and a reply to each fatal request that arrived. */
async function windowCalls(serve: RunningServe, stream: EventStream, answered: Set<string>): Promise<number> {
  await serve.info();
  await serve.call('learnings.query', { filter: {}, sort: 'last_at', dir: 'desc', offset: 0, limit: 50 });
  await serve.call('help.list', { open: true, offset: 0, limit: 50 });
  const runs = await serve.call<{ rows: { run: string }[] }>('runs.list', { offset: 0, limit: 50 });
  await serve.call('chains.list', { offset: 0, limit: 50 });
  const newest = runs.value.rows[0];
  if (newest) await serve.call('runs.detail', { run: newest.run });
  let calls = 6;
  for (const id of stream.helpIds) {
    if (answered.has(id)) continue;
    try {
      await serve.call('help.reply', { id, answer: `Use the bot token (${id}).`, by: 'soak' });
    } catch (error) {
      if (/no help request/.test((error as Error).message)) continue; // not read yet: next round
      throw error;
    }
    answered.add(id);
    calls++;
  }
  return calls;
}

function report(label: string, f: Figures): void {
  console.log(`${label}: RSS ${f.rssMb.toFixed(1)} MB, ${f.handles} open handles`);
}

async function main(): Promise<number> {
  const minutes = minutesOption();
  const factory = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-soak-'));
  const events = path.join(factory, 'events');
  fs.mkdirSync(events);
  console.log(`soak: serve for ${minutes} min on ${factory}, running ${serveProgram()}`);
  const serve = await startServe(factory);
  let failed = false;
  try {
    report('at start', figures(serve));
    const stream = new EventStream(events);
    const answered = new Set<string>();
    const started = performance.now();
    const end = started + minutes * 60_000;
    let calls = 0;
    let first: Figures | null = null;
    while (performance.now() < end) {
      const tick = performance.now();
      stream.append();
      calls += await windowCalls(serve, stream, answered);
      if (!first && tick - started >= WARM_UP_MS) {
        first = figures(serve);
        report(`after ${WARM_UP_MS / 1000} s warm-up`, first);
      }
      await sleep(Math.max(0, TICK_MS - (performance.now() - tick)));
    }
    const deadline = performance.now() + CATCH_UP_LIMIT_MS;
    for (;;) {
      const done = caughtUp((await serve.info()).value);
      calls += await windowCalls(serve, stream, answered);
      if (done && answered.size === stream.helpIds.length) break;
      if (performance.now() > deadline) throw new Error(`serve did not read the last lines within ${CATCH_UP_LIMIT_MS / 1000} s`);
      await sleep(TICK_MS);
    }
    const last = figures(serve);
    if (!first) throw new Error(`the soak is shorter than its ${WARM_UP_MS / 1000} s warm-up: give more --minutes`);
    report('at the end', last);
    const runs = (await serve.call<{ total: number }>('runs.list', { offset: 0, limit: 1 })).value.total;
    console.log(`${stream.lines} event lines (${runs} runs read), ${calls} window calls, ${answered.size} replies`);
    const growth = { rssMb: last.rssMb - first.rssMb, handles: last.handles - first.handles };
    console.log(`growth: RSS ${growth.rssMb.toFixed(1)} MB (bound ${MOST_RSS_GROWTH_MB}), handles ${growth.handles} (bound ${MOST_HANDLE_GROWTH})`);
    if (growth.rssMb > MOST_RSS_GROWTH_MB) {
      console.error(`soak: serve's memory grew by ${growth.rssMb.toFixed(1)} MB, more than ${MOST_RSS_GROWTH_MB} MB`);
      failed = true;
    }
    if (growth.handles > MOST_HANDLE_GROWTH) {
      console.error(`soak: serve's open handles grew by ${growth.handles}, more than ${MOST_HANDLE_GROWTH}`);
      failed = true;
    }
    if (runs !== stream.runs) {
      console.error(`soak: serve holds ${runs} runs of the ${stream.runs} written: lines were lost`);
      failed = true;
    }
  } catch (error) {
    const state = fs.existsSync(`/proc/${serve.pid}`) ? 'still running' : 'gone';
    throw new Error(`${(error as Error).message} (serve, pid ${serve.pid}, is ${state})`, { cause: error });
  } finally {
    await serve.stop();
    fs.rmSync(factory, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`soak: ${(error as Error).message}`);
    process.exit(1);
  },
);
