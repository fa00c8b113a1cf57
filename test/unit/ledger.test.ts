import { describe, expect, it } from 'vitest';
import type { Learning } from '../../shared/domain.js';
import { activeForRun } from '../../electron/node/exporter.js';
import { insertLearning } from '../../electron/node/store/learnings.js';
import { decideLearnings } from '../../electron/node/store/decisions.js';
import type { Db } from '../../electron/node/store/db.js';
import { getLearning } from '../../electron/node/store/learningRows.js';
import { freshLedgerEachTest, tempLedger } from '../support/ledger.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import type { FinishedRun } from '../../electron/rules/ledger.js';
import {
  countRuns,
  decide,
  decideProposal,
  newLearning,
  snapshotOf,
  SNAPSHOT_FIELDS,
  isDecisionSnapshot,
  undo,
  wilsonLower,
  type ScreenedProposal,
} from '../../electron/rules/ledger.js';

const settings = { provisional_runs: 5, confirm_after: 3, max_per_run: 3 };
let n = 0;
const nextId = () => `lrn_${String(++n).padStart(4, '0')}`;

function proposal(at: string, text = 'Use npm ci in continuous integration builds'): ScreenedProposal {
  return { agent: 'builder', text, impact: 'medium', at, run: null };
}

function learning(patch: Partial<Learning> = {}): Learning {
  return { ...newLearning(nextId(), proposal('2026-01-01T00:00:00.000Z'), settings), ...patch };
}

describe('a proposal is decided in SPEC order', () => {
  it('with no match it becomes a new provisional learning with a full count of runs', () => {
    const d = decideProposal(proposal('2026-01-02T00:00:00.000Z'), [], settings, () => 'lrn_new');
    expect(d.outcome).toBe('new');
    if (d.outcome !== 'new') return;
    expect(d.learning).toMatchObject({ id: 'lrn_new', state: 'provisional', runs_left: 5, proposals: 1, live_since: '2026-01-02T00:00:00.000Z' });
  });

  it('a match with a rejected learning refuses it and names who rejected it and when, even if an active one matches too', () => {
    const rejected = learning({ state: 'rejected', decided_by: 'dana', decided_at: '2026-03-04T10:00:00.000Z' });
    const active = learning({ state: 'provisional' });
    const d = decideProposal(proposal('2026-03-05T00:00:00.000Z'), [active, rejected], settings, nextId);
    expect(d).toEqual({ outcome: 'refused', learning_id: rejected.id, reason: 'rejected by dana on 2026-03-04' });
  });

  it('a match with an active learning is an echo that changes nothing but the echo count', () => {
    const active = learning({ state: 'confirmed', echoes: 2 });
    const d = decideProposal(proposal('2026-03-05T00:00:00.000Z'), [active], settings, nextId);
    expect(d.outcome).toBe('echo');
    if (d.outcome !== 'echo') return;
    expect(d.learning).toEqual({ ...active, echoes: 3 });
  });

  it('an active match wins over a lapsed one', () => {
    const lapsed = learning({ state: 'lapsed', runs_left: 0 });
    const active = learning({ state: 'provisional' });
    expect(decideProposal(proposal('2026-03-05T00:00:00.000Z'), [lapsed, active], settings, nextId).outcome).toBe('echo');
  });

  it('a match with a lapsed learning is a rediscovery that makes it provisional again with a full count', () => {
    const lapsed = learning({ state: 'lapsed', runs_left: 0, lapsed_at: '2026-02-01T00:00:00.000Z' });
    const d = decideProposal(proposal('2026-03-05T00:00:00.000Z'), [lapsed], settings, nextId);
    expect(d.outcome).toBe('rediscovery');
    if (d.outcome !== 'rediscovery') return;
    expect(d.learning).toMatchObject({ state: 'provisional', runs_left: 5, rediscoveries: 1, proposals: 2, last_at: '2026-03-05T00:00:00.000Z', live_since: '2026-03-05T00:00:00.000Z', lapsed_at: null });
  });

  it('the rediscovery that reaches confirm_after confirms the learning', () => {
    const lapsed = learning({ state: 'lapsed', runs_left: 0, rediscoveries: 2, proposals: 3 });
    const d = decideProposal(proposal('2026-03-05T00:00:00.000Z'), [lapsed], settings, nextId);
    expect(d.outcome).toBe('confirmed');
    if (d.outcome !== 'confirmed') return;
    expect(d.learning).toMatchObject({ state: 'confirmed', rediscoveries: 3, proposals: 4 });
  });

  it('of several lapsed matches the most recently proposed is rediscovered', () => {
    const older = learning({ state: 'lapsed', last_at: '2026-01-01T00:00:00.000Z' });
    const newer = learning({ state: 'lapsed', last_at: '2026-02-01T00:00:00.000Z' });
    const d = decideProposal(proposal('2026-03-05T00:00:00.000Z'), [older, newer], settings, nextId);
    expect(d.outcome === 'rediscovery' && d.learning.id).toBe(newer.id);
  });

  it("another agent's learning never matches", () => {
    const other = learning({ agent: 'reviewer', state: 'rejected', decided_by: 'x', decided_at: '2026-01-01T00:00:00.000Z' });
    expect(decideProposal(proposal('2026-03-05T00:00:00.000Z'), [other], settings, () => 'lrn_x').outcome).toBe('new');
  });
});

