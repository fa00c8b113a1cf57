import { IMPACTS } from '../../../shared/domain.js';
import { FACTORY_OPTION, JSON_OPTION, Refusal, factoryDir, flagOption, printJson, stringOption, type Command } from '../command.js';
import { agentOption, proposeLearning } from './agentSide.js';

export const proposeCommand: Command = {
  name: ['propose'],
  summary: 'Propose a learning for your future runs (agent side).',
  usage: 'propose --agent A [--run R] [--impact low|medium|high] [--json] [--factory DIR] TEXT',
  help: [
    'Writes down something durable you learned (a gotcha, a reliable command, a convention) so',
    'your later runs are given it. It applies at once and lapses after a number of your runs',
    'unless you arrive at it again after it lapsed; three such rediscoveries make it permanent.',
    'Proposing it again while it is still being given to you is an echo and counts for nothing.',
    '',
    'The text is checked as the Desk checks it, and refused at once (exit 2) when it is empty,',
    'too long, holds invisible or control characters, addresses the model instead of the work',
    '("ignore previous instructions", chat-template markers), or repeats a learning a person',
    'rejected. Otherwise one line is appended to events/<today>.jsonl.',
    '',
    'Options:',
    '  --agent A      your agent name (required)',
    '  --run R        the run you are in',
    '  --impact I     low, medium (default) or high: how much it would change a run',
    '  --json         print the event written',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: { ...FACTORY_OPTION, ...JSON_OPTION, agent: { type: 'string' }, run: { type: 'string' }, impact: { type: 'string' } },
  async run(args, io) {
    const agent = agentOption(args);
    const text = args.positionals.join(' ');
    const impact = stringOption(args, 'impact') ?? 'medium';
    if (!(IMPACTS as readonly string[]).includes(impact)) throw new Refusal(`--impact ${JSON.stringify(impact)} is not one of ${IMPACTS.join(', ')}`);
    const run = stringOption(args, 'run');
    const { event, file } = proposeLearning(factoryDir(args, io), io, { agent, text, impact, ...(run !== undefined && { run }) });
    if (flagOption(args, 'json')) printJson(io, event);
    else io.stdout(`proposed (appended to ${file})\n`);
  },
};
