import { FACTORY_OPTION, JSON_OPTION, factoryTarget, flagOption, printList, stringOption, type Command } from '../command.js';
import { clip } from '../format.js';
import { LISTING, withLedger } from '../ledgerAccess.js';
import { listHelp } from '../../node/store/help.js';

export const helpRequestsCommand: Command = {
  name: ['help-requests'],
  summary: 'List help requests, those waiting for a person first',
  usage: 'help-requests [--open] [--agent A] [--json] [--factory DIR]',
  help: [
    'Lists the help requests in the ledger: open fatal requests that hold their chain',
    '(awaiting_human) first, then other open ones, then answered and resolved, newest first.',
    '',
    'Options:',
    '  --open         only open requests',
    '  --agent A      only requests of agent A',
    '  --json         print a JSON array; fields: id, agent, run, chain, fatal, category,',
    '                 question, at, state, workflow, flags (null when unknown), routes,',
    '                 awaiting_human, answer, responder, answered_at, continued_as',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
    '',
    'The ledger is as current as the last ingest (run `layover-desk ingest` first, or keep the app open).',
  ].join('\n'),
  options: {
    ...FACTORY_OPTION,
    ...JSON_OPTION,
    open: { type: 'boolean' },
    agent: { type: 'string' },
  },
  async run(args, io) {
    const agent = stringOption(args, 'agent');
    const { rows } = await withLedger(factoryTarget(args, io), io, ({ db }) =>
      listHelp(db, { open: flagOption(args, 'open'), agent, offset: 0, limit: Number.MAX_SAFE_INTEGER }),
      LISTING,
    );
    printList(io, args, rows, {
      empty: 'no help requests',
      line: (r) => {
        const mark = r.awaiting_human ? 'AWAITING' : r.fatal ? 'fatal' : '';
        const flags = r.flags === null ? 'flags unknown' : `${r.workflow} ${JSON.stringify(r.flags)}`;
        return (
          `${r.id}  ${r.state.padEnd(8)} ${mark.padEnd(8)} ${r.agent}  ${r.category ?? '-'}  ${r.at}  ${flags}\n` +
          `    ${clip(r.question)}` +
          (r.state === 'open'
            ? ''
            : `\n    ${r.state} by ${r.responder ?? '?'} at ${r.answered_at ?? '?'}${r.continued_as ? ` -> ${r.continued_as}` : ''}`)
        );
      },
    });
  },
};
