/**
 * A history line has one encoding in the ledger (kind, reason and states as codes, a kind's usual
 * reason stored as none: schema migration 8), whoever writes it: `addHistory` (ingest), a
 * decision's and an undo's bulk statements (store/decisions.ts), or a person inserting into the
 * learning_history view by hand. The same line must be stored, and read back, the same way.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../electron/node/store/db.js';
import { addHistory, insertLearning } from '../../electron/node/store/learnings.js';
import { decideLearnings, undoDecisions } from '../../electron/node/store/decisions.js';
import { freshLedgerEachTest } from '../support/ledger.js';
import { provisionalLearning } from '../support/learnings.js';

let db: Db;
freshLedgerEachTest('layover-history-lines-', (ledger) => ({ db } = ledger));

const STORED = 'at, kind, by, reason, run, state_before, state_after';
const READ = 'at, day, kind, by, reason, run, state_before, state_after';

/** The last line stored and the same line read through the view, without its learning, seq and undo snapshot. */
function lastLine(): { stored: unknown; read: unknown } {
  const { seq } = db.prepare('SELECT max(seq) AS seq FROM learning_changes').get() as { seq: number };
  return {
    stored: db.prepare(`SELECT ${STORED} FROM learning_changes WHERE seq = ?`).get(seq),
    read: db.prepare(`SELECT ${READ} FROM learning_history WHERE seq = ?`).get(seq),
  };
}

describe('a history line', () => {
  it('is stored and read back the same whether a decision, an undo, addHistory or an insert into the view by hand wrote it', () => {
    insertLearning(db, provisionalLearning({ id: 'lrn_decided', text: 'Run the linter before pushing' }));
    insertLearning(db, provisionalLearning({ id: 'lrn_by_hand', text: 'Pin the toolchain in CI' }));
    for (const reason of ['stale advice', null]) {
      decideLearnings(db, 'reject', { ids: ['lrn_decided'] }, { by: 'Ada', reason, now: new Date('2026-11-29T10:00:00Z') });
      const decided = lastLine();
      undoDecisions(db, ['lrn_decided'], { by: 'Bo', now: new Date('2026-11-29T11:00:00Z') });
      const undone = lastLine();
      expect(undone.read).toMatchObject({ kind: 'undone', by: 'Bo', state_before: 'rejected', state_after: 'provisional' });

      const line = { learning_id: 'lrn_by_hand', at: '2026-11-29T10:00:00.000Z', kind: 'rejected', by: 'Ada', reason, state_before: 'provisional', state_after: 'rejected' } as const;
      addHistory(db, line);
      expect(lastLine()).toEqual(decided);
      db.prepare(
        `INSERT INTO learning_history (learning_id, at, kind, by, reason, state_before, state_after) VALUES (@learning_id, @at, @kind, @by, @reason, @state_before, @state_after)`,
      ).run(line);
      expect(lastLine()).toEqual(decided);
      const undoneReason = (undone.read as { reason: string | null }).reason;
      addHistory(db, { learning_id: 'lrn_by_hand', at: '2026-11-29T11:00:00.000Z', kind: 'undone', by: 'Bo', reason: undoneReason, state_before: 'rejected', state_after: 'provisional' });
      expect(lastLine()).toEqual(undone);
    }
  });

  it("of a kind with a usual reason is stored with none, whether addHistory or an insert into the view wrote it, and reads back with the usual reason", () => {
    insertLearning(db, provisionalLearning({ id: 'lrn_1', text: 'Run the linter before pushing' }));
    const lapse = { learning_id: 'lrn_1', at: '2026-11-29T10:00:00.000Z', kind: 'lapsed', run: 'run_1', reason: 'ran out of runs', state_before: 'provisional', state_after: 'lapsed' } as const;
    addHistory(db, lapse);
    const written = lastLine();
    expect(written.stored).toMatchObject({ reason: null });
    expect(written.read).toMatchObject({ reason: 'ran out of runs' });
    db.prepare(
      `INSERT INTO learning_history (learning_id, at, kind, run, reason, state_before, state_after) VALUES (@learning_id, @at, @kind, @run, @reason, @state_before, @state_after)`,
    ).run(lapse);
    expect(lastLine()).toEqual(written);
  });
});
