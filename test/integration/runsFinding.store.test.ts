/**
 * Runs are easy to find (docs/window.md#runs): the runs listing filters by agent, outcome and
 * workflow, and finds a run by its id, its chain's or a help request's — exactly or by the first
 * characters — through the ledger's indexes, on a real ledger file.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../electron/node/store/db.js';
import { applyHelpRequested, listChains, recordChainRun } from '../../electron/node/store/help.js';
import { applyRunFinished, applyRunStarted, listRuns, listWorkflows, runsWhere } from '../../electron/node/store/runs.js';
import { freshLedgerEachTest } from '../support/ledger.js';

let db: Db;
freshLedgerEachTest('layover-runs-find-', (ledger) => ({ db } = ledger));
beforeEach(() => {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 8, minute)).toISOString();
  const runs: [string, string, string, string, 'succeeded' | 'failed' | 'stopped' | null][] = [
    ['run_a1', 'builder', 'chn_alpha', 'build', 'succeeded'],
    ['run_a2', 'builder', 'chn_alpha', 'build', 'failed'],
    ['run_b1', 'reviewer', 'chn_beta', 'review', 'failed'],
    ['run_b2', 'reviewer', 'chn_beta', 'review', 'stopped'],
    ['run_c1', 'builder', 'chn_gamma', 'release', null],
  ];
  runs.forEach(([run, agent, chain, workflow, outcome], i) => {
    const started = { run, agent, chain, workflow, flags: {}, routes: [], learnings: [], at: at(i * 10) };
    applyRunStarted(db, started);
    recordChainRun(db, started);
    if (outcome) applyRunFinished(db, { run, agent, outcome, at: at(i * 10 + 5) });
  });
  applyHelpRequested(db, { id: 'hlp_7x', agent: 'reviewer', run: 'run_b1', chain: 'chn_beta', fatal: true, question: 'May I merge?', at: at(22) });
});

const found = (input: Parameters<typeof listRuns>[1]) => listRuns(db, input).rows.map((r) => r.run);

describe('runs are easy to find', () => {
  it('the failed runs are one filter away, newest first, with their count', () => {
    expect(found({ outcome: 'failed' })).toEqual(['run_b1', 'run_a2']);
    expect(listRuns(db, { outcome: 'failed', limit: 1 }).total).toBe(2);
    expect(found({ outcome: 'running' })).toEqual(['run_c1']);
  });

  it('filters by agent, outcome and workflow combine', () => {
    expect(found({ agent: 'builder', outcome: 'failed' })).toEqual(['run_a2']);
    expect(found({ workflow: 'review' })).toEqual(['run_b2', 'run_b1']);
    expect(found({ workflow: 'review', outcome: 'stopped' })).toEqual(['run_b2']);
  });

  it('the workflows for the choices are every workflow a run has, once each and sorted, whatever a listing is narrowed to', () => {
    expect(listWorkflows(db)).toEqual(['build', 'release', 'review']);
  });

  it('a search finds runs by run id, chain id or the id of a help request a run filed, exactly or by its first characters, and nothing by a middle part', () => {
    expect(found({ search: 'run_a1' })).toEqual(['run_a1']);
    expect(found({ search: 'run_b' })).toEqual(['run_b2', 'run_b1']);
    expect(found({ search: 'chn_gam' })).toEqual(['run_c1']);
    expect(found({ search: 'hlp_7' })).toEqual(['run_b1']);
    expect(found({ search: 'alpha' })).toEqual([]);
    expect(found({ search: 'run_', outcome: 'failed', agent: 'reviewer' })).toEqual(['run_b1']);
  });

  it('a chains search finds a chain by its id or a help request id, exactly or by its first characters', () => {
    expect(listChains(db, { search: 'chn_al' }).rows.map((c) => c.chain)).toEqual(['chn_alpha']);
    expect(listChains(db, { search: 'hlp_7x' }).rows.map((c) => c.chain)).toEqual(['chn_beta']);
    expect(listChains(db, { search: 'hlp_7x' }).total).toBe(1);
    expect(listChains(db, { search: 'nothing' }).total).toBe(0);
  });

  it('every filter and search of the runs listing goes through an index, never a scan of all runs', () => {
    const plan = (input: Parameters<typeof runsWhere>[0]) => {
      const where = runsWhere(input);
      return (db.prepare(`EXPLAIN QUERY PLAN SELECT run FROM runs ${where.sql} ORDER BY seq DESC`).all(where.params) as { detail: string }[])
        .map((row) => row.detail)
        .join('\n');
    };
    const inputs: Parameters<typeof runsWhere>[0][] = [
      { outcome: 'failed' },
      { outcome: 'running' },
      { workflow: 'review' },
      { agent: 'builder', outcome: 'failed' },
      { search: 'run_b' },
      { search: 'hlp_7', outcome: 'failed' },
    ];
    for (const input of inputs) expect({ input, plan: plan(input) }).not.toMatchObject({ plan: expect.stringMatching(/SCAN (runs|h)\b/) });
  });
});
