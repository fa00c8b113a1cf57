/**
 * A person's decision over many learnings is written set-based (store/decisions.ts: one statement
 * for the history lines with their undo snapshots, one for the learnings). It must come out as
 * deciding each learning on its own with the rules (`decide`, `snapshotOf` in rules/ledger.ts)
 * would: the same learnings, history lines, journal line and export marks, on seeded ledgers
 * holding every state, decided and undecided learnings, duplicate, missing and inapplicable ids.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Impact, Learning, LearningState } from '../../shared/domain.js';
import { compareForRun, decide, isActive, snapshotOf } from '../../electron/rules/ledger.js';
import type { DecisionKind } from '../../shared/domain.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { exportPending, readLearningsFile } from '../../electron/node/exporter.js';
import { learningsFileFor } from '../../electron/node/factory.js';
import { flushJournal, journalPath, readJournal } from '../../electron/node/journal.js';
import type { Db } from '../../electron/node/store/db.js';
import { insertLearning } from '../../electron/node/store/learnings.js';
import { decideLearnings, undoDecisions, type DecisionResult } from '../../electron/node/store/decisions.js';
import { getLearning, LEARNING_COLUMNS } from '../../electron/node/store/learningRows.js';
import { freshLedgerEachTest } from '../support/ledger.js';

let db: Db;
let factory: string;
freshLedgerEachTest('layover-bulk-', (ledger) => ({ db, factory } = ledger));

const STATES: LearningState[] = ['provisional', 'confirmed', 'lapsed', 'rejected'];
const IMPACTS: Impact[] = ['low', 'medium', 'high'];
const AGENTS = ['builder', 'reviewer', 'tester'];
const LEARNINGS = 120;
const ROUNDS = 12;

type Random = () => number;
const pick = <T,>(next: Random, list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
const time = (next: Random) => new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 1e9)).toISOString();
const maybe = <T,>(next: Random, value: T): T | null => (next() < 0.5 ? value : null);

/** Learnings in every state, some decided before (by, time, a reason with quotes and a newline). */
function seed(next: Random): string[] {
  const ids: string[] = [];
  db.transaction(() => {
    for (let i = 0; i < LEARNINGS; i++) {
      const state = pick(next, STATES);
      const at = time(next);
      const decided = state === 'rejected' || state === 'confirmed' ? next() < 0.7 : next() < 0.2;
      const l: Learning = {
        id: `lrn_${String(i).padStart(4, '0')}`,
        agent: pick(next, AGENTS),
        text: `learning ${i}: «${pick(next, ['cache', 'docker', 'token'])}» "quoted"`,
        impact: pick(next, IMPACTS),
        state,
        proposals: 1 + Math.floor(next() * 4),
        rediscoveries: Math.floor(next() * 3),
        echoes: Math.floor(next() * 3),
        runs_left: state === 'lapsed' ? 0 : Math.floor(next() * 20),
        first_at: at,
        last_at: at,
        live_since: maybe(next, at),
        lapsed_at: state === 'lapsed' ? at : maybe(next, at),
        decided_by: decided ? pick(next, ['Ana', 'Ben']) : null,
        decided_at: decided ? at : null,
        reason: decided ? maybe(next, 'said "no"\nonce') : null,
      };
      insertLearning(db, l);
      ids.push(l.id);
    }
  })();
  return ids;
}

/** Every learning by id, without the `changed` stamp (a write stamps it, whichever path wrote). */
function learnings(): Map<string, Learning> {
  return new Map((db.prepare(`SELECT ${LEARNING_COLUMNS} FROM learnings`).all() as Learning[]).map((l) => [l.id, l]));
}

interface HistoryRow {
  learning_id: string;
  at: string;
  day: string;
  kind: string;
  by: string | null;
  reason: string | null;
  run: string | null;
  state_before: string | null;
  state_after: string;
  undo: unknown;
}

function historyAfter(seq: number): HistoryRow[] {
  return (db.prepare('SELECT learning_id, at, day, kind, by, reason, run, state_before, state_after, undo FROM learning_history WHERE seq > ? ORDER BY seq').all(seq) as HistoryRow[]).map(
    (h) => ({ ...h, undo: h.undo === null ? null : JSON.parse(h.undo as string) }),
  );
}

