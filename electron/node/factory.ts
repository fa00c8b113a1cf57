/**
 * The factory directory on disk (docs/factory-format.md): where each part lives, and the two ways the Desk and
 * the agent-side CLI write to it.
 *
 * - Files the Desk writes (`learnings/*.json`, `chains/*.json`) are written atomically
 *   (atomicFile.ts): a reader (the Tower starting a run) sees the old file or the new one, never
 *   half of one.
 * - Event lines are appended with one write call each, so two writers appending to the same day
 *   file cannot interleave inside a line (O_APPEND makes each write land whole at the end).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MAX_LINE_BYTES } from '../rules/events.js';
import { utcDay } from '../rules/time.js';

export interface FactoryPaths {
  root: string;
  settings: string;
  events: string;
  learnings: string;
  chains: string;
  desk: string;
}

export function factoryPaths(factory: string): FactoryPaths {
  const root = path.resolve(factory);
  return {
    root,
    settings: path.join(root, 'layover.toml'),
    events: path.join(root, 'events'),
    learnings: path.join(root, 'learnings'),
    chains: path.join(root, 'chains'),
    desk: path.join(root, '.layover'),
  };
}

export class FactoryMissingError extends Error {
  constructor(readonly factory: string, detail: string) {
    super(detail);
    this.name = 'FactoryMissingError';
  }
}

/**
 * Throws a clear error when `factory` is not an existing folder, so a typo in `--factory` does
 * not quietly create an empty factory somewhere.
 */
export function assertFactory(factory: string): string {
  const root = path.resolve(factory);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(root);
  } catch {
    throw new FactoryMissingError(root, `the factory folder ${root} does not exist (give one with --factory DIR)`);
  }
  if (!stat.isDirectory()) throw new FactoryMissingError(root, `the factory ${root} is not a folder`);
  return root;
}

/**
 * Whether `dir` is a factory already: it holds one of the parts the factory or the Desk make
 * (events/, layover.toml, .layover/, learnings/, chains/). Any other folder is only made a
 * factory when the operator says so, so a mistyped path to some existing folder (a home folder,
 * a project) does not quietly get a ledger and a `.layover` folder.
 */
export function isFactory(dir: string): boolean {
  const paths = factoryPaths(dir);
  return [paths.events, paths.settings, paths.desk, paths.learnings, paths.chains].some((part) => fs.existsSync(part));
}

/** The events file of the UTC day of `now`: `events/YYYY-MM-DD.jsonl`. */
function eventsFileFor(factory: string, now: Date = new Date()): string {
  return path.join(factoryPaths(factory).events, `${utcDay(now)}.jsonl`);
}

/** The export of an agent's learnings. The agent name must already be validated (a file name). */
export function learningsFileFor(factory: string, agent: string): string {
  return path.join(factoryPaths(factory).learnings, `${agent}.json`);
}

/** Whether `dir` is an existing folder (a missing one, or a file, is not). */
export function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The names in a folder of the factory, or none when the folder does not exist (yet). */
export function namesIn(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Appends one serialized event (without its newline) to today's events file with one write,
 * creating `events/` when needed. Returns the file written. The factory folder must exist.
 */
export function appendEventLine(factory: string, line: string, now: Date = new Date()): string {
  const root = assertFactory(factory);
  if (line.includes('\n')) throw new Error('an event line cannot hold a newline');
  const bytes = Buffer.from(`${line}\n`, 'utf8');
  // The limit ingest reads with: a longer line written here would only be refused there.
  if (bytes.length - 1 > MAX_LINE_BYTES) {
    throw new Error(`the event is ${bytes.length - 1} bytes; an event line holds at most ${MAX_LINE_BYTES}`);
  }
  const file = eventsFileFor(root, now);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, bytes);
  return file;
}

/**
 * `.layover/swept.jsonl`: the event files sweeps have deleted, one `{"at", "file"}` line each.
 * Once one is gone, what it held is only in the ledger and its safety copies, so the ledger can
 * no longer be made again from the event files (`layover-desk rebuild` reads this to refuse).
 */
function sweptNotePath(factory: string): string {
  return path.join(factoryPaths(factory).desk, 'swept.jsonl');
}

/** Notes event files a sweep is about to delete (before it deletes them). */
export function noteSweptEventFiles(factory: string, names: readonly string[], at: string): void {
  if (names.length === 0) return;
  const file = sweptNotePath(factory);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, names.map((name) => `${JSON.stringify({ at, file: `events/${name}` })}\n`).join(''));
}

/** The first event file a sweep deleted, or null when none has been. */
export function firstSweptEventFile(factory: string): { at: string; file: string } | null {
  let text: string;
  try {
    text = fs.readFileSync(sweptNotePath(factory), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const first = text.split('\n')[0];
  if (!first) return null;
  try {
    return JSON.parse(first) as { at: string; file: string };
  } catch {
    return { at: 'an unknown time', file: 'an event file' };
  }
}
