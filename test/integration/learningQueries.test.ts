/**
 * The learnings list as the window pages through it: every page comes from SQL, so the order
 * must be total (ties broken the same way every time) or a virtualized list shows a learning
 * twice and another never.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { queryLearnings } from '../../electron/node/store/learningQueries.js';
import { applyProposal } from '../../electron/node/store/proposals.js';
import { LEARNING_SORTS } from '../../shared/api.js';
import type { Db } from '../../electron/node/store/db.js';
import { freshLedgerEachTest } from '../support/ledger.js';

let db: Db;
freshLedgerEachTest('layover-queries-', (made) => ({ db } = made));

describe('the learnings list', () => {
  it('pages never overlap or skip a learning, whatever the sort, even when every learning was proposed at the same time', () => {
    const at = '2026-11-01T00:00:00.000Z';
    db.transaction(() => {
      for (let i = 0; i < 250; i++) {
        const agent = i % 2 ? 'builder' : 'scout';
        const impact = (['low', 'medium', 'high'] as const)[i % 3]!;
        applyProposal(db, { agent, text: `distinct claim number ${i} about module${i}`, impact, at }, DEFAULT_SETTINGS.learnings);
      }
    })();
    for (const sort of LEARNING_SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        for (let offset = 0; offset < 250; offset += 40) {
          seen.push(...queryLearnings(db, { sort, dir, offset, limit: 40 }).rows.map((l) => l.id));
        }
        expect(new Set(seen).size, `${sort} ${dir}`).toBe(250);
        expect(seen, `${sort} ${dir}`).toHaveLength(250);
      }
    }
  });

  it('lists every agent that has learnings, once each, in name order', () => {
    for (const [i, agent] of ['scout', 'builder', 'reviewer', 'builder', 'scout'].entries()) {
      applyProposal(db, { agent, text: `claim ${i} about the cache${i} folder`, impact: 'low', at: '2026-11-01T00:00:00.000Z' }, DEFAULT_SETTINGS.learnings);
    }
    expect(queryLearnings(db).agents).toEqual(['builder', 'reviewer', 'scout']);
  });
});
