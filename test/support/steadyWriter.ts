/**
 * A factory writing events as a busy, slow writer does, as its own process:
 * `node --import tsx test/support/steadyWriter.ts FACTORY PLAN_JSON` (see `WriterPlan`).
 *
 * It appends `lines` event lines at a steady rate over `durationMs`, and splits every line across
 * two or three `write` calls; at the end of each tick it leaves the first part of the next line in
 * the file, so between ticks the file always ends in half a line, which a reader must leave for
 * later (docs/factory-format.md#reading-events: a last line without its newline is not read until
 * it is complete). Lines before `midnightLine` go to the file of the day before the midnight, the
 * rest to the file of the day after, as a factory switching files at a UTC midnight does.
 *
 * The lines are a pure function of the plan (`plannedEvent`), so a test knows every line the
 * writer wrote without being told. It prints `done LINES BYTES` when it has written them all.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface WriterPlan {
  lines: number;
  durationMs: number;
  /** The first line of the day after the midnight (its `at` is the midnight itself). */
  midnightLine: number;
  /** The UTC midnight the writer crosses, as an ISO time (`YYYY-MM-DDT00:00:00.000Z`). */
  midnight: string;
}

/** Lines of one run: its start, two proposals, its finish. */
export const LINES_PER_RUN = 4;
/** Event time between two lines: one millisecond, so every line has a time of its own. */
const LINE_STEP_MS = 1;
/** How often the writer wakes to append what is due. */
const TICK_MS = 10;

const AGENTS = ['builder', 'reviewer', 'scout'];
const TEXTS = [
  'Clear the build cache when the compiler reports phantom type errors after a branch switch.',
  'Pin the container base image by digest so rebuilds pick up the same system libraries.',
  'Use the read replica for analytics queries, the primary times out on full table scans.',
];

/** The time of line `i`: lines step by a millisecond and line `midnightLine` falls on the midnight. */
export function lineAt(plan: WriterPlan, i: number): string {
  return new Date(Date.parse(plan.midnight) + (i - plan.midnightLine) * LINE_STEP_MS).toISOString();
}

/** The day file line `i` belongs to, by its time. */
export function lineFile(plan: WriterPlan, i: number): string {
  return `${lineAt(plan, i).slice(0, 10)}.jsonl`;
}

/** Event line `i` of the plan: run `run_<i div 4>` started, two proposals, finished. */
export function plannedEvent(plan: WriterPlan, i: number): Record<string, unknown> {
  const at = lineAt(plan, i);
  const index = Math.floor(i / LINES_PER_RUN);
  const run = `run_${index}`;
  const agent = AGENTS[index % AGENTS.length]!;
  switch (i % LINES_PER_RUN) {
    case 0:
      return { type: 'run.started', at, run, agent, chain: `chn_${index}`, workflow: 'w', flags: {}, routes: [], learnings: [] };
    case 1:
    case 2:
      return { type: 'learning.proposed', at, agent, run, impact: 'low', text: TEXTS[(index + (i % LINES_PER_RUN)) % TEXTS.length]! };
    default:
      return { type: 'run.finished', at, run, agent, outcome: 'succeeded' };
  }
}

/** Where line `text` is cut: into two parts, or three for every third line. */
function parts(text: string, i: number): string[] {
  if (i % 3 === 0) {
    const a = Math.floor(text.length / 3);
    return [text.slice(0, a), text.slice(a, 2 * a), text.slice(2 * a)];
  }
  const half = Math.floor(text.length / 2);
  return [text.slice(0, half), text.slice(half)];
}

function main(factory: string, plan: WriterPlan): void {
  const dir = path.join(factory, 'events');
  fs.mkdirSync(dir, { recursive: true });
  let fd: number | null = null;
  let openFile = '';
  let bytes = 0;
  const write = (file: string, text: string) => {
    if (file !== openFile) {
      if (fd !== null) fs.closeSync(fd);
      fd = fs.openSync(path.join(dir, file), 'a');
      openFile = file;
    }
    bytes += fs.writeSync(fd!, text);
  };
  /** The rest of the line whose first part ended the last tick. */
  let pending: { file: string; rest: string[] } | null = null;
  let next = 0;
  const started = Date.now();
  const tick = () => {
    const due = Math.min(plan.lines, Math.ceil(((Date.now() - started) / plan.durationMs) * plan.lines));
    if (pending) {
      for (const part of pending.rest) write(pending.file, part);
      pending = null;
    }
    while (next < due) {
      const file = lineFile(plan, next);
      const [first, ...rest] = parts(`${JSON.stringify(plannedEvent(plan, next))}\n`, next);
      write(file, first!);
      next++;
      if (next === due && next < plan.lines) {
        pending = { file, rest };
        break;
      }
      for (const part of rest) write(file, part);
    }
    if (next < plan.lines || pending) {
      setTimeout(tick, TICK_MS);
      return;
    }
    if (fd !== null) fs.closeSync(fd);
    process.stdout.write(`done ${plan.lines} ${bytes}\n`);
  };
  tick();
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main(process.argv[2]!, JSON.parse(process.argv[3]!) as WriterPlan);
}
