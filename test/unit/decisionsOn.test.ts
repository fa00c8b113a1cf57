/**
 * Which decisions a learning takes (rules/ledger.ts `decisionsOn`): what the Desk sends with a
 * learning's detail and with each Worth a look entry, so the window's buttons follow the rule.
 */
import { describe, expect, it } from 'vitest';
import { DECISION_RULES, decide, decisionsOn } from '../../electron/rules/ledger.js';
import { LEARNING_STATES, type Learning } from '../../shared/domain.js';

const learning = (state: Learning['state']): Learning => ({
  id: 'lrn_1',
  agent: 'builder',
  text: 'pin the compiler',
  impact: 'low',
  state,
  proposals: 1,
  rediscoveries: 0,
  echoes: 0,
  runs_left: 3,
  first_at: '2026-01-01T00:00:00.000Z',
  last_at: '2026-01-01T00:00:00.000Z',
  live_since: null,
  lapsed_at: null,
  decided_by: null,
  decided_at: null,
  reason: null,
});

describe('the decisions a learning takes', () => {
  it('offers keep only to a provisional or lapsed learning, and reject to any but a rejected one', () => {
    expect(decisionsOn('provisional')).toEqual(['reject', 'keep']);
    expect(decisionsOn('lapsed')).toEqual(['reject', 'keep']);
    expect(decisionsOn('confirmed')).toEqual(['reject']);
    expect(decisionsOn('rejected')).toEqual([]);
  });

  it('offers exactly the decisions that would change the learning, in every state', () => {
    for (const state of LEARNING_STATES) {
      const taken = (Object.keys(DECISION_RULES) as (keyof typeof DECISION_RULES)[]).filter(
        (kind) => decide(kind, learning(state), { by: 'ada', at: '2026-01-02T00:00:00.000Z' }) !== null,
      );
      expect(decisionsOn(state).sort(), state).toEqual(taken.sort());
    }
  });
});
