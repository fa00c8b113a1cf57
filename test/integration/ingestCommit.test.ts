/**
 * Rules of ingest that a mutation pass showed no test would notice breaking (issue 12), on a
 * real ledger in a temporary factory, through ingest itself:
 * - run counting at its boundary: a provisional learning with two runs left has one left after
 *   the next finished run of its agent, and lapses after the one after that;
 * - a batch and its stored offset commit together: when storing the offset fails, none of the
 *   batch's effects are in the ledger, and the next ingest applies each line exactly once;
 * - the agent side writes exactly the lines ingest reads (one size limit, MAX_LINE_BYTES).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendEventLine } from '../../electron/node/factory.js';
import { ingestSync } from '../../electron/node/ingest.js';
import { MAX_LINE_BYTES } from '../../electron/rules/events.js';
import { ledgerPath, openDb, type Db } from '../../electron/node/store/db.js';
import { parseSettingsToml, type Settings } from '../../electron/rules/settings.js';
import { fullRun, helpRequested, proposed } from '../support/events.js';
import { appendEvents, tempFactory, type TempFactory } from '../support/factory.js';

/** Three runs, so a learning reaches runs_left = 2 after one run and the boundary is the next two. */
const PROVISIONAL_RUNS = 3;
const settings = (parseSettingsToml(`[learnings]\nprovisional_runs = ${PROVISIONAL_RUNS}\n`) as { settings: Settings }).settings;

let factory: TempFactory;
let db: Db;
beforeEach(() => {
  factory = tempFactory('layover-ingest-commit-');
  db = openDb(ledgerPath(factory.dir));
});
afterEach(() => {
  db.close();
  factory.remove();
});

function ingest(): void {
  ingestSync(db, factory.dir, { settings, export: false });
}

interface LearningRow {
  state: string;
  runs_left: number;
  lapsed_at: string | null;
  proposals: number;
}

function learning(text: string): LearningRow {
  return db.prepare('SELECT state, runs_left, lapsed_at, proposals FROM learnings WHERE text = ?').get(text) as LearningRow;
}

const CLAIM = 'the staging database resets every night at midnight';

describe('run counting at the boundary (docs/rules.md#learnings)', () => {
  beforeEach(() => {
    appendEvents(
      factory.dir,
      proposed({ at: '2026-03-01T08:00:00.000Z', agent: 'builder', text: CLAIM }),
      ...fullRun('builder', 'r1', '2026-03-01T09:00:00.000Z', '2026-03-01T09:30:00.000Z'),
    );
    ingest();
    expect(learning(CLAIM)).toMatchObject({ state: 'provisional', runs_left: 2, lapsed_at: null });
  });

  it('a provisional learning with two runs left has one run left, still provisional, after its agent finishes one more run', () => {
    appendEvents(factory.dir, ...fullRun('builder', 'r2', '2026-03-02T09:00:00.000Z', '2026-03-02T09:30:00.000Z'));
    ingest();
    expect(learning(CLAIM)).toMatchObject({ state: 'provisional', runs_left: 1, lapsed_at: null });
  });

  it('a provisional learning with one run left lapses, at the finish of the run that used it up, after its agent finishes that run', () => {
    appendEvents(factory.dir, ...fullRun('builder', 'r2', '2026-03-02T09:00:00.000Z', '2026-03-02T09:30:00.000Z'));
    ingest();
    appendEvents(factory.dir, ...fullRun('builder', 'r3', '2026-03-03T09:00:00.000Z', '2026-03-03T09:30:00.000Z'));
    ingest();
    expect(learning(CLAIM)).toMatchObject({ state: 'lapsed', runs_left: 0, lapsed_at: '2026-03-03T09:30:00.000Z' });
  });

  it('counts the two boundary runs the same when both finish in one ingest batch', () => {
    appendEvents(
      factory.dir,
      ...fullRun('builder', 'r2', '2026-03-02T09:00:00.000Z', '2026-03-02T09:30:00.000Z'),
      ...fullRun('builder', 'r3', '2026-03-03T09:00:00.000Z', '2026-03-03T09:30:00.000Z'),
    );
    ingest();
    expect(learning(CLAIM)).toMatchObject({ state: 'lapsed', runs_left: 0, lapsed_at: '2026-03-03T09:30:00.000Z' });
  });

  it('a run of another agent does not count against the learning', () => {
    appendEvents(factory.dir, ...fullRun('reviewer', 'x1', '2026-03-02T09:00:00.000Z', '2026-03-02T09:30:00.000Z'));
    ingest();
    expect(learning(CLAIM)).toMatchObject({ state: 'provisional', runs_left: 2 });
  });
});