describe('run counting', () => {
  const run = { agent: 'builder', started_at: '2026-01-10T00:00:00.000Z', finished_at: '2026-01-10T01:00:00.000Z' };

  it('a provisional learning live before the run started loses one run', () => {
    const l = learning({ live_since: '2026-01-09T00:00:00.000Z', runs_left: 3 });
    expect(countRuns(l, [run])).toEqual({ learning: { ...l, runs_left: 2 }, lapsedBy: null });
  });

  it('a learning proposed during the run (or at its very start) is not counted against it', () => {
    expect(countRuns(learning({ live_since: '2026-01-10T00:30:00.000Z' }), [run])).toBeNull();
    expect(countRuns(learning({ live_since: run.started_at }), [run])).toBeNull();
  });

  it('at zero runs left it lapses with lapsed_at the time the run finished', () => {
    const l = learning({ live_since: '2026-01-09T00:00:00.000Z', runs_left: 1 });
    expect(countRuns(l, [run])).toEqual({ learning: { ...l, runs_left: 0, state: 'lapsed', lapsed_at: run.finished_at }, lapsedBy: 0 });
  });

  it('confirmed, lapsed, rejected learnings and other agents are never counted', () => {
    for (const state of ['confirmed', 'lapsed', 'rejected'] as const) {
      expect(countRuns(learning({ state, live_since: '2026-01-01T00:00:00.000Z' }), [run])).toBeNull();
    }
    expect(countRuns(learning({ agent: 'reviewer', live_since: '2026-01-01T00:00:00.000Z' }), [run])).toBeNull();
  });
});

/** Run counting as it was written before runs were counted many at a time: the rule the new path must agree with. */
function countRunOneByOne(l: Learning, run: FinishedRun): Learning | null {
  if (l.agent !== run.agent || l.state !== 'provisional') return null;
  if (l.live_since === null || !(l.live_since < run.started_at)) return null;
  const runs_left = Math.max(0, l.runs_left - 1);
  if (runs_left > 0) return { ...l, runs_left };
  return { ...l, runs_left: 0, state: 'lapsed', lapsed_at: run.finished_at };
}

describe('counting many finished runs at once', () => {
  const hour = (h: number) => new Date(Date.UTC(2026, 0, 10, h)).toISOString();
  const finished = (start: number, agent = 'builder'): FinishedRun => ({ agent, started_at: hour(start), finished_at: hour(start + 1) });

  it('a learning at 2 runs left goes to 1 at the first run that counts, and lapses at 0 at the second, at its finish time', () => {
    const l = learning({ live_since: hour(0), runs_left: 2 });
    const runs = [finished(1), finished(3)];
    expect(countRuns(l, runs.slice(0, 1))).toEqual({ learning: { ...l, runs_left: 1 }, lapsedBy: null });
    expect(countRuns(l, runs)).toEqual({ learning: { ...l, runs_left: 0, state: 'lapsed', lapsed_at: hour(4) }, lapsedBy: 1 });
    expect(countRuns(countRuns(l, runs.slice(0, 1))!.learning, runs.slice(1))!.learning).toEqual(countRuns(l, runs)!.learning);
  });

  it('runs that do not count (started before the learning was live, another agent) leave it as it is, and no run after the lapse counts', () => {
    const l = learning({ live_since: hour(2), runs_left: 1 });
    expect(countRuns(l, [finished(1), finished(2), finished(3, 'reviewer')])).toBeNull();
    expect(countRuns(l, [finished(1), finished(5), finished(7)])).toEqual({ learning: { ...l, runs_left: 0, state: 'lapsed', lapsed_at: hour(6) }, lapsedBy: 1 });
  });

  it('gives, from any starting run, what counting the runs one by one with the old rule gives (seeded property)', () => {
    const next = seededRandom(42);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    for (let round = 0; round < 2000; round++) {
      const l = learning({
        agent: pick(['builder', 'reviewer']),
        state: pick(['provisional', 'provisional', 'provisional', 'confirmed', 'lapsed']),
        runs_left: Math.floor(next() * 5) - 1,
        live_since: next() < 0.1 ? null : hour(Math.floor(next() * 12)),
      });
      // Starts out of order, some at exactly the learning's live time, of both agents.
      const runs = Array.from({ length: Math.floor(next() * 8) }, () => finished(Math.floor(next() * 14), pick(['builder', 'builder', 'reviewer'])));
      const from = Math.floor(next() * (runs.length + 1));
      let expected: Learning = l;
      let lapsedBy: number | null = null;
      let counted = false;
      for (let i = from; i < runs.length; i++) {
        const after = countRunOneByOne(expected, runs[i]!);
        if (!after) continue;
        counted = true;
        expected = after;
        if (after.state === 'lapsed' && lapsedBy === null) lapsedBy = i;
      }
      expect(countRuns(l, runs, from)).toEqual(counted ? { learning: expected, lapsedBy } : null);
      expect(runs.slice(from).reduce<Learning>((acc, run) => countRuns(acc, [run])?.learning ?? acc, l)).toEqual(expected);
    }
  });
});

