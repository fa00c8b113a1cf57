/**
 * The sweep on a ledger filled by SQL, so each rule is checked on exactly the rows it is about.
 * (The same rules through ingested events and the CLI are in retention.cli.test.ts.)
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../electron/rules/settings.js';
import { ledgerPath, type Db } from '../../electron/node/store/db.js';
import { LAPSED_CANDIDATES, listSweeps, sweep } from '../../electron/node/sweep.js';
import { freshLedgerEachTest, keptRunCounts, openRuns } from '../support/ledger.js';
import { matchingLearnings } from '../../electron/node/store/matching.js';
import { insertLearning } from '../../electron/node/store/learnings.js';
import type { LearningState, RunOutcome } from '../../shared/domain.js';
import { applyRunFinished } from '../../electron/node/store/runs.js';
import { utcDay } from '../../electron/rules/time.js';
import { addDays, retentionHorizon } from '../../electron/rules/retention.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-11-29T12:00:00.000Z');
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

let factory: string;
let db: Db;

function settings(keep = 14, days = 90): Settings {
  return { learnings: { ...DEFAULT_SETTINGS.learnings, keep_lapsed_days: keep }, retention: { days } };
}

function addHelp(id: string, at: string): void {
  db.prepare(
    `INSERT INTO help_requests (id, agent, run, chain, fatal, question, at, day) VALUES (?, 'ag', 'r', 'c', 1, 'q?', ?, ?)`,
  ).run(id, at, utcDay(at));
}

function addRun(run: string, at: string, learnings: string[] = []): void {
  db.prepare(
    `INSERT INTO runs (run, seq, agent, chain, workflow, flags, routes, learnings, started_at, day)
     VALUES (?, (SELECT count(*) FROM runs), 'ag', 'c', 'wf', '{}', '[]', ?, ?, ?)`,
  ).run(run, JSON.stringify(learnings), at, utcDay(at));
}

/** Finishes every run still open, at its start, as ingest does (store/runs.ts), so Worth a look counts it. */
function finishOpenRuns(outcome: RunOutcome): void {
  for (const { run, agent, started_at } of openRuns(db)) applyRunFinished(db, { run, agent, outcome, at: started_at });
}

function addProposal(at: string, learningId: string | null = null): void {
  db.prepare(
    `INSERT INTO proposal_log (at, agent, text, impact, outcome, learning_id) VALUES (?, 'ag', 'some text', 'low', 'new', ?)`,
  ).run(at, learningId);
}

function addRefused(at: string): void {
  db.prepare(`INSERT INTO refused_lines (file, line, reason, excerpt, seen_at, day) VALUES ('x.jsonl', 1, 'bad', '{', ?, ?)`).run(
    at,
    utcDay(at),
  );
}

function addLearning(
  id: string,
  state: string,
  times: { last_at: string; lapsed_at?: string | null },
  words = ['alpha', 'beta', 'gamma'],
): void {
  insertLearning(db, {
    id,
    agent: 'ag',
    text: words.join(' '),
    impact: 'medium',
    state: state as LearningState,
    proposals: 1,
    rediscoveries: 0,
    echoes: 0,
    runs_left: 0,
    first_at: times.last_at,
    last_at: times.last_at,
    live_since: null,
    lapsed_at: times.lapsed_at ?? null,
    decided_by: null,
    decided_at: null,
    reason: null,
  });
  db.prepare(
    `INSERT INTO learning_history (learning_id, at, day, kind, state_after) VALUES (?, ?, ?, 'proposed', 'provisional')`,
  ).run(id, times.last_at, utcDay(times.last_at));
}

const ids = (table: string, column = 'id') =>
  (db.prepare(`SELECT ${column} AS v FROM ${table} ORDER BY 1`).all() as { v: string }[]).map((r) => r.v);

freshLedgerEachTest('layover-sweep-', (ledger) => ({ factory, db } = ledger));

