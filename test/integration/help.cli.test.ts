/**
 * Help requests, chains and replies through the command line, on a temporary factory: events are
 * written as the factory writes them, read with `ingest`, then answered with `reply`/`resolve`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP_CATEGORIES } from '../../shared/domain.js';
import { flushOutbox } from '../../electron/node/outbox.js';
import { runIn } from '../support/cli.js';
import * as ev from '../support/events.js';
import { appendEvents } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';
import { queryLedger, withTestLedger } from '../support/ledger.js';
import { cliStartAllowanceMs, runCliProcess } from '../support/spawnCli.js';

let factory: string;
freshFactoryEachTest('layover-help-cli-', (dir) => (factory = dir));

const cli = (...argv: string[]) => runIn(factory, ...argv);
const write = (...events: Record<string, unknown>[]) => appendEvents(factory, ...events);

async function ingest(): Promise<void> {
  const result = await cli('ingest');
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

/** A run of the scout agent, asked for with the release workflow and its flags. */
function runStarted(run: string, chain: string, at: string, extra: Record<string, unknown> = {}) {
  return ev.runStarted({ at, run, agent: 'scout', chain, workflow: 'release', flags: { publish: true, attempts: 3 }, routes: ['github'], ...extra });
}

function runFinished(run: string, at: string) {
  return ev.runFinished({ at, run, agent: 'scout', outcome: 'stopped' });
}

function helpRequested(id: string, run: string, chain: string, at: string, extra: Record<string, unknown> = {}) {
  return ev.helpRequested({ at, id, agent: 'scout', run, chain, ...extra });
}

async function requests(...options: string[]): Promise<Array<Record<string, unknown>>> {
  const result = await cli('help-requests', '--json', ...options);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Array<Record<string, unknown>>;
}

async function chains(): Promise<Array<Record<string, unknown>>> {
  const result = await cli('chains', '--json');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Array<Record<string, unknown>>;
}

async function chainState(chain: string): Promise<unknown> {
  return (await chains()).find((c) => c.chain === chain)?.state;
}

function chainFiles(): string[] {
  const dir = path.join(factory, 'chains');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
}

function readChainFile(chain: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(factory, 'chains', `${chain}.json`), 'utf8')) as Record<string, unknown>;
}

/** One `layover-desk` process, as an operator's second terminal would run it. */
const spawnCli = (args: string[]) => runCliProcess(args, { LAYOVER_FACTORY: factory });

