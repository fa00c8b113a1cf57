import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, parseOutput } from '../../shared/api.js';
import type { Db } from '../../electron/node/store/db.js';
import {
  applyHelpRequested,
  getChain,
  getHelp,
  helpDetail,
  listChains,
  listHelp,
  recordChainRun,
  reply,
  resolve,
  type HelpRequestedFields,
  type RunStartedFields,
} from '../../electron/node/store/help.js';
import { flushOutbox } from '../../electron/node/outbox.js';
import { chainState } from '../../electron/rules/chains.js';
import { freshLedgerEachTest } from '../support/ledger.js';

let factory: string;
let db: Db;
let seq = 0;

freshLedgerEachTest('layover-help-', (ledger) => ({ factory, db } = ledger));
beforeEach(() => {
  seq = 0;
});

/** What ingest does for a run.started: a runs row, and the chain recorded. */
function started(run: string, chain: string, at: string, extra: Partial<RunStartedFields> = {}): void {
  const ev: RunStartedFields = {
    run,
    agent: 'scout',
    chain,
    workflow: 'release',
    flags: { publish: true },
    routes: ['main'],
    at,
    ...extra,
  };
  db.prepare(
    `INSERT INTO runs (run, seq, agent, chain, workflow, flags, routes, learnings, answers, started_at, day)
     VALUES (?, ?, ?, ?, ?, ?, ?, '[]', ?, ?, ?)`,
  ).run(run, ++seq, ev.agent, chain, ev.workflow, JSON.stringify(ev.flags), JSON.stringify(ev.routes), ev.answers ?? null, at, at.slice(0, 10));
  recordChainRun(db, ev);
}

function finished(run: string, at: string): void {
  db.prepare(`UPDATE runs SET finished_at = ?, outcome = 'stopped' WHERE run = ?`).run(at, run);
}

function asked(id: string, run: string, chain: string, at: string, fatal = true): void {
  const ev: HelpRequestedFields = { id, agent: 'scout', run, chain, fatal, question: 'which key?', at };
  applyHelpRequested(db, ev);
}

function getHelpState(id: string): unknown {
  return (db.prepare('SELECT state FROM help_requests WHERE id = ?').get(id) as { state: string }).state;
}

/** Chain files the outbox still owes the factory. */
function filesOwed(): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM outbox').get() as { n: number }).n;
}

const fixedClock = () => new Date('2026-11-29T14:02:11.000Z');

describe('help requests in the ledger', () => {
  it('copies workflow, flags and routes from the asking run, not from the request', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    const ev = { id: 'hlp_1', agent: 'scout', run: 'run_1', chain: 'chn_a', fatal: true, question: 'q', at: '2026-11-29T10:05:00Z', flags: { publish: false } };
    applyHelpRequested(db, ev);
    const request = getHelp(db, 'hlp_1')!;
    expect(request.workflow).toBe('release');
    expect(request.flags).toEqual({ publish: true });
    expect(request.routes).toEqual(['main']);
    expect(request.state).toBe('open');
    expect(request.category).toBeNull();
  });

  it('leaves the flags unknown when the asking run has no recorded start', () => {
    applyHelpRequested(db, { id: 'hlp_1', agent: 'scout', run: 'run_x', chain: 'chn_a', fatal: true, question: 'q', at: '2026-11-29T10:05:00Z' });
    const request = getHelp(db, 'hlp_1')!;
    expect(request.flags).toBeNull();
    expect(request.workflow).toBeNull();
    expect(request.routes).toBeNull();
    expect(getChain(db, 'chn_a')?.state).toBe('awaiting_human');
  });

  it('does not copy flags from a run of another agent with the same run id', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z', { agent: 'other' });
    applyHelpRequested(db, { id: 'hlp_1', agent: 'scout', run: 'run_1', chain: 'chn_a', fatal: true, question: 'q', at: '2026-11-29T10:05:00Z' });
    expect(getHelp(db, 'hlp_1')!.flags).toBeNull();
  });

  it('refuses a duplicate help request id', () => {
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    expect(() => asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:06:00Z')).toThrow('duplicate help request id hlp_1');
  });
});