describe('sweeping events-like records by whole UTC day', () => {
  it('help requests, runs, logged proposals and refused lines 89 days old are kept and 91 days old deleted', () => {
    addHelp('h89', ago(89));
    addHelp('h91', ago(91));
    addLearning('lrn_a', 'confirmed', { last_at: ago(95) });
    addLearning('lrn_b', 'confirmed', { last_at: ago(95) });
    addRun('r89', ago(89), ['lrn_a']);
    addRun('r91', ago(91), ['lrn_a', 'lrn_b']);
    finishOpenRuns('succeeded');
    addProposal(ago(89));
    addProposal(ago(91));
    addProposal(ago(92));
    addRefused(ago(89));
    addRefused(ago(91));

    const report = sweep(db, factory, settings(), NOW);

    expect(ids('help_requests')).toEqual(['h89']);
    expect(ids('runs', 'run')).toEqual(['r89']);
    const lrnA = db.prepare(`SELECT rowid FROM learnings WHERE id = 'lrn_a'`).pluck().get();
    expect(keptRunCounts(db)).toEqual({ learnings: [{ rowid: lrnA, runs: 1, succeeded: 1 }], agents: [{ agent: 'ag', runs: 1, succeeded: 1 }] });
    expect(ids('proposals', 'day')).toEqual([utcDay(ago(89))]);
    expect(ids('refused_lines', 'day')).toEqual([utcDay(ago(89))]);
    expect(report).toEqual({
      at: NOW.toISOString(),
      help_requests: 1,
      runs: 1,
      proposals: 2,
      refused_lines: 1,
      event_files: 0,
      lapsed_learnings: 0,
      chains: 0,
    });
  });

  it('keeps the horizon day whole, even its first second, and deletes the last second of the day before', () => {
    const horizon = retentionHorizon(NOW, settings());
    addHelp('h_first_second', `${horizon}T00:00:00.000Z`);
    addHelp('h_day_before', `${addDays(horizon, -1)}T23:59:59.999Z`);
    sweep(db, factory, settings(), NOW);
    expect(ids('help_requests')).toEqual(['h_first_second']);
  });

  it('a second sweep at the same time deletes nothing more and says so', () => {
    addHelp('h91', ago(91));
    sweep(db, factory, settings(), NOW);
    expect(sweep(db, factory, settings(), NOW)).toMatchObject({ help_requests: 0, runs: 0, proposals: 0, lapsed_learnings: 0 });
  });
});

describe('sweeping learnings', () => {
  it('a lapsed learning swept away takes its run counts along, so a rowid used again inherits no runs', () => {
    addLearning('lrn_gone', 'lapsed', { last_at: ago(40), lapsed_at: ago(20) });
    addRun('r10', ago(10), ['lrn_gone']);
    finishOpenRuns('failed');
    expect(keptRunCounts(db).learnings).toHaveLength(1);
    sweep(db, factory, settings(14), NOW);
    expect(ids('learnings')).toEqual([]);
    expect(keptRunCounts(db).learnings).toEqual([]);
    addLearning('lrn_new', 'provisional', { last_at: ago(1) });
    expect(keptRunCounts(db).learnings).toEqual([]);
  });

  it('a lapsed learning 13 days after it lapsed stays and one 15 days after goes, with its matches, search entry and history', () => {
    addLearning('lrn_13', 'lapsed', { last_at: ago(40), lapsed_at: ago(13) }, ['kept', 'thirteen', 'days']);
    addLearning('lrn_15', 'lapsed', { last_at: ago(40), lapsed_at: ago(15) }, ['gone', 'fifteen', 'days']);
    expect(matchingLearnings(db, 'ag', 'gone fifteen days').map((l) => l.id)).toEqual(['lrn_15']);

    const report = sweep(db, factory, settings(14), NOW);

    expect(report.lapsed_learnings).toBe(1);
    expect(ids('learnings')).toEqual(['lrn_13']);
    expect(ids('learning_history', 'learning_id')).toEqual(['lrn_13']);
    expect(matchingLearnings(db, 'ag', 'gone fifteen days')).toEqual([]);
    expect(matchingLearnings(db, 'ag', 'kept thirteen days').map((l) => l.id)).toEqual(['lrn_13']);
    const found = db.prepare("SELECT rowid FROM learnings_fts WHERE learnings_fts MATCH 'fifteen'").all();
    expect(found).toEqual([]);
    expect(db.prepare("SELECT count(*) AS n FROM learnings_fts WHERE learnings_fts MATCH 'thirteen'").get()).toEqual({ n: 1 });
  });

  it('a lapsed learning with no lapsed_at is judged by last_at', () => {
    addLearning('lrn_old', 'lapsed', { last_at: ago(15), lapsed_at: null });
    addLearning('lrn_new', 'lapsed', { last_at: ago(13), lapsed_at: null });
    expect(sweep(db, factory, settings(14), NOW).lapsed_learnings).toBe(1);
    expect(ids('learnings')).toEqual(['lrn_new']);
  });

  it('keep_lapsed_days = 0 deletes a learning that lapsed a moment ago', () => {
    addLearning('lrn_now', 'lapsed', { last_at: ago(1), lapsed_at: NOW.toISOString() });
    expect(sweep(db, factory, settings(0), NOW).lapsed_learnings).toBe(1);
    expect(ids('learnings')).toEqual([]);
  });

  it('rejected, confirmed and provisional learnings older than every horizon stay, with their history', () => {
    const ancient = ago(5000);
    addLearning('lrn_rej', 'rejected', { last_at: ancient, lapsed_at: ancient });
    addLearning('lrn_conf', 'confirmed', { last_at: ancient });
    addLearning('lrn_prov', 'provisional', { last_at: ancient });
    const report = sweep(db, factory, settings(0, 1), NOW);
    expect(report.lapsed_learnings).toBe(0);
    expect(ids('learnings')).toEqual(['lrn_conf', 'lrn_prov', 'lrn_rej']);
    expect(ids('learning_history', 'learning_id')).toEqual(['lrn_conf', 'lrn_prov', 'lrn_rej']);
  });
});