const lastHistorySeq = () => (db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM learning_history').get() as { seq: number }).seq;
const exportMarks = () => (db.prepare('SELECT agent FROM export_pending ORDER BY agent').all() as { agent: string }[]).map((r) => r.agent);
const lastJournal = () => JSON.parse((db.prepare('SELECT line FROM decision_journal ORDER BY seq DESC LIMIT 1').get() as { line: string }).line) as Record<string, unknown>;

/** What deciding each targeted learning on its own, with the rules, gives. */
function oneByOne(before: Map<string, Learning>, kind: DecisionKind, targets: string[], by: string, at: string, reason: string | null) {
  const result: DecisionResult = { changed: [], unchanged: [], missing: [], agents: [] };
  const after = new Map(before);
  const history: HistoryRow[] = [];
  const agents = new Set<string>();
  for (const id of new Set(targets)) {
    const l = before.get(id);
    if (!l) {
      result.missing.push(id);
      continue;
    }
    const decided = decide(kind, l, { by, at, reason });
    if (!decided) {
      result.unchanged.push(id);
      continue;
    }
    after.set(id, decided);
    result.changed.push(id);
    history.push({
      learning_id: id,
      at,
      day: at.slice(0, 10),
      kind: kind === 'reject' ? 'rejected' : 'kept',
      by,
      reason,
      run: null,
      state_before: l.state,
      state_after: decided.state,
      undo: snapshotOf(l),
    });
    if (isActive(l.state) || isActive(decided.state)) agents.add(l.agent);
  }
  result.agents = [...agents].sort();
  return { result, after, history, journaled: result.changed.map((id) => ({ id, agent: before.get(id)!.agent, text: before.get(id)!.text })) };
}

describe('a decision over many learnings', () => {
  it('comes out exactly as deciding each learning on its own with the rules: learnings, history with undo snapshots, journal line and export marks', () => {
    const next = seededRandom(17);
    const ids = seed(next);
    for (let round = 0; round < ROUNDS; round++) {
      const kind = pick(next, ['reject', 'keep'] as const);
      const targets = Array.from({ length: 1 + Math.floor(next() * 60) }, () => (next() < 0.1 ? `lrn_missing_${Math.floor(next() * 5)}` : pick(next, ids)));
      const by = pick(next, ['Ana', 'Ben', 'Chloé']);
      const at = time(next);
      const reason = maybe(next, ` round ${round} "why"\nsaid twice\n`);
      const before = learnings();
      const seq = lastHistorySeq();
      db.prepare('DELETE FROM export_pending').run();
      // A decision keeps its reason trimmed, as it keeps the person's name.
      const expected = oneByOne(before, kind, targets, by, at, reason?.trim() ?? null);

      const result = decideLearnings(db, kind, { ids: targets }, { by, reason, now: new Date(at) });

      expect(result).toEqual(expected.result);
      expect(learnings()).toEqual(expected.after);
      expect(historyAfter(seq)).toEqual(expected.history);
      expect(exportMarks()).toEqual(expected.result.agents);
      if (result.changed.length > 0) {
        expect(lastJournal()).toMatchObject({ what: kind, at, by, reason: reason?.trim() ?? null, learnings: expected.journaled });
      }
    }
  });

  it('undone, gives every learning it changed back every field it had, even when the learning had been decided before', () => {
    const next = seededRandom(23);
    const ids = seed(next);
    const before = learnings();
    const at = '2026-06-01T10:00:00.000Z';
    const rejected = decideLearnings(db, 'reject', { ids }, { by: 'Ana', reason: 'bulk', now: new Date(at) });
    expect(rejected.changed.length).toBeGreaterThan(LEARNINGS / 2);
    const undone = undoDecisions(db, rejected.changed, { by: 'Ana', now: new Date('2026-06-01T10:05:00.000Z') });
    expect(undone.changed).toEqual(rejected.changed);
    expect(learnings()).toEqual(before);
    for (const id of rejected.unchanged) expect(getLearning(db, id)).toEqual(before.get(id));
  });
});

describe('undoing decisions over many learnings', () => {
  it('one bulk undo per decision, newest first, brings every learning back as it was before the first, through decisions stacked on the same learnings', () => {
    const next = seededRandom(29);
    const ids = seed(next);
    const seeded = learnings();
    const made: string[][] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const targets = ids.filter(() => next() < 0.4);
      const kind = pick(next, ['reject', 'keep'] as const);
      made.push(decideLearnings(db, kind, { ids: targets }, { by: 'Ana', now: new Date(time(next)) }).changed);
    }
    for (const changed of made.reverse()) {
      expect(undoDecisions(db, changed, { by: 'Ben', now: new Date(time(next)) }).changed).toEqual(changed);
    }
    expect(learnings()).toEqual(seeded);
  });
});