describe('awaiting_human', () => {
  it('is held by the open fatal request of the last run only', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    expect(getChain(db, 'chn_a')?.state).toBe('awaiting_human');
    finished('run_1', '2026-11-29T10:06:00Z');
    expect(getChain(db, 'chn_a')?.state).toBe('awaiting_human');
    started('run_2', 'chn_a', '2026-11-29T11:00:00Z');
    expect(getChain(db, 'chn_a')?.state).toBe('running');
    expect(listHelp(db).rows[0]?.awaiting_human).toBe(false);
    finished('run_2', '2026-11-29T11:30:00Z');
    expect(getChain(db, 'chn_a')?.state).toBe('finished');
  });

  it('is not held by a request that is not fatal', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z', false);
    expect(getChain(db, 'chn_a')?.state).toBe('running');
  });

  it('ends when the request is resolved: the chain is finished', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    const resolved = resolve(db, { id: 'hlp_1', by: ' Ana ' }, 'osuser', fixedClock);
    expect(resolved.state).toBe('resolved');
    expect(resolved.responder).toBe('Ana');
    expect(getChain(db, 'chn_a')?.state).toBe('finished');
  });

  it('lists open fatal requests holding their chain first', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_old', 'run_1', 'chn_a', '2026-11-29T10:01:00Z');
    started('run_2', 'chn_a', '2026-11-29T10:02:00Z');
    asked('hlp_held', 'run_2', 'chn_a', '2026-11-29T10:03:00Z');
    started('run_3', 'chn_b', '2026-11-29T10:04:00Z');
    asked('hlp_done', 'run_3', 'chn_b', '2026-11-29T10:05:00Z');
    resolve(db, { id: 'hlp_done' }, 'osuser', fixedClock);
    asked('hlp_soft', 'run_3', 'chn_b', '2026-11-29T10:06:00Z', false);
    expect(listHelp(db).rows.map((r) => r.id)).toEqual(['hlp_held', 'hlp_soft', 'hlp_old', 'hlp_done']);
    expect(listHelp(db, { open: true }).total).toBe(3);
    expect(listChains(db).rows[0]?.chain).toBe('chn_a');
  });
});

