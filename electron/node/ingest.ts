/**
 * Catch-up: reads the factory's `events/*.jsonl` from where the ledger stopped and applies every
 * complete line exactly once (docs/factory-format.md).
 *
 * How "exactly once" holds when the process is killed at any instant: each batch of lines is
 * applied in one SQLite transaction that also stores the byte offset and line count reached. A
 * kill before the commit loses the whole batch, offset included, so it is read again; a kill
 * after it keeps both. Nothing in between is visible. The transaction re-reads the stored offset
 * and gives up if another process moved it meanwhile (the app and the CLI may both ingest).
 *
 * How nothing is dropped silently and nothing crashes the Desk: a line that is not a valid event
 * (not UTF-8, not JSON, wrong fields, longer than 64 KiB, a duplicate id, a finish without a
 * start) becomes a refused line with file, line number, reason and a short excerpt, and reading
 * goes on with the next line. A last line without its newline is not read until it is complete.
 *
 * The work is a generator of bounded batches, so the same code runs to the end in one go (CLI)
 * or yields to the event loop between batches (the app, where the UI must stay responsive).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Settings } from '../rules/settings.js';
import { MAX_LINE_BYTES, MAX_LINE_SIZE, parseEventLine, type FactoryEvent } from '../rules/events.js';
import type { Db } from './store/db.js';
import { stmt } from './store/statements.js';
import { EventRefused, markExportPending } from './store/learnings.js';
import { applyProposal } from './store/proposals.js';
import { applyRunFinished, applyRunStarted, recordedRun, whyRunFinishRefused, whyRunStartRefused, type RecordedRun } from './store/runs.js';
import { applyHelpRequested, helpIdRecorded, recordChainRun } from './store/help.js';
import { exportPending } from './exporter.js';
import { forgetMatchIndex, syncMatchIndex } from './store/matching.js';
import { SEAL_BYTES, refuseFile, refusedFiles, sealOf, storedPosition, type StoredPosition } from './store/eventFiles.js';
import { alreadyApplied } from './store/reread.js';
import { abandonLearningBatch, beginLearningBatch, endLearningBatch } from './store/learningWrites.js';
import { factoryPaths } from './factory.js';
import { utcDay } from '../rules/time.js';
import { excerptOf } from '../rules/excerpt.js';
import type { ScreenResult } from '../rules/screen.js';
import { ScreenAhead } from './screenAhead.js';
import { widenPageCache } from './store/pageCache.js';

export interface RefusedRef {
  file: string;
  line: number;
  reason: string;
}

export interface IngestProgress {
  /** Valid events applied so far. */
  applied: number;
  /** Lines refused so far. */
  refused: RefusedRef[];
  /** Bytes of event files read (all files, from the stored offsets) and their total size. */
  done_bytes: number;
  total_bytes: number;
  /** Time of the newest event applied in this catch-up. */
  last_event_at: string | null;
}

export interface IngestResult extends IngestProgress {
  /** Agents whose `learnings/<agent>.json` was re-written. */
  exported: string[];
  /** Fatal help requests that arrived in this catch-up (open, so someone must answer). */
  fatal_help: string[];
  /** `run.finished` events applied in this catch-up (a sweep follows finished runs, docs/rules.md#retention-sweeps). */
  runs_finished: number;
  /** Files refused as a whole (rewritten or cut since they were read), until they are read again. */
  refused_files: { file: string; reason: string }[];
}

export interface IngestOptions {
  /** Settings in force; a function is asked again before each batch (they can change). */
  settings: Settings | (() => Settings);
  /** Most lines per transaction. */
  maxLines?: number;
  /** Most bytes per transaction (at least 64 KiB + 1, so every valid line fits). */
  maxBytes?: number;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
  /** Clock for `seen_at` of refused lines. */
  now?: () => Date;
  /** Write the agents' learnings files after applying (default true). */
  export?: boolean;
  /**
   * The screen's helper thread (screenAhead.ts), for a caller that ingests again and again: the
   * watcher keeps one for as long as it runs. Without it, an ingest starts its own when a batch
   * is large enough and ends it when done; a thread's start is the price of the first large
   * batch, which a caller catching up a file at a time would otherwise pay at every file.
   */
  screenAhead?: ScreenAhead;
}

