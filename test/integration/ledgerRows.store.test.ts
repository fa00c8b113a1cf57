/**
 * Records read back from the ledger have one definition each, their schema in shared/domain.ts:
 * the learnings columns, insert and save are made from the `Learning` schema's keys, and every
 * record is read through one checked mapping (store/rowCheck.ts), on real ledgers in temp folders.
 */
import { describe, expect, it } from 'vitest';
import { IMPACTS, LEARNING_STATES, Learning, Run, type Learning as LearningRecord } from '../../shared/domain.js';
import { FIXED_FIELDS, LEARNING_FIELDS, MUTABLE_FIELDS, getLearning } from '../../electron/node/store/learningRows.js';
import { insertLearning } from '../../electron/node/store/learnings.js';
import { saveLearning } from '../../electron/node/store/learningWrites.js';
import { RUN_FIELDS, applyRunStarted, listRuns, runDetail } from '../../electron/node/store/runs.js';
import { applyHelpRequested, getHelp, listHelp } from '../../electron/node/store/help.js';
import { listProposals } from '../../electron/node/store/activity.js';
import { activeForRun } from '../../electron/node/exporter.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import type { Db } from '../../electron/node/store/db.js';
import { freshLedgerEachTest } from '../support/ledger.js';
import { provisionalLearning } from '../support/learnings.js';

let db: Db;
freshLedgerEachTest('layover-rows-', (ledger) => ({ db } = ledger));

function columnsOf(table: string): string[] {
  return (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name);
}

/** A learning with every field drawn from `random`: any state, impact, counts and nullable times. */
function randomLearning(random: () => number, id: string): LearningRecord {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const time = (): string => new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 1e10)).toISOString();
  const maybe = <T>(value: () => T): T | null => (random() < 0.5 ? null : value());
  return {
    id,
    agent: pick(['builder', 'reviewer', 'scout']),
    text: `learning ${id} ${Math.floor(random() * 1e6)}`,
    impact: pick(IMPACTS),
    state: pick(LEARNING_STATES),
    proposals: Math.floor(random() * 50),
    rediscoveries: Math.floor(random() * 5),
    echoes: Math.floor(random() * 20),
    runs_left: Math.floor(random() * 10),
    first_at: time(),
    last_at: time(),
    live_since: maybe(time),
    lapsed_at: maybe(time),
    decided_by: maybe(() => pick(['Ana', 'Bo'])),
    decided_at: maybe(time),
    reason: maybe(() => `because ${Math.floor(random() * 100)}`),
  };
}

describe('the Learning schema is the one definition of a learning row', () => {
  it('every field of the Learning schema is a column of the learnings table, and the fields fixed at insert and those a write changes are every field, once each', () => {
    expect([...LEARNING_FIELDS].sort()).toEqual(Object.keys(Learning.shape).sort());
    const columns = columnsOf('learnings');
    for (const field of LEARNING_FIELDS) expect(columns).toContain(field);
    expect([...FIXED_FIELDS, ...MUTABLE_FIELDS].sort()).toEqual([...LEARNING_FIELDS].sort());
    expect(MUTABLE_FIELDS.filter((field) => (FIXED_FIELDS as readonly string[]).includes(field))).toEqual([]);
  });

  it('every field of the Run schema is a column of the runs table', () => {
    expect([...RUN_FIELDS].sort()).toEqual(Object.keys(Run.shape).sort());
    const columns = columnsOf('runs');
    for (const field of RUN_FIELDS) expect(columns).toContain(field);
  });

  it('a learning inserted reads back field for field, and a save writes every mutable field and never a fixed one', () => {
    const random = seededRandom(12);
    for (let i = 0; i < 200; i++) {
      const inserted = randomLearning(random, `lrn_${i}`);
      insertLearning(db, inserted);
      expect(getLearning(db, inserted.id)).toEqual(inserted);
      const other = randomLearning(random, inserted.id);
      saveLearning(db, other, inserted);
      const fixed = Object.fromEntries(FIXED_FIELDS.map((field) => [field, inserted[field]]));
      expect(getLearning(db, inserted.id)).toEqual({ ...other, ...fixed });
    }
  });
});