describe('replies', () => {
  it('starts a linked chain with the inherited flags and writes its file from the outbox', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    const answered = reply(db, factory, { id: 'hlp_1', answer: ' use the staging key ', by: 'Ana' }, 'osuser', fixedClock);
    expect(answered.state).toBe('answered');
    expect(answered.answer).toBe('use the staging key');
    expect(answered.answered_at).toBe('2026-11-29T14:02:11.000Z');
    const chain = answered.continued_as!;
    expect(chain).toMatch(/^chn_[0-9A-HJKMNP-TV-Z]{26}$/);
    const file = JSON.parse(fs.readFileSync(path.join(factory, 'chains', `${chain}.json`), 'utf8'));
    expect(file).toEqual({
      chain,
      agent: 'scout',
      workflow: 'release',
      flags: { publish: true },
      routes: ['main'],
      answers: 'hlp_1',
      answer: 'use the staging key',
      responder: 'Ana',
      at: '2026-11-29T14:02:11.000Z',
    });
    expect(filesOwed()).toBe(0);
    const detail = helpDetail(db, 'hlp_1');
    expect(detail.chain?.state).toBe('finished');
    expect(detail.chain?.continued_as).toBe(chain);
    expect(detail.continued?.answers).toBe('hlp_1');
    expect(detail.continued?.state).toBe('running');
    expect(detail.runs.map((r) => r.run)).toEqual(['run_1']);
  });

  it('refuses an empty answer', () => {
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    expect(() => reply(db, factory, { id: 'hlp_1', answer: '  ', workflow: 'w', flags: {} }, 'os')).toThrow(/answer is empty/);
  });

  it('refuses a reply to an unknown request as not found', () => {
    try {
      reply(db, factory, { id: 'hlp_none', answer: 'x' }, 'os');
      expect.fail('should refuse');
    } catch (error) {
      expect((error as ApiError).code).toBe('not_found');
    }
  });

  it('refuses a second reply naming who answered and when', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    reply(db, factory, { id: 'hlp_1', answer: 'a', by: 'Ana' }, 'os', fixedClock);
    expect(() => reply(db, factory, { id: 'hlp_1', answer: 'b', by: 'Bo' }, 'os')).toThrow(
      'already answered by Ana on 2026-11-29 14:02 UTC',
    );
    expect(() => resolve(db, { id: 'hlp_1' }, 'os')).toThrow('already answered by Ana on 2026-11-29 14:02 UTC');
    expect(fs.readdirSync(path.join(factory, 'chains'))).toHaveLength(1);
  });

  it('refuses a reply to unknown flags until the workflow and flags are stated', () => {
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    expect(() => reply(db, factory, { id: 'hlp_1', answer: 'a' }, 'os')).toThrow(/workflow and its flags/);
    expect(() => reply(db, factory, { id: 'hlp_1', answer: 'a', workflow: 'release' }, 'os')).toThrow(/workflow and its flags/);
    expect(() => reply(db, factory, { id: 'hlp_1', answer: 'a', flags: { publish: true } }, 'os')).toThrow(/workflow and its flags/);
    const answered = reply(db, factory, { id: 'hlp_1', answer: 'a', workflow: 'release', flags: { publish: true } }, 'os');
    const chain = getChain(db, answered.continued_as!);
    expect(chain?.workflow).toBe('release');
    expect(chain?.flags).toEqual({ publish: true });
    expect(chain?.routes).toEqual([]);
  });

  it('signs with the OS account name when no name is typed', () => {
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    const answered = reply(db, factory, { id: 'hlp_1', answer: 'a', by: '   ', workflow: 'w', flags: {} }, 'osuser');
    expect(answered.responder).toBe('osuser');
  });

  it('keeps the chain file in the outbox until it is written', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    // A factory path where chains/ cannot be created: the write fails, the reply stays recorded.
    fs.writeFileSync(path.join(factory, 'chains'), 'not a folder');
    expect(() => reply(db, factory, { id: 'hlp_1', answer: 'a', by: 'Ana' }, 'os')).toThrow(/reply is recorded/);
    expect(filesOwed()).toBe(1);
    fs.rmSync(path.join(factory, 'chains'));
    expect(flushOutbox(db, factory)).toBe(1);
    expect(filesOwed()).toBe(0);
    expect(fs.readdirSync(path.join(factory, 'chains'))).toHaveLength(1);
  });

  it('writing owed files first removes the temporary files a killed process left, and never those of a live one', async () => {
    const { spawnSync } = await import('node:child_process');
    const gone = spawnSync(process.execPath, ['-e', '']).pid!; // a process that has exited
    const chains = path.join(factory, 'chains');
    fs.mkdirSync(chains, { recursive: true });
    const stale = `.chn_x.json.${gone}.0123456789ab.tmp`;
    const live = `.chn_y.json.${process.pid}.0123456789ab.tmp`;
    fs.writeFileSync(path.join(chains, stale), '{');
    fs.writeFileSync(path.join(chains, live), '{');
    flushOutbox(db, factory);
    expect(fs.readdirSync(chains).sort()).toEqual([live]);
  });
});