describe('help requests through the CLI', () => {
  it('ingest names at most twenty new fatal help requests and counts the rest', async () => {
    const events: Record<string, unknown>[] = [];
    for (let i = 0; i < 25; i++) {
      const at = `2026-11-01T10:${String(i).padStart(2, '0')}:00Z`;
      events.push(runStarted(`run-${i}`, `chain-${i}`, at), helpRequested(`help-${i}`, `run-${i}`, `chain-${i}`, at, { fatal: true }));
    }
    write(...events);
    const result = await cli('ingest');
    expect(result.code).toBe(0);
    const line = result.stdout.split('\n').find((text) => text.startsWith('new fatal help requests:'));
    expect(line).toBe(`new fatal help requests: ${Array.from({ length: 20 }, (_, i) => `help-${i}`).join(', ')} … and 5 more (layover-desk help-requests lists them)`);
  });

  it('lists a request with exactly the documented JSON fields', async () => {
    write(runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'), helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z', { category: 'access' }));
    await ingest();
    const [request] = await requests();
    expect(Object.keys(request!)).toEqual([
      'id', 'agent', 'run', 'chain', 'fatal', 'category', 'question', 'at', 'state', 'workflow', 'flags', 'routes',
      'awaiting_human', 'answer', 'responder', 'answered_at', 'continued_as', 'flags_changed',
    ]);
    expect(request).toMatchObject({ id: 'hlp_1', category: 'access', state: 'open', fatal: true, awaiting_human: true });
  });

  it('takes flags from the run, not from what the request says', async () => {
    write(
      runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'),
      helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z', {
        workflow: 'yolo',
        flags: { publish: true, admin: true },
        routes: ['everywhere'],
      }),
    );
    await ingest();
    const [request] = await requests();
    expect(request).toMatchObject({ workflow: 'release', flags: { publish: true, attempts: 3 }, routes: ['github'] });
  });

  it("writes the run's flags into the reply's chain file", async () => {
    write(
      runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'),
      helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z', { flags: { publish: false } }),
    );
    await ingest();
    const result = await cli('reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', 'Use the bot token.', '--json');
    expect(result.code).toBe(0);
    const answered = JSON.parse(result.stdout) as Record<string, unknown>;
    const chain = answered.continued_as as string;
    expect(chainFiles()).toEqual([`${chain}.json`]);
    expect(readChainFile(chain)).toEqual({
      chain,
      agent: 'scout',
      workflow: 'release',
      flags: { publish: true, attempts: 3 },
      routes: ['github'],
      answers: 'hlp_1',
      answer: 'Use the bot token.',
      responder: 'Ana',
      at: answered.answered_at,
    });
  });

  it('refuses a reply to a legacy request until the workflow and flags are stated', async () => {
    write(helpRequested('hlp_old', 'run_gone', 'chn_old', '2026-11-29T10:05:00Z'));
    await ingest();
    const [request] = await requests();
    expect(request).toMatchObject({ workflow: null, flags: null, routes: null });

    const bare = await cli('reply', '--request', 'hlp_old', '--by', 'Ana', '--answer', 'go ahead');
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/state the workflow and its flags/);
    const onlyWorkflow = await cli('reply', '--request', 'hlp_old', '--by', 'Ana', '--answer', 'go ahead', '--workflow', 'release');
    expect(onlyWorkflow.code).toBe(2);
    expect(chainFiles()).toEqual([]);
    expect((await requests())[0]?.state).toBe('open');

    const stated = await cli(
      'reply', '--request', 'hlp_old', '--by', 'Ana', '--answer', 'go ahead',
      '--workflow', 'release', '--flag', 'publish=true', '--flag', 'attempts=2', '--route', 'github', '--json',
    );
    expect(stated.code).toBe(0);
    const chain = (JSON.parse(stated.stdout) as Record<string, unknown>).continued_as as string;
    expect(readChainFile(chain)).toMatchObject({ workflow: 'release', flags: { publish: true, attempts: 2 }, routes: ['github'] });
  });

  it('changes one inherited flag with --set-flag, keeps the others, and records the key and its inherited value in the chain file and on the request', async () => {
    write(runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'), helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'));
    await ingest();
    const result = await cli('reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', 'yes, publish', '--set-flag', 'publish=false', '--set-flag', 'tier=gold');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  changed publish: true -> false\n');
    expect(result.stdout).toContain('  changed tier: (not set) -> gold\n');
    const [request] = await requests();
    expect(request).toMatchObject({ state: 'answered', flags: { publish: true, attempts: 3 }, flags_changed: { publish: true, tier: null } });
    expect(readChainFile(request!.continued_as as string)).toMatchObject({
      flags: { publish: false, attempts: 3, tier: 'gold' },
      flags_changed: { publish: true, tier: null },
    });
  });

  it('records no flags_changed for a reply that inherits the flags unchanged', async () => {
    write(runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'), helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'));
    await ingest();
    expect((await cli('reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', 'go')).code).toBe(0);
    const [request] = await requests();
    expect(request?.flags_changed).toBeNull();
    expect(readChainFile(request!.continued_as as string)).not.toHaveProperty('flags_changed');
  });

  it('refuses a --set-flag that changes nothing, one given with --flag, and one for a request whose flags are unknown, and starts no chain', async () => {
    write(
      runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'),
      helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'),
      helpRequested('hlp_old', 'run_gone', 'chn_old', '2026-11-29T10:06:00Z'),
    );
    await ingest();
    const same = await cli('reply', '--request', 'hlp_1', '--answer', 'go', '--set-flag', 'publish=true');
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/--set-flag publish=true changes nothing: hlp_1 already has publish=true/);
    const both = await cli('reply', '--request', 'hlp_1', '--answer', 'go', '--set-flag', 'publish=false', '--flag', 'publish=false');
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/use one of the two/);
    const unknown = await cli('reply', '--request', 'hlp_old', '--answer', 'go', '--workflow', 'release', '--set-flag', 'publish=false');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown, so there is nothing to change/);
    expect(chainFiles()).toEqual([]);
    expect((await requests()).map((r) => r.state)).toEqual(['open', 'open']);
  });

  it('refuses a double reply naming the first responder', async () => {
    write(runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'), helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'));
    await ingest();
    expect((await cli('reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', 'first')).code).toBe(0);
    const second = await cli('reply', '--request', 'hlp_1', '--by', 'Bo', '--answer', 'second');
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/already answered by Ana on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(chainFiles()).toHaveLength(1);
    expect((await requests())[0]).toMatchObject({ answer: 'first', responder: 'Ana' });
  });

  it('refuses an empty answer', async () => {
    write(runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'), helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'));
    await ingest();
    const result = await cli('reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', '   ');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/answer is empty/);
  });

  it('lets exactly one of two processes racing to reply win; the other is told who did', async () => {
    write(runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'), helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'));
    await ingest();
    const [ana, bo] = await Promise.all([
      spawnCli(['reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', 'from Ana']),
      spawnCli(['reply', '--request', 'hlp_1', '--by', 'Bo', '--answer', 'from Bo']),
    ]);
    const codes = [ana.code, bo.code].sort();
    expect(codes).toEqual([0, 2]);
    const winner = ana.code === 0 ? 'Ana' : 'Bo';
    const loser = ana.code === 0 ? bo : ana;
    expect(loser.stderr).toContain(`already answered by ${winner} on`);
    expect(chainFiles()).toHaveLength(1);
    expect((await requests())[0]).toMatchObject({ state: 'answered', responder: winner, answer: `from ${winner}` });
  }, 10_000 + 2 * cliStartAllowanceMs());

  it('re-writes a chain file lost to a crash at the next start', async () => {
    write(runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'), helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'));
    await ingest();
    // The reply commits, then the file write fails (as if the process died before it).
    fs.writeFileSync(path.join(factory, 'chains'), 'in the way');
    const result = await cli('reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', 'Use the bot token.');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/reply is recorded/);
    const [request] = await requests();
    expect(request).toMatchObject({ state: 'answered', responder: 'Ana' });
    fs.rmSync(path.join(factory, 'chains'));

    // Next start: whoever opens the ledger flushes the outbox.
    withTestLedger(factory, (db) => {
      expect(flushOutbox(db, factory)).toBe(1);
      expect(flushOutbox(db, factory)).toBe(0);
    });
    const chain = request!.continued_as as string;
    expect(readChainFile(chain)).toMatchObject({ chain, answers: 'hlp_1', answer: 'Use the bot token.', responder: 'Ana', flags: { publish: true, attempts: 3 } });
  });

  it("holds awaiting_human only by the last run's request", async () => {
    write(
      runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'),
      helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'),
      runFinished('run_1', '2026-11-29T10:06:00Z'),
    );
    await ingest();
    expect(await chainState('chn_a')).toBe('awaiting_human');
    expect((await requests())[0]?.awaiting_human).toBe(true);

    write(runStarted('run_2', 'chn_a', '2026-11-29T11:00:00Z'));
    await ingest();
    expect(await chainState('chn_a')).toBe('running');
    expect((await requests())[0]).toMatchObject({ state: 'open', awaiting_human: false });

    write(helpRequested('hlp_2', 'run_2', 'chn_a', '2026-11-29T11:05:00Z'));
    await ingest();
    expect(await chainState('chn_a')).toBe('awaiting_human');
    const listed = await requests('--open');
    expect(listed.map((r) => [r.id, r.awaiting_human])).toEqual([['hlp_2', true], ['hlp_1', false]]);
  });

  it('finishes the chain when its request is resolved without an answer', async () => {
    write(runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'), helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'));
    await ingest();
    expect(await chainState('chn_a')).toBe('awaiting_human');
    const result = await cli('resolve', '--request', 'hlp_1', '--by', 'Ana');
    expect(result.code).toBe(0);
    expect(await chainState('chn_a')).toBe('finished');
    expect((await requests())[0]).toMatchObject({ state: 'resolved', responder: 'Ana', answer: null, continued_as: null });
    expect(chainFiles()).toEqual([]);
    const again = await cli('resolve', '--request', 'hlp_1', '--by', 'Bo');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already resolved by Ana on/);
    const replied = await cli('reply', '--request', 'hlp_1', '--by', 'Bo', '--answer', 'late');
    expect(replied.code).toBe(2);
    expect(replied.stderr).toMatch(/already resolved by Ana on/);
  });

  it('signs a reply with the OS account name when no name is given', async () => {
    write(runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'), helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'));
    await ingest();
    expect((await cli('reply', '--request', 'hlp_1', '--answer', 'ok')).code).toBe(0);
    expect((await requests())[0]?.responder).toBe(os.userInfo().username);
  });

  it('links a chain started by a reply and the request both ways', async () => {
    write(runStarted('run_1', 'chn_a', '2026-11-29T10:00:00Z'), helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'));
    await ingest();
    const result = await cli('reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', 'ok', '--json');
    const next = (JSON.parse(result.stdout) as Record<string, unknown>).continued_as as string;
    // The Tower starts the new chain; its run carries the request it answers.
    write(runStarted('run_2', next, '2026-11-29T15:00:00Z', { answers: 'hlp_1' }));
    await ingest();
    const all = await chains();
    expect(all.find((c) => c.chain === next)).toMatchObject({ answers: 'hlp_1', state: 'running', runs: 1, flags: { publish: true, attempts: 3 } });
    expect(all.find((c) => c.chain === 'chn_a')).toMatchObject({ continued_as: next, state: 'finished' });
    expect((await requests())[0]?.continued_as).toBe(next);
  });
  it('a request whose run start was swept has unknown flags, and a reply to it must state them', async () => {
    const day = 24 * 60 * 60 * 1000;
    const old = new Date(Date.now() - 95 * day).toISOString();
    write(runStarted('run_old', 'chn_old', old));
    await ingest();
    const swept = await cli('sweep', '--json');
    expect(swept.code).toBe(0);
    expect(JSON.parse(swept.stdout)).toMatchObject({ runs: 1 });
    write(helpRequested('hlp_late', 'run_old', 'chn_old', new Date().toISOString(), { workflow: 'release', flags: { publish: true } }));
    await ingest();
    expect((await requests())[0]).toMatchObject({ id: 'hlp_late', workflow: null, flags: null, routes: null });
    const bare = await cli('reply', '--request', 'hlp_late', '--by', 'Ana', '--answer', 'go ahead');
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/state the workflow and its flags/);
    expect(chainFiles()).toEqual([]);
  });
});

