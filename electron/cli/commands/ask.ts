import type { Command } from '../command.js';
import { FACTORY_OPTION, Refusal, factoryDir, flagOption, printJson, requiredOption, stringOption } from '../command.js';
import { HELP_CATEGORIES } from '../../rules/events.js';
import { askForHelp } from './agentSide.js';

export const askCommand: Command = {
  name: ['ask'],
  summary: 'Agent side: ask a person for help (appends a help.requested event)',
  usage: 'ask --agent A --run R --chain C [--fatal] [--category C] [--id ID] [--json] [--factory DIR] QUESTION',
  help: [
    "Files a help request in today's events file, checked exactly as ingestion checks it, so a",
    'request that would be refused is refused now (exit 2, reason on stderr) and nothing is written.',
    '',
    'Options:',
    '  --agent A      the asking agent (1-64 of a-z 0-9 _ -, starting with a letter or digit)',
    '  --run R        the asking run',
    '  --chain C      the chain of that run',
    '  --fatal        the run cannot go on without an answer (it should stop after asking)',
    `  --category C   one of: ${HELP_CATEGORIES.join(', ')} (optional)`,
    '  --id ID        the request id (default: hlp_ + a new ULID)',
    '  --json         print the appended event as JSON',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
    '',
    "A reply's new chain takes its workflow, flags and routes from the asking run's own",
    'run.started record (see `run start`), never from the request.',
  ].join('\n'),
  options: {
    ...FACTORY_OPTION,
    agent: { type: 'string' },
    run: { type: 'string' },
    chain: { type: 'string' },
    fatal: { type: 'boolean' },
    category: { type: 'string' },
    id: { type: 'string' },
    json: { type: 'boolean' },
  },
  run(args, io) {
    const question = args.positionals.join(' ');
    if (question.trim() === '') throw new Refusal('the QUESTION is missing');
    const requested = stringOption(args, 'id');
    const category = stringOption(args, 'category');
    const { event, id } = askForHelp(factoryDir(args, io), {
      ...(requested !== undefined && { id: requested }),
      agent: requiredOption(args, 'agent'),
      run: requiredOption(args, 'run'),
      chain: requiredOption(args, 'chain'),
      fatal: flagOption(args, 'fatal'),
      question,
      ...(category !== undefined && { category }),
    });
    if (flagOption(args, 'json')) printJson(io, event);
    else io.stdout(`${id}\n`);
  },
};