describe('a row that does not fit its record is refused at the read, in one line naming the record and the field', () => {
  it('a learning', () => {
    insertLearning(db, provisionalLearning({ id: 'lrn_1', text: 'Run the linter before pushing' }));
    db.prepare(`UPDATE learnings SET runs_left = 'many' WHERE id = 'lrn_1'`).run();
    expect(() => getLearning(db, 'lrn_1')).toThrow(/^the ledger's learning lrn_1 does not check out: runs_left: [^\n]+$/);
  });

  it('a learning on its way to a run: the export stops rather than tell a run a field it cannot trust', () => {
    insertLearning(db, provisionalLearning({ id: 'lrn_1', text: 'Run the linter before pushing' }));
    expect(activeForRun(db, 'builder', 25).map((l) => l.id)).toEqual(['lrn_1']);
    db.prepare(`UPDATE learnings SET text = x'6869' WHERE id = 'lrn_1'`).run();
    expect(() => activeForRun(db, 'builder', 25)).toThrow(/^the ledger's learning lrn_1 does not check out: text: [^\n]+$/);
  });

  it('a run whose stored flags are not JSON', () => {
    applyRunStarted(db, { run: 'run_1', agent: 'builder', chain: 'chn_1', workflow: 'build', flags: { publish: true }, routes: [], learnings: [], at: '2026-11-29T10:00:00Z' });
    expect(listRuns(db).rows[0]!.flags).toEqual({ publish: true });
    db.prepare(`UPDATE runs SET flags = '{"publish":tru' WHERE run = 'run_1'`).run();
    expect(() => listRuns(db)).toThrow(/^the ledger's run run_1 does not check out: flags: not JSON \("\{\\"publish\\":tru"\)$/);
  });

  it('a help request', () => {
    applyHelpRequested(db, { id: 'hlp_1', agent: 'builder', run: 'run_1', chain: 'chn_1', fatal: true, question: 'May I publish?', at: '2026-11-29T10:00:00Z' });
    db.prepare(`UPDATE help_requests SET category = 'whim' WHERE id = 'hlp_1'`).run();
    expect(() => listHelp(db)).toThrow(/^the ledger's help request hlp_1 does not check out: category: [^\n]+$/);
  });

  it('a help request whose record of the flags a reply changed is damaged: it is not read as "no change"', () => {
    applyHelpRequested(db, { id: 'hlp_1', agent: 'builder', run: 'run_1', chain: 'chn_1', fatal: true, question: 'May I publish?', at: '2026-11-29T10:00:00Z' });
    db.prepare(`UPDATE help_requests SET flags_changed = '{"publish":false}' WHERE id = 'hlp_1'`).run();
    expect(getHelp(db, 'hlp_1')?.flags_changed).toEqual({ publish: false });
    for (const [damaged, why] of [['{"publish":fal', 'not JSON'], ['{"publish":[false]}', ''], ['null', '']] as const) {
      db.prepare('UPDATE help_requests SET flags_changed = ? WHERE id = ?').run(damaged, 'hlp_1');
      expect(() => getHelp(db, 'hlp_1')).toThrow(new RegExp(`^the ledger's help request hlp_1 does not check out: flags_changed(\\.publish)?: ${why}[^\n]*$`));
    }
  });

  it("a run's detail whose previous run's given learnings are damaged", () => {
    for (const run of ['run_1', 'run_2']) {
      applyRunStarted(db, { run, agent: 'builder', chain: 'chn_1', workflow: 'build', flags: {}, routes: [], learnings: [], at: '2026-11-29T10:00:00Z' });
    }
    expect(runDetail(db, 'run_2', 3)?.previous).toBe('run_1');
    db.prepare(`UPDATE runs SET learnings = '["lrn_1",' WHERE run = 'run_1'`).run();
    expect(() => runDetail(db, 'run_2', 3)).toThrow(/^the ledger's run run_1 does not check out: learnings: not JSON [^\n]+$/);
  });

  it('a proposal of the log', () => {
    db.prepare(`INSERT INTO proposal_log (at, agent, run, text, impact, outcome) VALUES ('2026-11-29T10:00:00.000Z', 'builder', NULL, 'x', 'low', 'maybe')`).run();
    expect(() => listProposals(db)).toThrow(/^the ledger's proposal of builder at 2026-11-29T10:00:00.000Z does not check out: outcome: [^\n]+$/);
  });
});

describe('a help request whose stored flags cannot be read', () => {
  it('still reads, with its flags unknown (null), as a request whose run was never recorded does', () => {
    applyRunStarted(db, { run: 'run_1', agent: 'builder', chain: 'chn_1', workflow: 'build', flags: { publish: true }, routes: ['main'], learnings: [], at: '2026-11-29T10:00:00Z' });
    applyHelpRequested(db, { id: 'hlp_1', agent: 'builder', run: 'run_1', chain: 'chn_1', fatal: true, question: 'May I publish?', at: '2026-11-29T10:05:00Z' });
    expect(getHelp(db, 'hlp_1')).toMatchObject({ flags: { publish: true }, routes: ['main'] });
    for (const damaged of ['{"publish":tru', '{"publish":[true]}']) {
      db.prepare('UPDATE help_requests SET flags = ? WHERE id = ?').run(damaged, 'hlp_1');
      expect(getHelp(db, 'hlp_1')).toMatchObject({ id: 'hlp_1', flags: null, routes: ['main'] });
    }
  });
});
