/**
 * `serve` killed while the operator replies (issue 10): a client answers fatal help requests
 * through the HTTP API one after another while `serve` is SIGKILLed at seeded random moments,
 * then started again, round after round; a last round answers what is left and lets the host
 * stop cleanly. Then no reply is lost (every reply the client got `ok` for is in the ledger with
 * its answer), none is doubled (one answer, one chain, one chain file and one journal line per
 * request), and no chain file is missing: a reply committed just before a kill gets its file
 * from the outbox at the next start.
 *
 * A kill can land before a reply's commit (the client retries it next round), after the commit
 * and before the answer (the retry is refused as already answered: committed, not doubled), or
 * between two replies. Which is not asserted (it depends on timing); that enough kills landed
 * with a reply in flight is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alive } from '../../electron/node/atomicFile.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { caughtUp, startServe, type RunningServe } from '../support/serve.js';
import { helpRequested, runStarted } from '../support/events.js';
import { appendEvents, eventually, tempFactory, type TempFactory } from '../support/factory.js';
import { queryLedger } from '../support/ledger.js';
import { cliStartAllowanceMs } from '../support/spawnCli.js';

/** Fatal requests waiting for a reply: more than the kill rounds can answer. */
const REQUESTS = 400;
/** Kills that must land while a reply is in flight. */
const KILLS = 6;
/** Rounds allowed for them: a kill can fall between two replies. */
const ATTEMPTS = 15;
/** A kill comes after up to this many replies of its round were answered `ok`... */
const MOST_REPLIES_BEFORE_KILL = 25;
/** ...and up to this long after the reply that triggered it. */
const KILL_SPREAD_MS = 15;

const factories: TempFactory[] = [];
afterAll(() => {
  for (const f of factories) f.remove();
});

const ids = Array.from({ length: REQUESTS }, (_, i) => `hlp_${String(i).padStart(4, '0')}`);

function writeRequests(factory: string): void {
  const base = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
  const at = (s: number) => new Date(base + s * 1000).toISOString();
  ids.forEach((id, i) => {
    const run = `run_${i}`;
    appendEvents(
      factory,
      runStarted({ at: at(2 * i), run, agent: 'scout', chain: `chn_${i}`, workflow: 'release', flags: { publish: true } }),
      helpRequested({ at: at(2 * i + 1), id, agent: 'scout', run, chain: `chn_${i}`, fatal: true }),
    );
  });
}

/** What the client knows after a round. */
interface Replies {
  /** Answers serve acknowledged with `ok`, by request. */
  acked: Map<string, string>;
  /** Requests a retry found already answered: committed by a serve killed before it could say so. */
  committedUnacked: Set<string>;
}

/** How a kill round ended. */
type RoundEnd = 'in flight' | 'between replies' | 'out of requests';

/**
 * Answers the requests not known to be answered, one after another, until all are or serve
 * stops answering (it was killed: the reply that failed is retried next round). With `kill`, it
 * SIGKILLs serve after that many `ok`s plus a moment. Says whether the kill broke a reply in
 * flight (its connection was cut) or came between two (the next one found nothing listening).
 */
async function replyRound(
  serve: RunningServe,
  round: number,
  replies: Replies,
  kill: { afterOks: number; delayMs: number } | null,
): Promise<RoundEnd> {
  let oks = 0;
  let timer: NodeJS.Timeout | undefined;
  try {
    for (const id of ids) {
      if (replies.acked.has(id) || replies.committedUnacked.has(id)) continue;
      const answer = `Use the bot token (${id}, round ${round}).`;
      try {
        await serve.call('help.reply', { id, answer, by: 'Ana' });
      } catch (error) {
        const message = (error as Error).message;
        if (/^serve refused help\.reply: already answered by Ana/.test(message)) {
          replies.committedUnacked.add(id);
          continue;
        }
        if (!kill || message.startsWith('serve refused')) throw error;
        const cause = (error as Error & { cause?: { code?: string } }).cause;
        return cause?.code === 'ECONNREFUSED' ? 'between replies' : 'in flight';
      }
      replies.acked.set(id, answer);
      oks++;
      if (kill && oks === kill.afterOks) timer = setTimeout(() => process.kill(serve.pid, 'SIGKILL'), kill.delayMs);
    }
    return 'out of requests';
  } finally {
    clearTimeout(timer);
  }
}

