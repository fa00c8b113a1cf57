import { ulid } from 'ulid';
import type { Command } from '../command.js';
import { FACTORY_OPTION, Refusal, factoryDir, flagOption, printJson, requiredOption, stringOption } from '../command.js';
import { existingFactory, peekLedgerOrNone } from '../ledgerAccess.js';
import { helpIdTakenAsIngestWillSee } from '../../node/ingest.js';
import { HELP_CATEGORIES } from '../../rules/events.js';
import { appendLine, validatedLine } from './agentSide.js';

/**
 * True when ingest would refuse this id as a duplicate: the ledger holds it, or a line not yet
 * ingested files it. A ledger that cannot be read must not stop an agent from asking: ingest
 * checks again.
 */
function alreadyFiled(root: string, id: string): boolean {
  return peekLedgerOrNone(root, (db) => helpIdTakenAsIngestWillSee(db, root, id)) ?? false;
}

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
    const id = stringOption(args, 'id') ?? `hlp_${ulid()}`;
    const raw: Record<string, unknown> = {
      type: 'help.requested',
      at: new Date().toISOString(),
      id,
      agent: requiredOption(args, 'agent'),
      run: requiredOption(args, 'run'),
      chain: requiredOption(args, 'chain'),
      fatal: flagOption(args, 'fatal'),
      question,
    };
    const category = stringOption(args, 'category');
    if (category !== undefined) raw.category = category;

    const { event, line } = validatedLine(raw);
    const root = existingFactory(factoryDir(args, io));
    if (alreadyFiled(root, id)) throw new Refusal(`help.requested: duplicate help request id ${id}`);
    appendLine(root, line);
    if (flagOption(args, 'json')) printJson(io, event);
    else io.stdout(`${id}\n`);
  },
};
