/**
 * The decisions journal on disk: `.layover/decisions.jsonl`
 * (docs/factory-format.md#the-decisions-journal), one JSON object per line, each a person decision
 * with its sequence number (see store/journal.ts for what a line holds).
 *
 * The ledger commits a decision together with its journal row; the line is appended here after
 * the commit, by `flushJournal`, which every process that opens the ledger to write also calls,
 * so a crash between the commit and the append appends it at the next open. Lines are appended
 * in sequence order and a line whose number the file already ends with is not appended again.
 * A last line torn by a crash mid-append (no newline) is cut off before appending: its row is
 * still unwritten, so the whole line comes again.
 *
 * A restore from a safety copy replays the event lines (ingest, from the offsets the copy holds)
 * and then the journaled decisions after the copy's last one, so the restored ledger holds every
 * decision the lost one did.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Settings } from '../rules/settings.js';
import { fsyncFolder, naming } from './atomicFile.js';
import { exportPending } from './exporter.js';
import { factoryPaths } from './factory.js';
import { ingestSteps, ingestSync } from './ingest.js';
import { flushOutbox } from './outbox.js';
import { reply, resolve } from './store/help.js';
import { decideLearnings, undoDecisions } from './store/decisions.js';
import {
  eventsReached,
  lastJournalSeq,
  learningIdsNow,
  markJournalWritten,
  unwrittenJournal,
  type EventsPosition,
  type JournalEntry,
} from './store/journal.js';
import type { Db } from './store/db.js';

export function journalPath(factory: string): string {
  return path.join(factoryPaths(factory).desk, 'decisions.jsonl');
}

const NEWLINE = Buffer.from('\n');

/** How much of the file is read at a time, from its end, to find where its last line starts. */
const TAIL_BYTES = 64 * 1024;

/**
 * The offset of the last newline before `end` in the open file, or -1 when there is none. Read
 * back a chunk at a time: a bulk decision's line holds every learning it changed (some 150 bytes
 * each), so a line can be megabytes long, and a fixed-size tail would cut it.
 */
function lastNewlineBefore(fd: number, end: number): number {
  const chunk = Buffer.alloc(TAIL_BYTES);
  for (let to = end; to > 0; ) {
    const from = Math.max(0, to - TAIL_BYTES);
    const read = fs.readSync(fd, chunk, 0, to - from, from);
    const at = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (at !== -1) return from + at;
    to = from;
  }
  return -1;
}

/**
 * The sequence number the file ends with (0 for an empty or missing file), after cutting off a
 * torn last line.
 */
function lastSeqInFile(file: string): number {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  try {
    const size = fs.fstatSync(fd).size;
    const end = lastNewlineBefore(fd, size);
    if (end + 1 < size) fs.ftruncateSync(fd, end + 1); // a torn last line
    if (end === -1) return 0;
    const from = lastNewlineBefore(fd, end) + 1;
    const line = Buffer.alloc(end - from);
    fs.readSync(fd, line, 0, line.length, from);
    const last = JSON.parse(line.toString('utf8')) as { seq?: unknown };
    return typeof last.seq === 'number' ? last.seq : 0;
  } finally {
    fs.closeSync(fd);
  }
}

/** Appends every committed journal line not yet in the file, oldest first. Returns how many. */
export function flushJournal(db: Db, factory: string): number {
  const rows = unwrittenJournal(db);
  if (rows.length === 0) return 0;
  const file = journalPath(factory);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let inFolder = fs.existsSync(file);
  let last = lastSeqInFile(file);
  let appended = 0;
  for (const row of rows) {
    if (row.seq > last) {
      const fd = fs.openSync(file, 'a');
      try {
        // The line and its newline in one write; writeFileSync loops over short writes (a full
        // disk): a line is never marked written half.
        fs.writeFileSync(fd, Buffer.concat([row.line, NEWLINE]));
        fs.fsyncSync(fd);
        // The file just created is on disk only once its folder is: before marking its first line.
        if (!inFolder) fsyncFolder(path.dirname(file));
        inFolder = true;
      } catch (error) {
        throw naming(error, file);
      } finally {
        fs.closeSync(fd);
      }
      last = row.seq;
      appended++;
    }
    markJournalWritten(db, row.seq);
  }
  return appended;
}