describe('sweeping events files', () => {
  function writeEvents(day: string, content: string, readTo: number | null): string {
    const dir = path.join(factory, 'events');
    fs.mkdirSync(dir, { recursive: true });
    const name = `${day}.jsonl`;
    fs.writeFileSync(path.join(dir, name), content);
    if (readTo !== null) db.prepare('INSERT INTO event_files (name, offset, lines) VALUES (?, ?, 1)').run(name, readTo);
    return name;
  }

  it('fully read old files are deleted with their rows; unread, half-read and recent ones stay', () => {
    const line = '{"type":"x"}\n';
    const read = writeEvents(utcDay(ago(91)), line, line.length);
    const unread = writeEvents(utcDay(ago(92)), line, null);
    const halfRead = writeEvents(utcDay(ago(93)), line + line, line.length);
    const recent = writeEvents(utcDay(ago(89)), line, line.length);

    const report = sweep(db, factory, settings(), NOW);

    expect(report.event_files).toBe(1);
    expect(fs.readdirSync(path.join(factory, 'events')).sort()).toEqual([halfRead, unread, recent].sort());
    expect(ids('event_files', 'name')).toEqual([halfRead, recent].sort());
    expect(fs.existsSync(path.join(factory, 'events', read))).toBe(false);
  });

  it('a file that cannot be deleted keeps its row (so it is never read twice) and the stored report counts only what went', () => {
    const line = '{"type":"x"}\n';
    const gone = writeEvents(utcDay(ago(91)), line, line.length);
    const stuck = writeEvents(utcDay(ago(95)), line, line.length);
    const real = fs.unlinkSync;
    const spy = vi.spyOn(fs, 'unlinkSync').mockImplementation((file) => {
      if (String(file).endsWith(stuck)) throw Object.assign(new Error('EBUSY: resource busy'), { code: 'EBUSY' });
      real(file);
    });
    try {
      const report = sweep(db, factory, settings(), NOW);
      expect(report.event_files).toBe(1);
      expect(listSweeps(db, { offset: 0, limit: 1 }).rows[0]).toEqual(report);
      expect(ids('event_files', 'name')).toEqual([stuck]);
      expect(fs.readdirSync(path.join(factory, 'events'))).toEqual([stuck]);
      expect(fs.existsSync(path.join(factory, 'events', gone))).toBe(false);
    } finally {
      spy.mockRestore();
    }
    expect(sweep(db, factory, settings(), NOW).event_files).toBe(1);
    expect(ids('event_files', 'name')).toEqual([]);
  });
});

