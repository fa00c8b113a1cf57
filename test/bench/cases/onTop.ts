/**
 * Case 3: the same event lines of one agent ingested on top of a ledger where that agent already
 * has L learnings, against ingesting them into an empty ledger.
 *
 * What it catches: costs that grow with the agent's history (candidate sets, counts, triggers).
 * The lines are one agent's runs, proposals and help requests, and their proposals reword the
 * filled ledger's texts as often as any (30%), so on top of the history they are echoes and
 * rediscoveries where into an empty ledger they are new: the realistic mix of both. Their runs
 * name made-up learning ids, unknown to both ledgers, so the two sides link the same (nothing);
 * the links' cost is in the ingest case.
 */
import path from 'node:path';
import { ingestSync } from '../../../electron/node/ingest.js';
import { openDb } from '../../../electron/node/store/db.js';
import { ProposalTexts } from '../corpus.js';
import { ONE_AGENT, SETTINGS, formatCount, median, openCopy, result, timed, type BenchCase, type BenchContext } from '../harness.js';

/** How many times the cost into an empty ledger the same lines may cost on top of the history. */
const MOST_TIMES_EMPTY = 3;
const LINES_SEED = 31;
/**
 * Rounds of each side, the medians compared: one ingest of 10,000 lines is a second or two, and
 * with one round of each the ratio followed whichever side the machine slowed (into an empty
 * ledger alone took 529 to 893 ms in session 13's runs).
 */
const ROUNDS = 3;

export const onTopCase: BenchCase = {
  id: 'on-top',
  about: 'ingesting N lines of one agent on top of its L learnings ÷ the same lines into an empty ledger',
  run({ sizes, work }: BenchContext) {
    const ledger = work.oneAgentLedger(sizes.oneAgentLearnings);
    const texts = new ProposalTexts(LINES_SEED);
    for (const text of ledger.texts) texts.remember(ONE_AGENT, text);
    const factory = work.factory({
      events: sizes.linesOnTop,
      agents: 1,
      days: 1,
      seed: LINES_SEED,
      agentNames: [ONE_AGENT],
      texts,
      lastDay: new Date(ledger.lastAt + 86_400_000).toISOString().slice(0, 10),
    });
    const onTop: number[] = [];
    const empty: number[] = [];
    // In turns, empty first, then on top: each on fresh files, preparation outside the timing.
    for (let round = 0; round < ROUNDS; round++) {
      {
        const dir = work.linkedFactory(factory, `empty-${round}`);
        const db = openDb(path.join(dir, '.layover', 'ledger.sqlite'));
        empty.push(timed(() => ingestSync(db, dir, { settings: SETTINGS })));
        db.close();
      }
      {
        const copy = openCopy(work, ledger.file, `on-top-${round}`);
        const dir = work.linkedFactory(factory, `on-top-events-${round}`);
        onTop.push(timed(() => ingestSync(copy.db, dir, { settings: SETTINGS })));
        copy.db.close();
      }
    }
    const measured = median(onTop);
    const base = median(empty);
    return {
      results: [
        {
          result: result(
            `on-top: ${formatCount(factory.events)} lines on top of ${formatCount(ledger.learnings)} learnings of one agent vs into an empty ledger`,
            measured,
            'ms',
            base,
            { on: 'ratio', most: MOST_TIMES_EMPTY },
          ),
          note: `${formatCount((factory.events / measured) * 1000)} lines/s on top, ${formatCount((factory.events / base) * 1000)} lines/s into empty (medians of ${ROUNDS} rounds each, in turns: ${onTop.map((ms) => formatCount(ms)).join(', ')} ms on top, ${empty.map((ms) => formatCount(ms)).join(', ')} ms into empty); ${formatCount(factory.proposals)} proposals among them`,
        },
      ],
    };
  },
};
