import { FACTORY_OPTION, JSON_OPTION, factoryTarget, printList, stringOption, type Command } from '../command.js';
import { plural } from '../../../shared/words.js';
import { LISTING, withLedger } from '../ledgerAccess.js';
import { listChains } from '../../node/store/help.js';

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
  async run(args, io) {
    const { rows } = await withLedger(factoryTarget(args, io), io, ({ db }) =>
      listChains(db, { agent: stringOption(args, 'agent'), offset: 0, limit: Number.MAX_SAFE_INTEGER }),
      LISTING,
    );
    printList(io, args, rows, {
      empty: 'no chains',
      line: (c) => {
        const links = [c.answers ? `answers ${c.answers}` : '', c.continued_as ? `continued as ${c.continued_as}` : '']
          .filter(Boolean)
          .join(', ');
        return `${c.chain}  ${c.state.padEnd(14)} ${c.agent}  ${plural(c.runs, 'run', 'runs')}  ${c.workflow ?? '-'}${links ? `  (${links})` : ''}`;
      },
    });
  },
};