/** The decisions in the journal file, in sequence order (a torn last line is not one). */
export function readJournal(factory: string): JournalEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(journalPath(factory), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines = text.split('\n');
  lines.pop(); // after the last newline: empty, or a torn line
  return lines.map((line) => JSON.parse(line) as JournalEntry).sort((a, b) => a.seq - b.seq);
}

/** Makes one journaled decision again, as it was made: same time, same person, same ids. */
function replay(db: Db, factory: string, entry: JournalEntry): void {
  const now = new Date(entry.at);
  const replaying = { seq: entry.seq, events: entry.events };
  switch (entry.what) {
    case 'reject':
    case 'keep':
      decideLearnings(db, entry.what, { ids: learningIdsNow(db, entry.learnings) }, { by: entry.by, reason: entry.reason, now }, replaying);
      break;
    case 'undo':
      undoDecisions(db, learningIdsNow(db, entry.learnings), { by: entry.by, now }, replaying);
      break;
    case 'reply': {
      // A reply that changed inherited flags is made again as that change, so the rebuilt request
      // records the same flags_changed; any other reply states the flags it gave the chain.
      const changes = entry.flags_changed
        ? { set_flags: Object.fromEntries(Object.keys(entry.flags_changed).map((key) => [key, entry.flags[key]!])) }
        : { flags: entry.flags };
      const input = { id: entry.id, answer: entry.answer, by: entry.by, workflow: entry.workflow, routes: entry.routes, ...changes };
      reply(db, factory, input, entry.by, () => now, { ...replaying, chain: entry.chain });
      break;
    }
    case 'resolve':
      resolve(db, { id: entry.id, by: entry.by }, entry.by, () => now, replaying);
      break;
  }
}

/**
 * Reads the event lines up to `position` (one line per step, so it stops there exactly). Returns
 * how many events it applied.
 */
function ingestUpTo(db: Db, factory: string, settings: Settings, position: EventsPosition | null): number {
  if (eventsReached(db, position)) return 0;
  let applied = 0;
  // Leaving the loop closes the step generator (and the file it has open).
  for (const progress of ingestSteps(db, factory, { settings, maxLines: 1, export: false })) {
    applied = progress.applied;
    if (eventsReached(db, position)) break;
  }
  return applied;
}

/**
 * Makes again every journaled decision after the last one the ledger holds (a restored copy),
 * in order, each after the event lines that had been read when it was made. Returns how many
 * events and decisions; a decision that cannot be made again (its learning or request is not in
 * the ledger) stops the replay with an error naming it, the ones before it kept.
 */
function replayJournal(db: Db, factory: string, settings: Settings): CatchUpResult {
  const after = lastJournalSeq(db);
  const result: CatchUpResult = { events: 0, decisions: 0 };
  for (const entry of readJournal(factory)) {
    if (entry.seq <= after) continue;
    result.events += ingestUpTo(db, factory, settings, entry.events ?? null);
    try {
      replay(db, factory, entry);
    } catch (error) {
      throw new Error(`decision ${entry.seq} of ${journalPath(factory)} (${entry.what} by ${entry.by}) could not be made again: ${(error as Error).message}`, {
        cause: error,
      });
    }
    result.decisions++;
  }
  return result;
}

/** What bringing a restored ledger up to date did. */
export interface CatchUpResult {
  /** Event lines applied since the copy was made. */
  events: number;
  /** Journaled decisions made again. */
  decisions: number;
}

/**
 * Brings a ledger just restored from a safety copy (or made anew) up to what was lost: the event
 * lines the copy had not read yet (ingest goes on from the offsets the copy holds) and the
 * journaled decisions after the copy's last one, interleaved as they happened, then the rest of
 * the event lines, then the chain and learnings files they owe.
 */
export function catchUpRestored(db: Db, factory: string, settings: Settings): CatchUpResult {
  const replayed = replayJournal(db, factory, settings);
  const rest = ingestSync(db, factory, { settings, export: false });
  flushOutbox(db, factory);
  exportPending(db, factory, settings.learnings.max_per_run);
  return { events: replayed.events + rest.applied, decisions: replayed.decisions };
}
