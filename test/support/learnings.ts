import type { Learning } from '../../shared/domain.js';

/** A provisional learning of `builder` proposed once at `at`, five runs left, with `fields` over it. */
export function provisionalLearning(fields: Pick<Learning, 'id' | 'text'> & Partial<Learning>, at = '2026-01-01T00:00:00.000Z'): Learning {
  return {
    agent: 'builder',
    impact: 'low',
    state: 'provisional',
    proposals: 1,
    rediscoveries: 0,
    echoes: 0,
    runs_left: 5,
    first_at: at,
    last_at: at,
    live_since: at,
    lapsed_at: null,
    decided_by: null,
    decided_at: null,
    reason: null,
    ...fields,
  };
}
