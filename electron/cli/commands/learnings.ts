import { LEARNING_STATES, type Learning, type LearningState } from '../../../shared/domain.js';
import { FACTORY_OPTION, JSON_OPTION, Refusal, factoryTarget, listOption, printList, stringOption, type Command } from '../command.js';
import { clip } from '../format.js';
import { LISTING, withLedger } from '../ledgerAccess.js';
import { queryLearnings } from '../../node/store/learningQueries.js';

/** The docs/rules.md#learnings field names, in their documented order: what `--json` prints for each learning. */
export const LEARNING_FIELDS = [
  'id', 'agent', 'text', 'impact', 'state', 'proposals', 'rediscoveries', 'echoes', 'runs_left',
  'first_at', 'last_at', 'live_since', 'lapsed_at', 'decided_by', 'decided_at', 'reason',
] as const;

export function learningJson(l: Learning): Record<string, unknown> {
  return Object.fromEntries(LEARNING_FIELDS.map((k) => [k, l[k]]));
}

export const learningsCommand: Command = {
  name: ['learnings'],
  summary: 'List the ledger of learnings, optionally of one agent or in one state.',
  usage: 'learnings [--agent A] [--state S] [--json] [--factory DIR]',
  help: [
    'Lists learnings, the most recently proposed first. A learning is provisional (given to',
    "its agent's runs, lapses unless rediscovered), confirmed (given, never expires), lapsed",
    '(not given; a later proposal counts as a rediscovery) or rejected (a person said no).',
    '',
    'Options:',
    '  --agent A      only the learnings of agent A',
    `  --state S      only learnings in state S (${LEARNING_STATES.join(', ')}); may be repeated`,
    '  --json         print an array of learnings with the documented field names',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: { ...FACTORY_OPTION, ...JSON_OPTION, agent: { type: 'string' }, state: { type: 'string', multiple: true } },
  async run(args, io) {
    const states = listOption(args, 'state');
    for (const s of states) {
      if (!(LEARNING_STATES as readonly string[]).includes(s)) {
        throw new Refusal(`--state ${JSON.stringify(s)} is not one of ${LEARNING_STATES.join(', ')}`);
      }
    }
    const agent = stringOption(args, 'agent');
    const rows = await withLedger(factoryTarget(args, io), io, ({ db }) => {
      const rows: Learning[] = [];
      const pageSize = 1000;
      for (let offset = 0; ; offset += pageSize) {
        const page = queryLearnings(db, {
          filter: { ...(agent ? { agent } : {}), ...(states.length > 0 ? { states: states as LearningState[] } : {}) },
          sort: 'last_at',
          dir: 'desc',
          offset,
          limit: pageSize,
        });
        rows.push(...page.rows);
        if (page.rows.length < pageSize) break;
      }
      return rows;
    }, LISTING);
    printList(io, args, rows, {
      empty: 'no learnings',
      json: learningJson,
      line: (l) => {
        const extra =
          l.state === 'provisional'
            ? `${l.runs_left} runs left`
            : l.state === 'rejected'
              ? `by ${l.decided_by ?? '?'}`
              : l.state === 'confirmed' && l.decided_by
                ? `kept by ${l.decided_by}`
                : '';
        return (
          `${l.id}  ${l.agent}  ${l.state.padEnd(11)} ${l.impact.padEnd(6)} ` +
          `r${l.rediscoveries} e${l.echoes}${extra ? `  (${extra})` : ''}\n    ${clip(l.text, 100)}`
        );
      },
    });
  },
};
