import { FACTORY_OPTION, JSON_OPTION, factoryTarget, intOption, printList, stringOption, type Command } from '../command.js';
import { plural } from '../../../shared/words.js';
import { LISTING, withLedger } from '../ledgerAccess.js';
import { listRuns } from '../../node/store/runs.js';

export const runsCommand: Command = {
  name: ['runs'],
  summary: 'List recorded runs with the learnings each was given.',
  usage: 'runs [--agent A] [--limit N] [--json] [--factory DIR]',
  help: [
    'Lists runs, the most recently started first, with their chain, outcome and the ids of the',
    'learnings they were given, so "what was it told when it did that?" has an answer.',
    '',
    'Options:',
    '  --agent A      only the runs of agent A',
    '  --limit N      at most N runs (default: all)',
    '  --json         print an array of { run, agent, chain, workflow, flags, routes, started_at,',
    '                 finished_at, outcome, learnings, answers }',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: { ...FACTORY_OPTION, ...JSON_OPTION, agent: { type: 'string' }, limit: { type: 'string' } },
  async run(args, io) {
    const limit = intOption(args, 'limit', -1);
    const { rows } = await withLedger(factoryTarget(args, io), io, ({ db }) => listRuns(db, { agent: stringOption(args, 'agent'), limit }), LISTING);
    printList(io, args, rows, {
      empty: 'no runs',
      line: (r) =>
        `${r.run}  ${r.agent}  chain ${r.chain}  ${r.started_at}  ${r.outcome ?? 'running'}  ` +
        plural(r.learnings.length, 'learning', 'learnings'),
    });
  },
};
