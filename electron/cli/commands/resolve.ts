import type { Command } from '../command.js';
import { FACTORY_OPTION, JSON_OPTION, factoryTarget, flagOption, printJson, requiredOption, stringOption } from '../command.js';
import { withLedger } from '../ledgerAccess.js';
import { osAccountName } from '../../node/osUser.js';
import { resolve } from '../../node/store/help.js';

export const resolveCommand: Command = {
  name: ['resolve'],
  summary: 'Close a help request without an answer: nothing more is needed',
  usage: 'resolve --request ID [--by NAME] [--json] [--factory DIR]',
  help: [
    'Marks an open help request resolved, recording who did it and when. No chain is started;',
    'a chain held awaiting_human by the request becomes finished.',
    '',
    'Options:',
    '  --request ID   the help request to resolve (required)',
    '  --by NAME      who resolves it (default: the operating-system account name)',
    '  --json         print the resolved request as JSON',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: {
    ...FACTORY_OPTION,
    ...JSON_OPTION,
    request: { type: 'string' },
    by: { type: 'string' },
  },
  async run(args, io) {
    const id = requiredOption(args, 'request');
    const resolved = await withLedger(factoryTarget(args, io), io, ({ db }) =>
      resolve(db, { id, by: stringOption(args, 'by') }, osAccountName(io.env)),
    );
    if (flagOption(args, 'json')) {
      printJson(io, resolved);
      return;
    }
    io.stdout(`resolved ${resolved.id} by ${resolved.responder}\n`);
  },
};