describe('the record of sweeps', () => {
  it('every sweep is recorded and listed newest first', () => {
    addHelp('h91', ago(91));
    sweep(db, factory, settings(), new Date(NOW.getTime() - 1000));
    addLearning('lrn_x', 'lapsed', { last_at: ago(20), lapsed_at: ago(20) });
    sweep(db, factory, settings(), NOW);
    const { rows } = listSweeps(db, { offset: 0, limit: 10 });
    expect(rows.map((r) => [r.help_requests, r.lapsed_learnings])).toEqual([
      [0, 1],
      [1, 0],
    ]);
    expect(rows[0]?.at).toBe(NOW.toISOString());
    expect(listSweeps(db, { offset: 1, limit: 10 }).rows).toHaveLength(1);
  });

  it('a report stored before refused lines were counted reads as none deleted', () => {
    db.prepare('INSERT INTO sweeps (at, report) VALUES (?, ?)').run(
      NOW.toISOString(),
      JSON.stringify({ at: NOW.toISOString(), help_requests: 1, runs: 0, proposals: 0, event_files: 0, lapsed_learnings: 0 }),
    );
    expect(listSweeps(db, { offset: 0, limit: 1 }).rows).toEqual([
      { at: NOW.toISOString(), help_requests: 1, runs: 0, proposals: 0, refused_lines: 0, event_files: 0, lapsed_learnings: 0, chains: 0 },
    ]);
  });

  it('a chain goes once nothing names it and it is older than the horizon; one a reply started is kept while its request is', () => {
    const addChain = (chain: string, at: string) =>
      db.prepare("INSERT INTO chains (chain, agent, created_at) VALUES (?, 'ag', ?)").run(chain, at);
    addChain('c_orphan', ago(120));
    addChain('c_recent', ago(2));
    addChain('c_with_run', ago(120));
    addRun('r_new', ago(1));
    db.prepare("UPDATE runs SET chain = 'c_with_run' WHERE run = 'r_new'").run();
    addChain('c_replied', ago(120));
    addHelp('h_new', ago(1));
    db.prepare("UPDATE help_requests SET state = 'answered', continued_as = 'c_replied' WHERE id = 'h_new'").run();
    const report = sweep(db, factory, settings(), NOW);
    expect(report.chains).toBe(1);
    expect(ids('chains', 'chain')).toEqual(['c_recent', 'c_replied', 'c_with_run']);
  });

  it('sweep reports are kept as long as the other logs and go with them', () => {
    sweep(db, factory, settings(), new Date(Date.parse(ago(91))));
    sweep(db, factory, settings(), new Date(Date.parse(ago(89))));
    sweep(db, factory, settings(), NOW);
    expect(listSweeps(db, { offset: 0, limit: 10 }).rows.map((r) => r.at)).toEqual([NOW.toISOString(), new Date(Date.parse(ago(89))).toISOString()]);
  });

  it('a sweep that fails part-way deletes nothing (one transaction)', () => {
    addHelp('h91', ago(91));
    addLearning('lrn_15', 'lapsed', { last_at: ago(40), lapsed_at: ago(15) });
    db.exec(`CREATE TRIGGER fail_sweep BEFORE INSERT ON sweeps BEGIN SELECT RAISE(ABORT, 'boom'); END`);
    expect(() => sweep(db, factory, settings(), NOW)).toThrow(/boom/);
    expect(ids('help_requests')).toEqual(['h91']);
    expect(ids('learnings')).toEqual(['lrn_15']);
  });
});

describe('a sweep stays cheap on a large ledger', () => {
  it('reads the lapsed learnings past their cutoff through a range of the lapsed-clock index, never every lapsed learning', () => {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${LAPSED_CANDIDATES}`).all(NOW.toISOString()) as { detail: string }[])
      .map((row) => row.detail)
      .join('\n');
    expect(plan).toMatch(/SEARCH learnings USING INDEX learnings_lapsed_clock \(<expr><\?\)/);
  });

  /** Small, so that the sweep below leaves more pages than this in the log. */
  const CHECKPOINT_PAGES = 5;
  const ledgerFile = () => createHash('sha256').update(fs.readFileSync(ledgerPath(factory))).digest('hex');
  function manyOldRecords(): void {
    db.transaction(() => {
      for (let i = 0; i < 300; i++) {
        addHelp(`h${i}`, ago(91));
        addProposal(ago(91));
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
  }

  it('given somewhere to hand its checkpoint, commits without copying the log into the ledger file; the checkpoint handed back copies it, and the automatic checkpoint is on again', () => {
    manyOldRecords();
    const before = ledgerFile();
    let checkpoint: (() => void) | undefined;
    const report = sweep(db, factory, settings(), NOW, (later) => (checkpoint = later));
    expect([report.help_requests, report.proposals]).toEqual([300, 300]);
    expect(ledgerFile()).toBe(before);
    checkpoint!();
    expect(ledgerFile()).not.toBe(before);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(CHECKPOINT_PAGES);
  });

  it('without it, is copied into the ledger file by its own commit', () => {
    manyOldRecords();
    const before = ledgerFile();
    expect(sweep(db, factory, settings(), NOW).help_requests).toBe(300);
    expect(ledgerFile()).not.toBe(before);
  });

  it('that fails still hands back its checkpoint and turns the automatic checkpoint back on', () => {
    manyOldRecords();
    db.exec(`CREATE TRIGGER fail_sweep BEFORE INSERT ON sweeps BEGIN SELECT RAISE(ABORT, 'boom'); END`);
    let handed = false;
    expect(() => sweep(db, factory, settings(), NOW, () => (handed = true))).toThrow(/boom/);
    expect(handed).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(CHECKPOINT_PAGES);
  });
});
