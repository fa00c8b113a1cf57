import { IMPACTS } from '../../../shared/domain.js';
import { FACTORY_OPTION, JSON_OPTION, Refusal, factoryDir, flagOption, printJson, stringOption, type Command } from '../command.js';
import { existingFactory, peekLedger, peekSettings } from '../ledgerAccess.js';
import { screen } from '../../rules/screen.js';
import { matchingLearnings } from '../../node/store/matching.js';
import { agentOption, appendValidated } from './agentSide.js';

/**
 * A rejection in the ledger that would refuse this proposal at ingest, if the ledger exists and
 * opens (else ingest judges it: the agent is not held up by a ledger it cannot read).
 */
function rejectedMatch(root: string, agent: string, text: string): string | null {
  return peekLedger(root, (db) => {
    const hit = matchingLearnings(db, agent, text).find((l) => l.state === 'rejected');
    if (!hit) return null;
    const day = hit.decided_at ? hit.decided_at.slice(0, 10) : 'an unknown date';
    return `the same as learning ${hit.id}, rejected by ${hit.decided_by ?? 'a person'} on ${day}`;
  });
}

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
    const root = existingFactory(factoryDir(args, io));
    const { settings } = peekSettings(root, io);
    const screened = screen(text, settings.learnings.max_text);
    if (!screened.ok) throw new Refusal(screened.reason);
    const rejected = rejectedMatch(root, agent, screened.text);
    if (rejected) throw new Refusal(`refused: ${rejected}`);
    const raw: Record<string, unknown> = { type: 'learning.proposed', at: new Date().toISOString(), agent, text: screened.text, impact };
    const run = stringOption(args, 'run');
    if (run !== undefined) raw.run = run;
    const { event, file } = appendValidated(root, raw);
    if (flagOption(args, 'json')) printJson(io, event);
    else io.stdout(`proposed (appended to ${file})\n`);
  },
};