describe('chains from run events', () => {
  it('records the request a chain answers from its first run, both ways linked', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    const answered = reply(db, factory, { id: 'hlp_1', answer: 'a' }, 'os');
    started('run_2', answered.continued_as!, '2026-11-29T15:00:00Z', { answers: 'hlp_1' });
    const next = getChain(db, answered.continued_as!);
    expect(next?.answers).toBe('hlp_1');
    expect(next?.runs).toBe(1);
    expect(next?.state).toBe('running');
    expect(getChain(db, 'chn_a')?.continued_as).toBe(answered.continued_as);
  });

  it('fills a chain first seen through a request once its run is recorded', () => {
    asked('hlp_1', 'run_0', 'chn_a', '2026-11-29T09:00:00Z', false);
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z', { answers: 'hlp_z' });
    const chain = getChain(db, 'chn_a');
    expect(chain?.workflow).toBe('release');
    expect(chain?.flags).toEqual({ publish: true });
    expect(chain?.answers).toBe('hlp_z');
  });

  it('a chain keeps how its first run asked for the work: a later run with another workflow, flags or routes changes none of them', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    started('run_2', 'chn_a', '2026-11-29T11:00:00Z', { workflow: 'hotfix', flags: { publish: false }, routes: ['dev'] });
    expect(getChain(db, 'chn_a')).toMatchObject({ workflow: 'release', flags: { publish: true }, routes: ['main'], answers: null, runs: 2 });
  });

  it('a later run naming the request its chain answers fills it when no earlier run named one', () => {
    asked('hlp_1', 'run_0', 'chn_a', '2026-11-29T09:00:00Z', false);
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    started('run_2', 'chn_a', '2026-11-29T11:00:00Z', { answers: 'hlp_z' });
    expect(getChain(db, 'chn_a')).toMatchObject({ workflow: 'release', answers: 'hlp_z' });
  });
});

describe('chainState', () => {
  it('names a chain started by a reply but not yet run as running', () => {
    expect(chainState({ heldByOpenFatal: false, lastRun: null, lastRunClosedFatal: false, startedByReply: true })).toBe('running');
  });
  it('finishes a chain whose last run filed a closed fatal request even before the run reported its end', () => {
    expect(chainState({ heldByOpenFatal: false, lastRun: { finished: false }, lastRunClosedFatal: true, startedByReply: false })).toBe('finished');
  });
});

describe('a reply never inherits flags it cannot read', () => {
  it('refuses the reply, naming the request, when the stored flags are not a flag object, and leaves the request open', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    for (const damaged of ['{"publish":tru', '{"publish":[true]}', '"publish"']) {
      db.prepare('UPDATE help_requests SET flags = ? WHERE id = ?').run(damaged, 'hlp_1');
      expect(() => reply(db, factory, { id: 'hlp_1', answer: 'go', by: 'Ana' }, 'os')).toThrow(
        /^the stored flags of help request hlp_1 cannot be read .*: state the workflow and its flags with the reply/,
      );
    }
    expect(getHelpState('hlp_1')).toBe('open');
    expect(db.prepare('SELECT COUNT(*) AS n FROM chains WHERE answers = ?').get('hlp_1')).toEqual({ n: 0 });
  });

  it('answers a request with damaged stored flags once the person states the flags', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    db.prepare('UPDATE help_requests SET flags = ? WHERE id = ?').run('not json', 'hlp_1');
    const answered = reply(db, factory, { id: 'hlp_1', answer: 'go', by: 'Ana', flags: { publish: true } }, 'os');
    expect(answered.state).toBe('answered');
    expect(getChain(db, answered.continued_as!)?.flags).toEqual({ publish: true });
  });
});

describe('the UI contract', () => {
  it('returns exactly the shapes of help.list, help.detail, help.reply, help.resolve and chains.list', () => {
    started('run_1', 'chn_a', '2026-11-29T10:00:00Z');
    asked('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z');
    asked('hlp_2', 'run_x', 'chn_b', '2026-11-29T10:06:00Z');
    expect(() => parseOutput('help.list', listHelp(db, { open: true, offset: 0, limit: 10 }))).not.toThrow();
    const replied = reply(db, factory, { id: 'hlp_1', answer: 'a', by: 'Ana' }, 'os');
    expect(() => parseOutput('help.reply', replied)).not.toThrow();
    expect(() => parseOutput('help.resolve', resolve(db, { id: 'hlp_2' }, 'os'))).not.toThrow();
    expect(() => parseOutput('help.detail', helpDetail(db, 'hlp_1'))).not.toThrow();
    expect(() => parseOutput('help.detail', helpDetail(db, 'hlp_2'))).not.toThrow();
    expect(() => parseOutput('chains.list', listChains(db, { offset: 0, limit: 10 }))).not.toThrow();
    expect(listChains(db, { agent: 'scout', offset: 1, limit: 1 })).toMatchObject({ total: 3, rows: [expect.anything()] });
  });
});