/**
 * Most lines and bytes per batch (one transaction). Large, because a batch's fixed costs (the
 * commit, reading each agent's provisional learnings once, writing each changed learning once)
 * are shared by all its lines; ingest runs in its own thread (docs/development.md#architecture),
 * so a long batch holds up no window. A kill loses at most the batch in flight, read again at the
 * next start. 20,000 lines took about a tenth less CPU than 5,000 over a catch-up of 300,000
 * events (a page that several lines change is written to the log once a commit, so fewer commits
 * write fewer pages); the byte bound keeps a batch's lines in memory at 8 MiB.
 */
export const DEFAULT_MAX_LINES = 20_000;
export const DEFAULT_MAX_BYTES = 8 * 1024 * 1024;

/**
 * How many pages of write-ahead log an ingest lets build up before SQLite copies them into the
 * ledger file (its `wal_autocheckpoint`, 1,000 pages or about 4 MiB by default): 16,384 pages,
 * 64 MiB. A batch of thousands of lines writes more than 1,000 pages, so by default every commit
 * was followed by a copy of the log with two file syncs, and a page that later batches change
 * again was copied again each time; a million-event catch-up took about a tenth less time with
 * the larger log (measured by the benchmark, two runs each way). Set for the catch-up only and
 * put back after. The window never waits for such a copy: the hosts hand theirs to the ingest
 * worker (desk.ts, answerDecision.ts).
 */
export const INGEST_CHECKPOINT_PAGES = 16_384;

const EVENT_FILE = /^[^.].*\.jsonl$/;

/** The events files in reading order (name order), with their sizes. */
export function listEventFiles(factory: string): { name: string; size: number }[] {
  const dir = factoryPaths(factory).events;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: { name: string; size: number }[] = [];
  for (const name of names.filter((n) => EVENT_FILE.test(n)).sort()) {
    try {
      const stat = fs.statSync(path.join(dir, name));
      if (stat.isFile()) files.push({ name, size: stat.size });
    } catch {
      // removed between listing and stat (a sweep): nothing to read
    }
  }
  return files;
}

/** What a batch did, for the caller's bookkeeping. */
interface BatchOutcome {
  applied: number;
  refused: RefusedRef[];
  fatal: string[];
  lastAt: string | null;
  runsFinished: number;
}

class StaleOffset extends Error {}

type Line = { bytes: Buffer; tooLong?: number };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * What an applied line asks of the rest of the batch: the fatal requests it filed, and whether its
 * agent's learnings file must be written again (its active learnings changed). The agents are
 * marked once at the batch's end, not once a line: a batch of 5,000 lines marks a few dozen
 * agents, where marking each line's agent cost a statement a proposal.
 */
interface LineEffects {
  fatal: string[];
  exportAgent: string | null;
}

/** Applies one valid event; throws `EventRefused` when the ledger cannot take it. */
function applyEvent(db: Db, event: FactoryEvent, settings: Settings, effects: LineEffects, screened: ScreenResult | undefined): void {
  switch (event.type) {
    case 'run.started':
      applyRunStarted(db, { ...event, answers: event.answers ?? null });
      recordChainRun(db, event);
      break;
    case 'run.finished':
      if (applyRunFinished(db, event).lapsed.length > 0) effects.exportAgent = event.agent;
      break;
    case 'learning.proposed': {
      const result = applyProposal(db, { ...event, run: event.run ?? null }, settings.learnings, screened);
      if (result.activeChanged) effects.exportAgent = event.agent;
      break;
    }
    case 'help.requested': {
      applyHelpRequested(db, event);
      if (event.fatal) effects.fatal.push(event.id); // filed open, so a fatal one holds its chain from now
      break;
    }
  }
}

/** A character `trim` would keep: a line without one is blank (the same test, without copying the line). */
const NOT_BLANK = /\S/;

