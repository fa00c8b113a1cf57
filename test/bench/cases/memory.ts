/**
 * Case 7: how much memory `serve` holds on a big ledger: L learnings and R runs, already caught up
 * (the ledger is ingested in-process first, so serve has nothing to read; its runs link to
 * nothing, as serve holds no links in memory: `unlinkedLedger`), after the window's first calls
 * (desk info, the first page of learnings). Resident
 * memory (VmRSS) is what the operator's machine pays for as long as the Desk is open, and
 * anything the store keeps in memory per learning (an index) shows here. Baseline: serve on an
 * empty factory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ledgerPath } from '../../../electron/node/store/db.js';
import type { FactorySpec } from '../corpus.js';
import { MIXED_AGENTS, MIXED_DAYS, countIn, eventsForLearnings, formatCount, result, type BenchCase } from '../harness.js';
import { pingUntilCaughtUp, startServe } from '../../support/serve.js';

/** The most resident memory serve may hold, in MB (issue 9). */
const MOST_MB = 400;
const MEMORY_SEED = 71;
/** Run events per run (a start and a finish), and the help requests' small share of the events. */
const EVENTS_PER_RUN = 2;
const HELP_SHARE = 0.01;
const POLL_MS = 100;

/** A factory of about `runs` runs and `learnings` learnings: mostly run events, proposals enough for the learnings. */
export function memorySpec(runs: number, learnings: number): FactorySpec {
  const proposals = eventsForLearnings(learnings) * 0.3;
  const runEvents = runs * EVENTS_PER_RUN;
  const events = Math.ceil((runEvents + proposals) / (1 - HELP_SHARE));
  return {
    events,
    agents: MIXED_AGENTS,
    days: MIXED_DAYS,
    seed: MEMORY_SEED,
    shares: { run: runEvents / events, proposal: proposals / events, help: HELP_SHARE },
  };
}

async function residentAfterStart(dir: string): Promise<{ rss: number; peak: number }> {
  const serve = await startServe(dir);
  try {
    await pingUntilCaughtUp(() => serve.info(), POLL_MS, () => {});
    await serve.call('learnings.query', {});
    await serve.call('help.list', {});
    return serve.memory();
  } finally {
    await serve.stop();
  }
}

export const memoryCase: BenchCase = {
  id: 'memory',
  runsServe: true,
  about: 'serve resident memory (VmRSS) with L learnings and R runs, caught up, after the first page ÷ serve on an empty factory',
  async run({ sizes, work }) {
    const spec = memorySpec(sizes.memoryRuns, sizes.memoryLearnings);
    const dir = work.factoryCopy(work.unlinkedLedger(spec), 'memory');
    const learnings = countIn(ledgerPath(dir), 'learnings');
    const runs = countIn(ledgerPath(dir), 'runs');
    const empty = work.folder('memory-empty');
    fs.mkdirSync(path.join(empty, 'events'));
    const base = await residentAfterStart(empty);
    const big = await residentAfterStart(dir);
    return {
      results: [
        {
          result: result(`memory: serve with ${formatCount(learnings)} learnings and ${formatCount(runs)} runs`, big.rss, 'MB', base.rss, { on: 'value', most: MOST_MB }),
          note: `peak (VmHWM) ${big.peak.toFixed(0)} MB, empty factory ${base.peak.toFixed(0)} MB`,
        },
      ],
    };
  },
};