describe('the journal line of a decision over many learnings', () => {
  /** Enough learnings, with long enough texts, that one decision's line is several times 64 KiB. */
  const MANY = 1500;

  function manyLearnings(): string[] {
    const next = seededRandom(5);
    return seed(next).concat(
      db.transaction(() =>
        Array.from({ length: MANY }, (_, i) => {
          const at = time(next);
          const id = `lrn_long_${String(i).padStart(5, '0')}`;
          insertLearning(db, {
            id, agent: 'builder', text: `a long learning ${i} `.repeat(8), impact: 'low', state: 'lapsed', proposals: 1, rediscoveries: 0, echoes: 0,
            runs_left: 0, first_at: at, last_at: at, live_since: at, lapsed_at: at, decided_by: null, decided_at: null, reason: null,
          });
          return id;
        }),
      )(),
    );
  }

  it('is appended once however long it is, and the decisions after it are appended after it', () => {
    const ids = manyLearnings();
    decideLearnings(db, 'reject', { ids }, { by: 'Ana', now: new Date('2026-06-01T10:00:00.000Z') });
    expect(flushJournal(db, factory)).toBe(1);
    expect(fs.statSync(journalPath(factory)).size).toBeGreaterThan(4 * 64 * 1024);
    undoDecisions(db, [ids.at(-1)!], { by: 'Ben', now: new Date('2026-06-01T10:01:00.000Z') });
    expect(flushJournal(db, factory)).toBe(1);
    expect(readJournal(factory).map((e) => [e.seq, e.what, e.by])).toEqual([
      [1, 'reject', 'Ana'],
      [2, 'undo', 'Ben'],
    ]);
  });

  it('reaches the file byte for byte as the ledger holds it, texts in any script and character escapes included', () => {
    const texts = ['заголовок Accept-Language теряется при повторе', '重试时丢失 Accept-Language 头', 'café «naïve» — 😀 \u2028 "quoted" \\ back', 'ok\u0000nul'];
    const ids = db.transaction(() =>
      texts.map((text, i) => {
        const id = `lrn_script_${i}`;
        const at = '2026-05-01T00:00:00.000Z';
        insertLearning(db, {
          id, agent: 'builder', text, impact: 'low', state: 'provisional', proposals: 1, rediscoveries: 0, echoes: 0,
          runs_left: 5, first_at: at, last_at: at, live_since: at, lapsed_at: null, decided_by: null, decided_at: null, reason: null,
        });
        return id;
      }),
    )();
    decideLearnings(db, 'reject', { ids }, { by: 'Zoë', now: new Date('2026-06-01T10:00:00.000Z'), reason: 'тест' });
    expect(flushJournal(db, factory)).toBe(1);
    const line = (db.prepare('SELECT line FROM decision_journal WHERE seq = 1').get() as { line: string }).line;
    expect(fs.readFileSync(journalPath(factory))).toEqual(Buffer.from(`${line}\n`, 'utf8'));
    const [entry] = readJournal(factory);
    expect(entry!.what === 'reject' && entry!.learnings.map((l) => l.text)).toEqual(texts);
  });

  it('torn by a crash mid-append, is cut off whole however long it is, and comes again once', () => {
    const ids = manyLearnings();
    decideLearnings(db, 'reject', { ids }, { by: 'Ana', now: new Date('2026-06-01T10:00:00.000Z') });
    const line = (db.prepare('SELECT line FROM decision_journal WHERE seq = 1').get() as { line: string }).line;
    fs.writeFileSync(journalPath(factory), line.slice(0, Math.floor(line.length * 0.9)));
    expect(flushJournal(db, factory)).toBe(1);
    expect(fs.readFileSync(journalPath(factory), 'utf8')).toBe(`${line}\n`);
  });
});

describe('the export after a decision over many learnings', () => {
  const MAX_PER_RUN = 7;

  it('writes the file of every agent whose active learnings changed, each listing what the rules give that agent, and clears their marks', () => {
    const ids = seed(seededRandom(31));
    const before = learnings();
    const lapsedOnly = ids.filter((id) => before.get(id)!.state === 'lapsed' && before.get(id)!.agent === 'tester');
    decideLearnings(db, 'reject', { ids: lapsedOnly }, { by: 'Ana', now: new Date('2026-06-01T10:00:00.000Z') });
    expect(exportPending(db, factory, MAX_PER_RUN)).toEqual([]);

    const someActive = ids.filter((id, i) => i % 3 === 0 && before.get(id)!.agent !== 'tester');
    decideLearnings(db, 'reject', { ids: someActive }, { by: 'Ana', now: new Date('2026-06-01T10:01:00.000Z') });
    expect(exportPending(db, factory, MAX_PER_RUN)).toEqual(['builder', 'reviewer']);
    expect(exportMarks()).toEqual([]);
    const now = learnings();
    for (const agent of ['builder', 'reviewer']) {
      const given = [...now.values()].filter((l) => l.agent === agent && isActive(l.state)).sort(compareForRun).slice(0, MAX_PER_RUN);
      const file = readLearningsFile(fs.readFileSync(learningsFileFor(factory, agent), 'utf8'));
      expect(file.learnings).toEqual(given.map(({ id, text, state, impact }) => ({ id, text, state, impact })));
    }
    expect(fs.existsSync(learningsFileFor(factory, 'tester'))).toBe(false);
  });
});