/** Why a line is not an event, or null with the event. */
function readLine(line: Line): { event: FactoryEvent } | { reason: string } | null {
  if (line.tooLong !== undefined) return { reason: `the line is ${line.tooLong} bytes, longer than ${MAX_LINE_SIZE}` };
  let bytes = line.bytes;
  if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
  if (bytes.length > MAX_LINE_BYTES) return { reason: `the line is ${bytes.length} bytes, longer than ${MAX_LINE_SIZE}` };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { reason: 'the line is not valid UTF-8' };
  }
  if (!NOT_BLANK.test(text)) return null;
  const parsed = parseEventLine(text);
  return parsed.ok ? { event: parsed.event } : { reason: parsed.reason };
}

function isSqliteError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'SqliteError' || 'code' in error && String((error as { code: unknown }).code).startsWith('SQLITE'));
}

/**
 * A line failed half-way for a reason other than a refusal: the batch is rolled back and applied
 * again line by line with a savepoint each (see {@link applyBatch}).
 */
class NeedsCareful extends Error {}

/**
 * Applies a batch of lines and stores the offset reached, in one transaction.
 *
 * Fast by construction: every refusal (`EventRefused`) is decided before an event writes
 * anything (the store's apply functions check first, then write), so a refused line leaves
 * nothing behind and needs no savepoint of its own. An error of any other kind may come half-way
 * through an event; then the whole batch is rolled back and done again `careful`ly, with a
 * savepoint per line, so that line alone is refused. That path is rare and slow; the common one
 * pays nothing for it. SQLite's own errors (disk full, a damaged ledger) end the batch either way:
 * nothing of it is kept and the caller hears of it.
 */
function applyBatch(
  db: Db,
  file: string,
  lines: Line[],
  from: StoredPosition,
  to: { offset: number; seal: string; size: number },
  settings: Settings,
  now: Date,
  ahead: ScreenAhead,
  careful = false,
): BatchOutcome {
  const display = `events/${file}`;
  const fileDay = /^\d{4}-\d{2}-\d{2}/.exec(file)?.[0] ?? utcDay(now);
  const refuse = stmt(
    db,
    'INSERT INTO refused_lines (file, line, reason, excerpt, seen_at, day) VALUES (?, ?, ?, ?, ?, ?)',
  );
  // Every line is read first, so that the batch's proposals can be screened ahead (screenAhead.ts).
  const reads = lines.map(readLine);
  const proposalOf: number[] = [];
  const texts: string[] = [];
  reads.forEach((read, i) => {
    if (read !== null && 'event' in read && read.event.type === 'learning.proposed') {
      proposalOf[i] = texts.length;
      texts.push(read.event.text);
    }
  });
  const screened = ahead.screenAll(texts, settings.learnings.max_text);
  const apply = (event: FactoryEvent, effects: LineEffects, i: number): void => {
    const screen = proposalOf[i] === undefined ? undefined : screened.result(proposalOf[i]);
    if (!careful) return applyEvent(db, event, settings, effects, screen);
    try {
      db.transaction(() => applyEvent(db, event, settings, effects, screen))();
    } catch (error) {
      forgetMatchIndex(db); // the savepoint undid writes the index may have taken in
      throw error;
    }
  };
  try {
    return db.transaction((): BatchOutcome => {
      const stored = storedPosition(db, file);
      if (stored.offset !== from.offset) throw new StaleOffset();
      syncMatchIndex(db);
      if (!careful) beginLearningBatch(db);
      const out: BatchOutcome = { applied: 0, refused: [], fatal: [], lastAt: null, runsFinished: 0 };
      const exports = new Set<string>();
      lines.forEach((line, i) => {
        const number = from.lines + i + 1;
        const read = reads[i]!;
        if (read === null) return;
        let reason: string | null = null;
        if ('reason' in read) reason = read.reason;
        else if (from.rereading && alreadyApplied(db, read.event)) return; // applied before the file was read again
        else {
          const effects: LineEffects = { fatal: [], exportAgent: null };
          try {
            apply(read.event, effects, i);
            out.applied++;
            if (read.event.type === 'run.finished') out.runsFinished++;
            out.fatal.push(...effects.fatal);
            if (effects.exportAgent !== null) exports.add(effects.exportAgent);
            if (out.lastAt === null || read.event.at > out.lastAt) out.lastAt = read.event.at;
          } catch (error) {
            if (error instanceof EventRefused) reason = error.message;
            else if (isSqliteError(error)) throw error;
            else if (!careful) throw new NeedsCareful();
            else reason = `could not be applied: ${(error as Error).message}`;
          }
        }
        if (reason !== null) {
          refuse.run(display, number, reason, excerptOf(line.bytes), now.toISOString(), fileDay);
          out.refused.push({ file: display, line: number, reason });
        }
      });
      endLearningBatch(db);
      markExportPending(db, exports);
      stmt(
        db,
        `INSERT INTO event_files (name, offset, lines, seal, rereading) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET offset = excluded.offset, lines = excluded.lines, seal = excluded.seal,
           rereading = excluded.rereading`,
      ).run(file, to.offset, from.lines + lines.length, to.seal, from.rereading && to.offset < to.size ? 1 : 0);
      return out;
    }).immediate();
  } catch (error) {
    abandonLearningBatch(db);
    forgetMatchIndex(db); // rolled back: the index may hold learnings the ledger does not
    if (error instanceof NeedsCareful) return applyBatch(db, file, lines, from, to, settings, now, ahead, true);
    throw error;
  }
}

