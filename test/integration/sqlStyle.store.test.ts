/**
 * One SQL style in the store: statements through the statement cache (store/statements.ts), and
 * every dynamic WHERE from the one builder (store/where.ts), on real ledgers in temp folders.
 */
import { describe, expect, it } from 'vitest';
import { stmt } from '../../electron/node/store/statements.js';
import { equalsWhere } from '../../electron/node/store/where.js';
import { applyHelpRequested, listChains, listHelp, resolve } from '../../electron/node/store/help.js';
import type { Db } from '../../electron/node/store/db.js';
import { freshLedgerEachTest, tempLedger } from '../support/ledger.js';

let db: Db;
freshLedgerEachTest('layover-sql-', (ledger) => ({ db } = ledger));

function ask(id: string, agent: string): void {
  applyHelpRequested(db, { id, agent, run: `run_${id}`, chain: `chn_${id}`, fatal: false, question: `question ${id}`, at: '2026-11-29T10:00:00Z' });
}

describe('the statement cache', () => {
  it('compiles a statement once per connection: the same SQL gives the same statement there, and its own on another connection', () => {
    const sql = 'SELECT count(*) AS n FROM learnings';
    expect(stmt(db, sql)).toBe(stmt(db, sql));
    const other = tempLedger('layover-sql-other-');
    try {
      expect(stmt(other.db, sql)).not.toBe(stmt(db, sql));
      expect(stmt(other.db, sql).get()).toEqual({ n: 0 });
    } finally {
      other.remove();
    }
  });
});

describe('the one WHERE builder', () => {
  it('asks only the columns given a value, each equal to its named parameter, with the table alias when given', () => {
    expect(equalsWhere({ agent: 'builder', chain: undefined, state: '' })).toEqual({ sql: 'WHERE agent = @agent', params: { agent: 'builder' } });
    expect(equalsWhere({ state: 'open', agent: 'builder' }, 'r')).toEqual({
      sql: 'WHERE r.state = @state AND r.agent = @agent',
      params: { state: 'open', agent: 'builder' },
    });
    expect(equalsWhere({ agent: undefined })).toEqual({ sql: '', params: {} });
  });

  it('binds every value, so a value with SQL in it matches only itself: help requests and chains filtered by agent', () => {
    ask('hlp_1', 'builder');
    ask('hlp_2', 'reviewer');
    resolve(db, { id: 'hlp_2', by: 'Ana' }, 'os');
    const hostile = "builder' OR '1'='1";
    expect(listHelp(db, { agent: hostile })).toEqual({ total: 0, rows: [] });
    expect(listChains(db, { agent: hostile })).toEqual({ total: 0, rows: [] });
    expect(listHelp(db, { agent: 'builder' }).rows.map((r) => r.id)).toEqual(['hlp_1']);
    expect(listHelp(db, { open: true }).rows.map((r) => r.id)).toEqual(['hlp_1']);
    expect(listHelp(db, { open: true, agent: 'reviewer' })).toEqual({ total: 0, rows: [] });
    expect(listHelp(db, {}).total).toBe(2);
    expect(listChains(db, { agent: 'reviewer' }).rows.map((c) => c.chain)).toEqual(['chn_hlp_2']);
  });
});
