/**
 * Case 8: the ledger's size on disk after a checkpoint (the WAL folded in). Seven safety copies
 * are kept, so every byte here is paid eight times.
 * - Per learning: the ledger of one agent's learnings with their proposal log (every proposal
 *   that made or echoed them), as the issue states the target; baseline: the same proposals as
 *   `learning.proposed` lines.
 * - Per event: the shared mixed ledger (runs with the ids they were given and their links to
 *   those learnings, help requests…);
 *   baseline: the events files it was read from.
 */
import fs from 'node:fs';
import { countIn, formatCount, mixedSpec, result, type BenchCase } from '../harness.js';

/** The most bytes a learning (with its share of the proposal log) may take (issue 9). */
const MOST_BYTES_PER_LEARNING = 1024;

export const sizeCase: BenchCase = {
  id: 'size',
  about: 'ledger file size after a checkpoint, per learning and per event ÷ the events files it was read from',
  run({ sizes, work }) {
    const learned = work.oneAgentLedger(sizes.oneAgentLearnings);
    const learnedBytes = fs.statSync(learned.file).size;
    const learnings = countIn(learned.file, 'learnings');
    const proposals = countIn(learned.file, 'proposals');
    const proposalBytes = learned.proposalLineBytes;
    const ledger = work.ledger(mixedSpec(sizes.ledgerEvents));
    const bytes = fs.statSync(ledger.file).size;
    const events = ledger.factory.events;
    const raw = ledger.factory.bytes;
    return {
      results: [
        {
          result: result(`size: ledger bytes per learning at ${formatCount(learnings)} learnings with their proposal log`, learnedBytes / learnings, 'B', proposalBytes / learnings, { on: 'value', most: MOST_BYTES_PER_LEARNING }),
          note: `ledger ${(learnedBytes / 1024 ** 2).toFixed(1)} MB for ${formatCount(proposals)} proposals; baseline: the same proposals as event lines`,
        },
        {
          result: result(`size: ledger bytes per event at ${formatCount(events)} events`, bytes / events, 'B', raw / events, null),
          note: `ledger ${(bytes / 1024 ** 2).toFixed(1)} MB, events files ${(raw / 1024 ** 2).toFixed(1)} MB; ${formatCount(countIn(ledger.file, 'learnings'))} learnings, ${formatCount(countIn(ledger.file, 'runs'))} runs`,
        },
      ],
    };
  },
};
