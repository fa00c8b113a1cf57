import type { Command } from '../command.js';
import {
  FACTORY_OPTION,
  JSON_OPTION,
  Refusal,
  factoryTarget,
  flagOption,
  listOption,
  printJson,
  requiredOption,
  stringOption,
} from '../command.js';
import { parseFlagOptions } from '../flags.js';
import { withLedger } from '../ledgerAccess.js';
import { osAccountName } from '../../node/osUser.js';
import { chainFilePath, reply } from '../../node/store/help.js';

export const replyCommand: Command = {
  name: ['reply'],
  summary: 'Answer a help request: starts a new chain of the agent that asked',
  usage:
    'reply --request ID --answer TEXT [--by NAME] [--workflow W] [--flag k=v]... [--set-flag k=v]... [--no-flags] [--route R]... [--json] [--factory DIR]',
  help: [
    'Records the answer and starts a new chain of the agent that asked (nothing is resumed).',
    'The new chain inherits the workflow, flags and routes of the run that asked, never the',
    "workflow's defaults, and is written to chains/<chain>.json for the Tower to start.",
    'A request can be answered once; a second reply is refused naming who answered and when.',
    '',
    'Options:',
    '  --request ID   the help request to answer (required)',
    '  --answer TEXT  the answer (required, not empty)',
    '  --by NAME      who answers (default: the operating-system account name)',
    '  --workflow W   the workflow of the new chain; required, with its flags, when the',
    '                 flags of the run that asked are unknown (it has no recorded start)',
    '  --flag k=v     a flag of the new chain (repeatable); true/false and numbers that keep',
    '                 their text are typed (1.10 stays the text "1.10")',
    '  --set-flag k=v change one inherited flag on purpose (repeatable); the rest are inherited',
    '                 unchanged, and the reply records each changed key and its inherited value',
    '                 (flags_changed) in the chain file and on the request',
    '  --no-flags     state that the workflow runs with no flags at all',
    '  --route R      a route of the new chain (repeatable)',
    '  --json         print the answered request as JSON',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
    '',
    'Stated --workflow / --flag / --route replace what would be inherited.',
  ].join('\n'),
  options: {
    ...FACTORY_OPTION,
    ...JSON_OPTION,
    request: { type: 'string' },
    answer: { type: 'string' },
    by: { type: 'string' },
    workflow: { type: 'string' },
    flag: { type: 'string', multiple: true },
    'set-flag': { type: 'string', multiple: true },
    'no-flags': { type: 'boolean' },
    route: { type: 'string', multiple: true },
  },
  async run(args, io) {
    const id = requiredOption(args, 'request');
    const answer = stringOption(args, 'answer');
    if (answer === undefined) throw new Refusal('--answer is required');
    const flagList = listOption(args, 'flag');
    const noFlags = flagOption(args, 'no-flags');
    if (noFlags && flagList.length > 0) throw new Refusal('--no-flags and --flag contradict each other');
    const flags = noFlags ? {} : flagList.length > 0 ? parseFlagOptions(flagList) : undefined;
    const setList = listOption(args, 'set-flag');
    if (setList.length > 0 && (noFlags || flagList.length > 0)) {
      throw new Refusal('--set-flag changes inherited flags; --flag and --no-flags replace them: use one of the two');
    }
    const setFlags = setList.length > 0 ? parseFlagOptions(setList, 'set-flag') : undefined;
    const routes = listOption(args, 'route');
    const answered = await withLedger(factoryTarget(args, io), io, ({ db, root }) =>
      reply(
        db,
        root,
        {
          id,
          answer,
          by: stringOption(args, 'by'),
          workflow: stringOption(args, 'workflow'),
          flags,
          set_flags: setFlags,
          routes: routes.length > 0 ? routes : undefined,
        },
        osAccountName(io.env),
      ),
    );
    if (flagOption(args, 'json')) {
      printJson(io, answered);
      return;
    }
    io.stdout(
      `answered ${answered.id} by ${answered.responder}: new chain ${answered.continued_as} ` +
        `(${chainFilePath(answered.continued_as ?? '')})\n`,
    );
    for (const [key, before] of Object.entries(answered.flags_changed ?? {})) {
      io.stdout(`  changed ${key}: ${before === null ? '(not set)' : String(before)} -> ${String(setFlags?.[key])}\n`);
    }
  },
};
