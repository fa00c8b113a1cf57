import { RUN_OUTCOMES } from '../../../shared/domain.js';
import {
  FACTORY_OPTION,
  JSON_OPTION,
  Refusal,
  factoryDir,
  flagOption,
  listOption,
  printJson,
  requiredOption,
  stringOption,
  type Command,
} from '../command.js';
import { parseFlagOptions } from '../flags.js';
import { agentOption, finishRun, startRun } from './agentSide.js';

export const runStartCommand: Command = {
  name: ['run', 'start'],
  summary: 'Record that a run starts, and print the learnings it is given (agent side).',
  usage:
    'run start --agent A --run R --chain C [--workflow W] [--flag k=v]... [--route R]... [--answers HELP_ID] [--json] [--factory DIR]',
  help: [
    'Appends a run.started event recording how the work was asked for (workflow, flags, routes)',
    'and the ids of the learnings in learnings/<A>.json at this moment, then prints those',
    'learnings: they are what the run should take into account. The Desk keeps, for every run,',
    'which learnings it was given; a help request copies its flags from this record.',
    '',
    'Refused at once (exit 2, nothing appended) when ingest would refuse it, including a run id',
    'that already started (in the ledger or in a line not yet ingested).',
    '',
    'Options:',
    '  --agent A         the agent (required)',
    '  --run R           the run id (required, unique)',
    '  --chain C         the chain the run belongs to (required)',
    '  --workflow W      the workflow (default: "default")',
    '  --flag k=v        a flag the run was given, repeatable; true/false and numbers that keep',
    '                    their text are typed (1.10 stays the text "1.10")',
    '  --route R         a route, repeatable',
    '  --answers ID      the help request whose reply started this chain',
    '  --json            print { run, learnings: [{ id, text, state, impact }] }',
    '  --factory DIR     the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: {
    ...FACTORY_OPTION,
    ...JSON_OPTION,
    agent: { type: 'string' },
    run: { type: 'string' },
    chain: { type: 'string' },
    workflow: { type: 'string' },
    flag: { type: 'string', multiple: true },
    route: { type: 'string', multiple: true },
    answers: { type: 'string' },
  },
  async run(args, io) {
    const agent = agentOption(args);
    const run = requiredOption(args, 'run');
    const chain = requiredOption(args, 'chain');
    const flags = parseFlagOptions(listOption(args, 'flag'));
    const answers = stringOption(args, 'answers');
    const { learnings: given } = startRun(factoryDir(args, io), {
      agent,
      run,
      chain,
      workflow: stringOption(args, 'workflow') ?? 'default',
      flags,
      routes: listOption(args, 'route'),
      ...(answers !== undefined && { answers }),
    });
    if (flagOption(args, 'json')) {
      printJson(io, { run, learnings: given.map(({ id, text, state, impact }) => ({ id, text, state, impact })) });
      return;
    }
    if (given.length === 0) {
      io.stdout('No learnings yet for this agent.\n');
      return;
    }
    io.stdout(`Learnings for ${agent} (${given.length}), most important first:\n`);
    for (const l of given) io.stdout(`- [${l.state}, ${l.impact}] ${l.text}\n`);
  },
};

export const runFinishCommand: Command = {
  name: ['run', 'finish'],
  summary: 'Record that a run finished and how (agent side).',
  usage: 'run finish --agent A --run R --outcome succeeded|failed|stopped [--json] [--factory DIR]',
  help: [
    'Appends a run.finished event. Each finished run counts against the provisional learnings',
    'that were already live when it started; one that runs out of runs lapses.',
    '',
    'Refused at once (exit 2, nothing appended) when ingest would refuse it: a run with no',
    'recorded start, one already finished, or one started by another agent (the ledger and the',
    'lines not yet ingested both count).',
    '',
    'Options:',
    '  --agent A        the agent (required)',
    '  --run R          the run id given to `run start` (required)',
    `  --outcome O      ${RUN_OUTCOMES.join(', ')} (required)`,
    '  --json           print the event written',
    '  --factory DIR    the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: { ...FACTORY_OPTION, ...JSON_OPTION, agent: { type: 'string' }, run: { type: 'string' }, outcome: { type: 'string' } },
  async run(args, io) {
    const agent = agentOption(args);
    const run = requiredOption(args, 'run');
    const outcome = requiredOption(args, 'outcome');
    if (!(RUN_OUTCOMES as readonly string[]).includes(outcome)) {
      throw new Refusal(`--outcome ${JSON.stringify(outcome)} is not one of ${RUN_OUTCOMES.join(', ')}`);
    }
    const { event, file } = finishRun(factoryDir(args, io), { agent, run, outcome });
    if (flagOption(args, 'json')) printJson(io, event);
    else io.stdout(`run ${run} finished: ${outcome} (appended to ${file})\n`);
  },
};
