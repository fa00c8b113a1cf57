import type { Command } from '../command.js';
import { FACTORY_OPTION, JSON_OPTION, factoryDir, flagOption, printJson, stringOption } from '../command.js';
import { listChains } from '../../node/store/help.js';
import { withLedger } from './helpCommon.js';

export const chainsCommand: Command = {
  name: ['chains'],
  summary: 'List chains and their state (running, awaiting_human, finished)',
  usage: 'chains [--agent A] [--json] [--factory DIR]',
  help: [
    'Lists the chains in the ledger, those awaiting a person first, then newest first.',
    'A chain is awaiting_human while the fatal request its last run filed is open.',
    '',
    'Options:',
    '  --agent A      only chains of agent A',
    '  --json         print a JSON array; fields: chain, agent, state, answers, continued_as,',
    '                 workflow, flags, routes, created_at, runs',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: {
    ...FACTORY_OPTION,
    ...JSON_OPTION,
    agent: { type: 'string' },
  },
  run(args, io) {
    const { rows } = withLedger(factoryDir(args, io), (db) =>
      listChains(db, { agent: stringOption(args, 'agent'), offset: 0, limit: Number.MAX_SAFE_INTEGER }),
    );
    if (flagOption(args, 'json')) {
      printJson(io, rows);
      return;
    }
    if (rows.length === 0) {
      io.stdout('no chains\n');
      return;
    }
    for (const c of rows) {
      const links = [c.answers ? `answers ${c.answers}` : '', c.continued_as ? `continued as ${c.continued_as}` : '']
        .filter(Boolean)
        .join(', ');
      io.stdout(
        `${c.chain}  ${c.state.padEnd(14)} ${c.agent}  ${c.runs} run${c.runs === 1 ? '' : 's'}  ${c.workflow ?? '-'}` +
          `${links ? `  (${links})` : ''}\n`,
      );
    }
  },
};