/** The seal of the first `offset` bytes of the open file (see eventFiles.ts). */
function sealAt(fd: number, offset: number): string {
  const head = readAt(fd, 0, Math.min(SEAL_BYTES, offset));
  const tailFrom = Math.max(0, offset - SEAL_BYTES);
  return sealOf(head, readAt(fd, tailFrom, offset - tailFrom));
}

/**
 * Why a file must not be read on from its stored position, or null: it is refused already, it
 * is shorter than what was read of it, or the bytes before the position are not those that were
 * read (docs/factory-format.md#reading-events).
 */
function whyFileRefused(db: Db, fd: number, name: string, size: number): string | null {
  const stored = storedPosition(db, name);
  if (stored.refused !== null) return stored.refused;
  if (stored.offset === 0) return null;
  const again = `read it again from the start with \`layover-desk ingest --reread ${name}\` (or Read again in the window's Activity)`;
  if (size < stored.offset) {
    return `the file is ${size} bytes, shorter than the ${stored.offset} already read: it was cut or replaced; ${again}`;
  }
  if (stored.seal !== null && sealAt(fd, stored.offset) !== stored.seal) {
    return `the bytes before the ${stored.offset} already read have changed: the file was rewritten; ${again}`;
  }
  return null;
}

/** An events file opened for reading; null when it is gone since it was listed (a sweep). */
function openEventFile(dir: string, name: string): number | null {
  try {
    return fs.openSync(path.join(dir, name), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, buf, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return buf.subarray(0, done);
}

/** Position just past the next newline at or after `from`, or -1 when there is none yet. */
function nextNewline(fd: number, from: number, size: number): number {
  const chunk = 256 * 1024;
  for (let pos = from; pos < size; pos += chunk) {
    const buf = readAt(fd, pos, Math.min(chunk, size - pos));
    const i = buf.indexOf(10);
    if (i !== -1) return pos + i + 1;
    if (buf.length === 0) break;
  }
  return -1;
}

/**
 * The events of the complete lines not yet ingested, in the order ingest will read them, without
 * writing anything: from the offsets `db` stores (opened read-only will do), or from the start of
 * every file when there is no ledger yet (`db` null). A line ingest will refuse as a line is left
 * out; whether the ledger will take an event is for the caller to ask (`runAsIngestWillSee`).
 */
export function* pendingEvents(db: Db | null, factory: string): Generator<FactoryEvent, void> {
  const dir = factoryPaths(factory).events;
  const chunk = DEFAULT_MAX_BYTES;
  for (const f of listEventFiles(factory)) {
    const fd = openEventFile(dir, f.name);
    if (fd === null) continue;
    try {
      const size = Math.max(f.size, fs.fstatSync(fd).size);
      let position = db ? storedPosition(db, f.name).offset : 0;
      let carry = Buffer.alloc(0);
      let tooLong = false; // the line being read is already longer than any valid line: skipped
      while (position < size) {
        const read = readAt(fd, position, Math.min(chunk, size - position));
        if (read.length === 0) break;
        position += read.length;
        const data = carry.length > 0 ? Buffer.concat([carry, read]) : read;
        let start = 0;
        for (let nl = data.indexOf(10, start); nl !== -1; nl = data.indexOf(10, start)) {
          const line = tooLong ? null : readLine({ bytes: data.subarray(start, nl) });
          if (line !== null && 'event' in line) yield line.event;
          tooLong = false;
          start = nl + 1;
        }
        carry = Buffer.from(data.subarray(start));
        if (carry.length > MAX_LINE_BYTES + 1) {
          tooLong = true;
          carry = Buffer.alloc(0);
        }
      }
      // What is left in `carry` is a last line without its newline: not read until complete.
    } finally {
      fs.closeSync(fd);
    }
  }
}

/**
 * What the ledger will hold for `run` once ingest has read every complete line appended so far:
 * its record in `db` (null: no ledger yet) with the run events not yet ingested applied on top
 * by the very rules ingest applies them with. Reads only, so the agent side can ask it of a
 * ledger it opened read-only, and hear the answer ingest will give to the line it is about to
 * append, also when the Desk has not caught up yet.
 */
export function runAsIngestWillSee(db: Db | null, factory: string, run: string): RecordedRun | undefined {
  const read = (): RecordedRun | undefined => {
    const row = db ? recordedRun(db, run) : undefined;
    let recorded: RecordedRun | undefined = row ? { agent: row.agent, finished_at: row.finished_at } : undefined;
    for (const event of pendingEvents(db, factory)) {
      if (event.type === 'run.started' && event.run === run) {
        if (whyRunStartRefused(recorded, event) === null) recorded = { agent: event.agent, finished_at: null };
      } else if (event.type === 'run.finished' && event.run === run) {
        if (recorded && whyRunFinishRefused(recorded, event) === null) recorded = { ...recorded, finished_at: event.at };
      }
    }
    return recorded;
  };
  // One read transaction: the offsets and the record are of the same moment, even while the
  // Desk ingests (the lines past those offsets are then read from the files, which only grow).
  return db ? db.transaction(read)() : read();
}

/**
 * Whether ingest will find the help request id `id` already taken: recorded in the ledger, or
 * filed by a line appended but not read yet. The agent side asks this before appending, so a
 * duplicate is refused at once rather than recorded as a refused line later.
 */
export function helpIdTakenAsIngestWillSee(db: Db | null, factory: string, id: string): boolean {
  const read = (): boolean => {
    if (db && helpIdRecorded(db, id)) return true;
    for (const event of pendingEvents(db, factory)) {
      if (event.type === 'help.requested' && event.id === id) return true;
    }
    return false;
  };
  return db ? db.transaction(read)() : read();
}

/**
 * The catch-up as steps: each `next()` applies one bounded batch (one transaction) and yields
 * the progress. Returns the final result.
 */
export function* ingestSteps(db: Db, factory: string, options: IngestOptions): Generator<IngestProgress, IngestResult> {
  const maxLines = Math.max(1, options.maxLines ?? DEFAULT_MAX_LINES);
  const maxBytes = Math.max(MAX_LINE_BYTES + 2, options.maxBytes ?? DEFAULT_MAX_BYTES);
  const settingsNow = (): Settings => (typeof options.settings === 'function' ? options.settings() : options.settings);
  const clock = options.now ?? (() => new Date());
  const dir = factoryPaths(factory).events;

  const files = listEventFiles(factory);
  const progress: IngestProgress = { applied: 0, refused: [], done_bytes: 0, total_bytes: 0, last_event_at: null };
  for (const f of files) {
    progress.total_bytes += f.size;
    progress.done_bytes += Math.min(f.size, storedPosition(db, f.name).offset);
  }
  const fatal: string[] = [];
  let runsFinished = 0;
  const ahead = options.screenAhead ?? new ScreenAhead();
  // A connection that checkpoints nothing by itself (0) is left so.
  const checkpointPages = db.pragma('wal_autocheckpoint', { simple: true }) as number;
  if (checkpointPages !== 0) db.pragma(`wal_autocheckpoint = ${Math.max(checkpointPages, INGEST_CHECKPOINT_PAGES)}`);
  // The catch-up's pages stay in memory rather than spilling (store/pageCache.ts).
  const narrowPageCache = widenPageCache(db);
  try {
    for (const f of files) {
      const fd = openEventFile(dir, f.name);
      if (fd === null) continue;
      try {
        const size = Math.max(f.size, fs.fstatSync(fd).size);
        const refusal = whyFileRefused(db, fd, f.name, size);
        if (refusal !== null) {
          if (storedPosition(db, f.name).refused === null) db.transaction(() => refuseFile(db, f.name, refusal)).immediate();
          continue;
        }
        for (;;) {
          if (options.signal?.aborted) break;
          const from = storedPosition(db, f.name);
          if (from.offset >= size) break;
          const buf = readAt(fd, from.offset, Math.min(maxBytes, size - from.offset));
          const lines: Line[] = [];
          let pos = 0;
          while (lines.length < maxLines) {
            const nl = buf.indexOf(10, pos);
            if (nl === -1) break;
            lines.push({ bytes: buf.subarray(pos, nl) });
            pos = nl + 1;
          }
          if (lines.length === 0) {
            // No newline in the whole read: either the file ends in a partial line (it waits),
            // or the line is longer than one batch (refused, but its end must still be found).
            if (from.offset + buf.length >= size) break;
            const end = nextNewline(fd, from.offset + buf.length, size);
            if (end === -1) break;
            lines.push({ bytes: buf.subarray(0, Math.min(buf.length, 1024)), tooLong: end - 1 - from.offset });
            pos = end - from.offset;
          }
          let outcome: BatchOutcome;
          try {
            const to = from.offset + pos;
            outcome = applyBatch(db, f.name, lines, from, { offset: to, seal: sealAt(fd, to), size }, settingsNow(), clock(), ahead);
          } catch (error) {
            if (error instanceof StaleOffset) continue; // another process read these lines: start again from its offset
            throw error;
          }
          progress.applied += outcome.applied;
          progress.refused.push(...outcome.refused);
          progress.done_bytes += pos;
          if (outcome.lastAt !== null && (progress.last_event_at === null || outcome.lastAt > progress.last_event_at)) {
            progress.last_event_at = outcome.lastAt;
          }
          fatal.push(...outcome.fatal);
          runsFinished += outcome.runsFinished;
          options.onProgress?.(progress);
          yield progress;
        }
      } finally {
        fs.closeSync(fd);
      }
    }
  } finally {
    if (ahead !== options.screenAhead) ahead.close();
    if (db.open) {
      db.pragma(`wal_autocheckpoint = ${checkpointPages}`);
    }
    narrowPageCache();
  }

  const exported = options.export === false ? [] : exportPending(db, factory, settingsNow().learnings.max_per_run);
  return { ...progress, exported, fatal_help: fatal, runs_finished: runsFinished, refused_files: refusedFiles(db) };
}

/** Catches up in one go (the CLI). */
export function ingestSync(db: Db, factory: string, options: IngestOptions): IngestResult {
  const steps = ingestSteps(db, factory, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Catches up, letting the event loop run between batches (the app). */
export async function ingest(db: Db, factory: string, options: IngestOptions): Promise<IngestResult> {
  const steps = ingestSteps(db, factory, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
