/**
 * "In the next run?" (docs/window.md#learnings): the learning detail's rank is the learning's
 * place in the list the exporter writes for its agent's next run, and the `max_per_run` cap
 * decides whether the run sees it. Checked on a real temporary ledger, at the cap boundary.
 */
import { describe, expect, it } from 'vitest';
import type { Impact, LearningState } from '../../shared/domain.js';
import { activeForRun, nextRunPlace } from '../../electron/node/exporter.js';
import type { Db } from '../../electron/node/store/db.js';
import { learningDetail } from '../../electron/node/store/learningQueries.js';
import { insertLearning } from '../../electron/node/store/learnings.js';
import { freshLedgerEachTest } from '../support/ledger.js';
import { provisionalLearning } from '../support/learnings.js';

let db: Db;
freshLedgerEachTest('layover-next-run-', (ledger) => ({ db } = ledger));

const CAP = 3;

/**
 * Six given learnings of `builder` whose run order is known by construction (confirmed before
 * provisional, higher impact first, newer first), one of another agent that must not count, and
 * one lapsed and one rejected. Returns the builder's given ids in run order.
 */
function seed(): string[] {
  const given: Array<{ id: string; state: LearningState; impact: Impact; at: string }> = [
    { id: 'lrn_a', state: 'confirmed', impact: 'low', at: '2026-01-01T00:00:00.000Z' },
    { id: 'lrn_b', state: 'provisional', impact: 'high', at: '2026-01-02T00:00:00.000Z' },
    { id: 'lrn_c', state: 'provisional', impact: 'medium', at: '2026-01-05T00:00:00.000Z' },
    { id: 'lrn_d', state: 'provisional', impact: 'medium', at: '2026-01-03T00:00:00.000Z' },
    { id: 'lrn_e', state: 'provisional', impact: 'low', at: '2026-01-09T00:00:00.000Z' },
    { id: 'lrn_f', state: 'provisional', impact: 'low', at: '2026-01-04T00:00:00.000Z' },
  ];
  for (const g of given) {
    insertLearning(db, provisionalLearning({ id: g.id, text: `learning ${g.id}`, state: g.state, impact: g.impact }, g.at));
  }
  insertLearning(db, provisionalLearning({ id: 'lrn_other', text: 'of another agent', agent: 'reviewer', impact: 'high', state: 'confirmed' }));
  insertLearning(db, provisionalLearning({ id: 'lrn_lapsed', text: 'lapsed one', state: 'lapsed', runs_left: 0, impact: 'high' }));
  insertLearning(db, provisionalLearning({ id: 'lrn_rejected', text: 'rejected one', state: 'rejected', impact: 'high' }));
  return given.map((g) => g.id);
}

function place(id: string, cap = CAP) {
  const row = db.prepare('SELECT id, agent, state FROM learnings WHERE id = ?').get(id) as { id: string; agent: string; state: LearningState };
  return nextRunPlace(db, row, cap);
}

describe('in the next run?', () => {
  it('a learning ranked exactly at the max_per_run cap is in the next run, the last of those given', () => {
    const order = seed();
    expect(place(order[CAP - 1]!)).toEqual({ place: 'in_run', rank: CAP, of: CAP, cap: CAP });
  });

  it('a learning ranked one past the cap is not in the next run, and says its rank and the cap', () => {
    const order = seed();
    expect(place(order[CAP]!)).toEqual({ place: 'below_cap', rank: CAP + 1, cap: CAP });
  });

  it('the rank is the learning’s place in the list the exporter writes for the run', () => {
    const order = seed();
    const exported = activeForRun(db, 'builder', CAP).map((l) => l.id);
    expect(exported).toEqual(order.slice(0, CAP));
    order.forEach((id, index) => {
      const where = place(id);
      if (index < CAP) expect(where).toEqual({ place: 'in_run', rank: exported.indexOf(id) + 1, of: CAP, cap: CAP });
      else expect(where).toEqual({ place: 'below_cap', rank: index + 1, cap: CAP });
    });
  });

  it('with fewer given learnings than the cap, a run is given all of them and the rank says of how many', () => {
    const order = seed();
    const roomy = order.length + 10;
    expect(place(order[order.length - 1]!, roomy)).toEqual({ place: 'in_run', rank: order.length, of: order.length, cap: roomy });
  });

  it('lapsed and rejected learnings are not given to runs at all, whatever their rank would be', () => {
    seed();
    expect(place('lrn_lapsed')).toEqual({ place: 'not_given', state: 'lapsed' });
    expect(place('lrn_rejected')).toEqual({ place: 'not_given', state: 'rejected' });
  });

  it('the learning detail carries its place in the next run and the decisions that would change it', () => {
    const order = seed();
    const detail = learningDetail(db, order[CAP]!, CAP)!;
    expect(detail.next_run).toEqual({ place: 'below_cap', rank: CAP + 1, cap: CAP });
    expect(detail.decisions).toEqual(['reject', 'keep']);
    expect(learningDetail(db, 'lrn_a', CAP)!.decisions).toEqual(['reject']);
    expect(learningDetail(db, 'lrn_rejected', CAP)!.decisions).toEqual([]);
  });
});