describe('what a run is given', () => {
  it('confirmed first, then provisional; higher impact first; then most recent; at most max_per_run', () => {
    const { db, remove } = tempLedger('layover-given-');
    const a = learning({ state: 'provisional', impact: 'high', last_at: '2026-01-05T00:00:00.000Z' });
    const b = learning({ state: 'confirmed', impact: 'low', last_at: '2026-01-01T00:00:00.000Z' });
    const c = learning({ state: 'provisional', impact: 'high', last_at: '2026-01-06T00:00:00.000Z' });
    const d = learning({ state: 'provisional', impact: 'medium', last_at: '2026-01-09T00:00:00.000Z' });
    const e = learning({ state: 'lapsed', impact: 'high' });
    const f = learning({ state: 'rejected', impact: 'high' });
    try {
      // The exporter writes what a run is given; each learning with its own text, as the ledger holds them.
      [a, b, c, d, e, f].forEach((l, i) => insertLearning(db, { ...l, text: `${l.text} number ${i}` }));
      expect(activeForRun(db, a.agent, 10).map((l) => l.id)).toEqual([b.id, c.id, a.id, d.id]);
      expect(activeForRun(db, a.agent, 3).map((l) => l.id)).toEqual([b.id, c.id, a.id]);
    } finally {
      remove();
    }
  });
});

describe("a person's decisions", () => {
  const d = { by: 'dana', at: '2026-02-01T00:00:00.000Z', reason: 'wrong' };
  let db: Db;
  freshLedgerEachTest('layover-decide-', (ledger) => ({ db } = ledger));

  /** A learning with `patch`, decided in the ledger as the hosts decide it: the learning after, or null when the decision left it unchanged. */
  function decidedInLedger(kind: 'reject' | 'keep', patch: Partial<Learning>): Learning | null {
    const l = learning(patch);
    insertLearning(db, { ...l, text: `${l.text} (${l.id})` });
    const result = decideLearnings(db, kind, { ids: [l.id] }, { by: d.by, reason: d.reason, now: new Date(d.at) });
    if (result.unchanged.includes(l.id)) return null;
    expect(result.changed).toEqual([l.id]);
    return getLearning(db, l.id)!;
  }

  it('reject applies to every state but rejected', () => {
    for (const state of ['provisional', 'confirmed', 'lapsed'] as const) {
      expect(decidedInLedger('reject', { state })).toMatchObject({ state: 'rejected', decided_by: 'dana', decided_at: d.at, reason: 'wrong' });
    }
    expect(decidedInLedger('reject', { state: 'rejected' })).toBeNull();
  });

  it('keep confirms a provisional or lapsed learning and nothing else', () => {
    expect(decidedInLedger('keep', { state: 'provisional' })?.state).toBe('confirmed');
    expect(decidedInLedger('keep', { state: 'lapsed', lapsed_at: '2026-01-20T00:00:00.000Z' })).toMatchObject({ state: 'confirmed', lapsed_at: null });
    expect(decidedInLedger('keep', { state: 'confirmed' })).toBeNull();
    expect(decidedInLedger('keep', { state: 'rejected' })).toBeNull();
  });

  it('undo restores exactly the fields the decision overwrote', () => {
    const before = learning({ state: 'provisional', runs_left: 2, echoes: 4 });
    const rejected = decide('reject', before, d)!;
    const restored = undo({ ...rejected, echoes: 5 }, snapshotOf(before));
    expect(restored).toEqual({ ...before, echoes: 5 });
  });

  it('a decision keeps exactly the fields it overwrites, and a kept snapshot undo could not restore is not taken for one', () => {
    const snapshot = snapshotOf(learning({ state: 'lapsed', runs_left: 0, lapsed_at: '2026-01-20T00:00:00.000Z' }));
    expect(Object.keys(snapshot)).toEqual([...SNAPSHOT_FIELDS]);
    expect(isDecisionSnapshot(JSON.parse(JSON.stringify(snapshot)))).toBe(true);
    for (const broken of [{ ...snapshot, state: 'gone' }, { ...snapshot, runs_left: '3' }, { ...snapshot, runs_left: 1.5 }, { ...snapshot, reason: 7 }, null, 'x']) {
      expect(isDecisionSnapshot(broken), JSON.stringify(broken)).toBe(false);
    }
  });
});

describe('the Wilson lower bound', () => {
  it('is 0 with no runs and below the raw rate with few', () => {
    expect(wilsonLower(0, 0)).toBe(0);
    expect(wilsonLower(1, 1)).toBeCloseTo(0.2065, 3);
    expect(wilsonLower(50, 55)).toBeGreaterThan(wilsonLower(1, 1));
    expect(wilsonLower(50, 55)).toBeLessThan(50 / 55);
  });
});
