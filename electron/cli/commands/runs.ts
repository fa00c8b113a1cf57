import { FACTORY_OPTION, JSON_OPTION, factoryDir, flagOption, printJson, stringOption, type Command } from '../command.js';
import { listRuns } from '../../node/store/runs.js';
import { intOption, withFactoryLedger } from './ledgerCommon.js';

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
    const limit = intOption(stringOption(args, 'limit'), 'limit', -1);
    await withFactoryLedger(factoryDir(args, io), io, ({ db }) => {
      const { rows } = listRuns(db, { agent: stringOption(args, 'agent'), limit });
      if (flagOption(args, 'json')) {
        printJson(io, rows);
        return;
      }
      if (rows.length === 0) io.stdout('no runs\n');
      for (const r of rows) {
        io.stdout(
          `${r.run}  ${r.agent}  chain ${r.chain}  ${r.started_at}  ${r.outcome ?? 'running'}  ` +
            `${r.learnings.length} learning${r.learnings.length === 1 ? '' : 's'}\n`,
        );
      }
    });
  },
};