describe('a batch and its stored offset commit together', () => {
  /** Everything ingest writes that a line's effect could show up in. */
  function ledgerContents(): Record<string, unknown> {
    const all = (sql: string) => db.prepare(sql).all();
    return {
      learnings: all('SELECT text, state, runs_left, proposals, lapsed_at FROM learnings ORDER BY text'),
      runs: all('SELECT run, finished_at FROM runs ORDER BY run'),
      help: all('SELECT id, state FROM help_requests ORDER BY id'),
      refused: all('SELECT file, line, reason FROM refused_lines ORDER BY file, line'),
      offsets: all('SELECT name, offset, lines FROM event_files ORDER BY name'),
      history: all('SELECT COUNT(*) AS n FROM learning_history'),
    };
  }

  it('leaves none of a batch in the ledger when storing its offset fails, and the next ingest applies each line once', () => {
    appendEvents(
      factory.dir,
      proposed({ at: '2026-03-01T08:00:00.000Z', agent: 'builder', text: CLAIM }),
      ...fullRun('builder', 'r1', '2026-03-01T09:00:00.000Z', '2026-03-01T09:30:00.000Z'),
    );
    ingest();
    const before = ledgerContents();

    // The second batch: a new learning, a run that counts against both, a help request.
    const NEW_CLAIM = 'run the migrations before the integration suite';
    appendEvents(
      factory.dir,
      proposed({ at: '2026-03-01T10:00:00.000Z', agent: 'builder', text: NEW_CLAIM }),
      ...fullRun('builder', 'r2', '2026-03-01T11:00:00.000Z', '2026-03-01T11:30:00.000Z'),
      helpRequested({ at: '2026-03-01T11:10:00.000Z', id: 'hlp_1', agent: 'builder', run: 'r2', chain: 'chn_r2' }),
    );
    db.exec(`
      CREATE TRIGGER offset_fails_update BEFORE UPDATE ON event_files BEGIN SELECT RAISE(ABORT, 'injected offset failure'); END;
      CREATE TRIGGER offset_fails_insert BEFORE INSERT ON event_files BEGIN SELECT RAISE(ABORT, 'injected offset failure'); END;
    `);
    expect(() => ingest()).toThrow(/injected offset failure/);
    expect(ledgerContents()).toEqual(before);

    db.exec('DROP TRIGGER offset_fails_update; DROP TRIGGER offset_fails_insert;');
    ingest();
    const after = ledgerContents();
    expect(after.refused).toEqual([]);
    expect(learning(CLAIM)).toMatchObject({ state: 'provisional', runs_left: 1, proposals: 1 });
    expect(learning(NEW_CLAIM)).toMatchObject({ state: 'provisional', runs_left: PROVISIONAL_RUNS - 1, proposals: 1 });
    expect(after.runs).toEqual([
      { run: 'r1', finished_at: '2026-03-01T09:30:00.000Z' },
      { run: 'r2', finished_at: '2026-03-01T11:30:00.000Z' },
    ]);
    expect(after.help).toEqual([{ id: 'hlp_1', state: 'open' }]);
    expect(after.offsets).toEqual([{ name: '2026-03-01.jsonl', offset: expect.any(Number), lines: 7 }]);

    // A third ingest finds nothing new: the offset stored with the batch covers every line.
    ingest();
    expect(ledgerContents()).toEqual(after);
  });
});

describe('one line-size limit for the writer and the reader', () => {
  /** A help request padded so that its line is exactly `bytes` long. */
  function lineOf(bytes: number): string {
    const event = helpRequested({ at: '2026-03-01T08:00:00.000Z', id: 'hlp_big', agent: 'builder', run: 'r1', chain: 'c1', question: '' });
    const bare = JSON.stringify(event).length;
    return JSON.stringify({ ...event, question: 'q'.repeat(bytes - bare) });
  }

  it('writes and then ingests a line of exactly MAX_LINE_BYTES, and refuses to write one byte more', () => {
    expect(Buffer.byteLength(lineOf(MAX_LINE_BYTES))).toBe(MAX_LINE_BYTES);
    expect(() => appendEventLine(factory.dir, lineOf(MAX_LINE_BYTES + 1))).toThrow(`an event line holds at most ${MAX_LINE_BYTES}`);
    appendEventLine(factory.dir, lineOf(MAX_LINE_BYTES), new Date('2026-03-01T08:00:00.000Z'));
    ingest();
    expect(db.prepare('SELECT id FROM help_requests').all()).toEqual([{ id: 'hlp_big' }]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM refused_lines').get()).toEqual({ n: 0 });
  });
});