describe('categories', () => {
  it('refuses an unknown category at ingest, naming all six', async () => {
    write(
      helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z', { category: 'urgent' }),
      helpRequested('hlp_2', 'run_1', 'chn_a', '2026-11-29T10:06:00Z', { category: 'access' }),
    );
    await cli('ingest');
    expect((await requests()).map((r) => r.id)).toEqual(['hlp_2']);
    const rows = queryLedger<{ line: number; reason: string }>(factory, 'SELECT line, reason FROM refused_lines');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.line).toBe(1);
    for (const category of HELP_CATEGORIES) expect(rows[0]?.reason).toContain(category);
  });

  it('refuses a duplicate help request id at ingest', async () => {
    write(
      helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z', { question: 'first' }),
      helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:06:00Z', { question: 'second' }),
    );
    await cli('ingest');
    expect((await requests()).map((r) => r.question)).toEqual(['first']);
    const rows = queryLedger<{ reason: string }>(factory, 'SELECT reason FROM refused_lines');
    expect(rows.map((r) => r.reason)).toEqual(['duplicate help request id hlp_1: a request with this id was already filed']);
  });

  it('refuses a duplicate help request id with the same message at ingest and when the agent asks', async () => {
    const message = 'duplicate help request id hlp_1: a request with this id was already filed';
    write(helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:05:00Z'));
    await ingest();
    const asked = await cli('ask', '--agent', 'scout', '--run', 'run_1', '--chain', 'chn_a', '--id', 'hlp_1', 'Again?');
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain(`help.requested: ${message}`);
    write(helpRequested('hlp_1', 'run_1', 'chn_a', '2026-11-29T10:06:00Z'));
    await cli('ingest');
    expect(queryLedger<{ reason: string }>(factory, 'SELECT reason FROM refused_lines').map((r) => r.reason)).toEqual([message]);
  });

  it('refuses an unknown category when asking, naming all six, and writes nothing', async () => {
    const result = await cli('ask', '--agent', 'scout', '--run', 'run_1', '--chain', 'chn_a', '--category', 'urgent', 'Which token?');
    expect(result.code).toBe(2);
    for (const category of HELP_CATEGORIES) expect(result.stderr).toContain(category);
    expect(fs.existsSync(path.join(factory, 'events'))).toBe(false);
  });

  it('keeps a request without a category empty, never other', async () => {
    const result = await cli('ask', '--agent', 'scout', '--run', 'run_1', '--chain', 'chn_a', '--fatal', 'Which token?');
    expect(result.code).toBe(0);
    const id = result.stdout.trim();
    expect(id).toMatch(/^hlp_[0-9A-HJKMNP-TV-Z]{26}$/);
    await ingest();
    const [request] = await requests();
    expect(request).toMatchObject({ id, category: null, fatal: true, question: 'Which token?', flags: null });
  });

  it('files a request with a category through ask and refuses its id a second time', async () => {
    const first = await cli('ask', '--agent', 'scout', '--run', 'run_1', '--chain', 'chn_a', '--category', 'decision', '--id', 'hlp_x', 'Ship it?');
    expect(first.code).toBe(0);
    await ingest();
    expect((await requests())[0]).toMatchObject({ id: 'hlp_x', category: 'decision', fatal: false });
    const again = await cli('ask', '--agent', 'scout', '--run', 'run_1', '--chain', 'chn_a', '--id', 'hlp_x', 'Ship it?');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/duplicate help request id hlp_x/);
  });

  it('refuses an id that a line not yet ingested already files, as ingest would, with or without a ledger', async () => {
    const first = await cli('ask', '--agent', 'scout', '--run', 'run_1', '--chain', 'chn_a', '--id', 'hlp_y', 'Ship it?');
    expect(first.code).toBe(0);
    const again = await cli('ask', '--agent', 'scout', '--run', 'run_1', '--chain', 'chn_a', '--id', 'hlp_y', 'Ship it now?');
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/duplicate help request id hlp_y/);
    await ingest();
    const other = await cli('ask', '--agent', 'scout', '--run', 'run_1', '--chain', 'chn_a', '--id', 'hlp_z', 'And this?');
    expect(other.code).toBe(0);
    const third = await cli('ask', '--agent', 'scout', '--run', 'run_1', '--chain', 'chn_a', '--id', 'hlp_z', 'And this?');
    expect(third.code).toBe(2);
    await ingest();
    expect((await requests()).map((r) => r.id).sort()).toEqual(['hlp_y', 'hlp_z']);
  });

  it('refuses a bad agent name when asking', async () => {
    const result = await cli('ask', '--agent', '../etc', '--run', 'run_1', '--chain', 'chn_a', 'Which token?');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not a valid agent name/);
  });
});