async function started(factory: string): Promise<RunningServe> {
  const serve = await startServe(factory);
  await eventually(async () => caughtUp((await serve.info()).value), 'serve has read the help requests', 20_000);
  return serve;
}

describe('serve killed during replies', () => {
  it('stops a serve that was SIGKILLed and whose exit was already seen, rather than waiting for an exit that has passed', async () => {
    const temp = tempFactory('layover-serve-kill-');
    factories.push(temp);
    fs.mkdirSync(path.join(temp.dir, 'events'));
    const serve = await startServe(temp.dir);
    process.kill(serve.pid, 'SIGKILL');
    // Node reaps a child and emits its 'exit' in one step: once the pid is gone, the exit was seen.
    await eventually(() => !alive(serve.pid), 'the killed serve is reaped');
    await expect(serve.stop()).resolves.toBeNull();
  });

  it('loses no reply the client got ok for, doubles none, and leaves no chain file missing after SIGKILLs at random moments', async () => {
    const temp = tempFactory('layover-serve-kill-');
    factories.push(temp);
    const factory = temp.dir;
    writeRequests(factory);
    const rand = seededRandom(1010);
    const replies: Replies = { acked: new Map(), committedUnacked: new Set() };

    let interrupted = 0;
    for (let round = 0; round < ATTEMPTS && interrupted < KILLS; round++) {
      const serve = await started(factory);
      const kill = { afterOks: 1 + Math.floor(rand() * MOST_REPLIES_BEFORE_KILL), delayMs: Math.floor(rand() * KILL_SPREAD_MS) };
      const end = await replyRound(serve, round, replies, kill);
      if (end === 'in flight') interrupted++;
      if (end === 'out of requests') process.kill(serve.pid, 'SIGKILL');
      await serve.stop();
    }
    expect(interrupted).toBeGreaterThanOrEqual(KILLS);
    expect(replies.acked.size).toBeLessThan(REQUESTS); // the last round still has replies to send

    const last = await started(factory);
    try {
      await replyRound(last, ATTEMPTS, replies, null);
      await eventually(
        () => (queryLedger<{ n: number }>(factory, 'SELECT count(*) AS n FROM outbox')[0]!.n === 0 ? true : undefined),
        'the outbox is written out',
      );
    } finally {
      await last.stop();
    }

    const answered = queryLedger<{ id: string; state: string; answer: string; continued_as: string }>(
      factory,
      'SELECT id, state, answer, continued_as FROM help_requests ORDER BY id',
    );
    expect(answered.map((r) => r.id)).toEqual(ids);
    expect(answered.filter((r) => r.state !== 'answered')).toEqual([]);
    const byId = new Map(answered.map((r) => [r.id, r]));
    for (const [id, answer] of replies.acked) expect(byId.get(id)?.answer, id).toBe(answer);
    expect(replies.acked.size + replies.committedUnacked.size).toBe(REQUESTS);

    const chains = queryLedger<{ chain: string; answers: string }>(factory, 'SELECT chain, answers FROM chains WHERE answers IS NOT NULL ORDER BY answers');
    expect(chains).toEqual(answered.map((r) => ({ chain: r.continued_as, answers: r.id })));

    const chainDir = path.join(factory, 'chains');
    // Exactly the chain files: a temporary file a kill left mid-write is removed at the next start.
    expect(fs.readdirSync(chainDir).sort()).toEqual(answered.map((r) => `${r.continued_as}.json`).sort());
    for (const r of answered) {
      const file = JSON.parse(fs.readFileSync(path.join(chainDir, `${r.continued_as}.json`), 'utf8')) as { answers: string; answer: string };
      expect({ answers: file.answers, answer: file.answer }).toEqual({ answers: r.id, answer: r.answer });
    }

    const journal = fs
      .readFileSync(path.join(factory, '.layover', 'decisions.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { what: string; id: string; chain: string; seq: number });
    expect(journal.map((entry) => entry.seq)).toEqual(journal.map((_, i) => i + 1));
    expect(journal.filter((e) => e.what === 'reply').map((e) => ({ id: e.id, chain: e.chain })).sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
      answered.map((r) => ({ id: r.id, chain: r.continued_as })),
    );
  }, 60_000 + (ATTEMPTS + 1) * 12 * cliStartAllowanceMs());
});
