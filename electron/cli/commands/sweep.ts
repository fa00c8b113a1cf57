/**
 * `layover-desk sweep`: one retention sweep now, with its report.
 */
import { sweptPhrase } from '../../../shared/sweep.js';
import { FACTORY_OPTION, JSON_OPTION, factoryTarget, flagOption, printJson, type CliIo, type Command, type ParsedArgs } from '../command.js';
import { plural } from '../../../shared/words.js';
import { withLedger } from '../ledgerAccess.js';
import { sweep } from '../../node/sweep.js';
import { retentionHorizon } from '../../rules/retention.js';

export const sweepCommand: Command = {
  name: ['sweep'],
  summary: 'Delete what has expired now, and print what went',
  usage: 'sweep [--factory DIR] [--json]',
  options: { ...FACTORY_OPTION, ...JSON_OPTION },
  help: [
    'Runs one retention sweep, as the Desk does at start, after runs finish and hourly:',
    '- help requests, runs, the proposal log and the refused event lines go a whole UTC day at',
    '  a time once older than [retention] days (default 90), and so do fully read',
    '  events/*.jsonl files;',
    '- a lapsed learning goes [learnings] keep_lapsed_days after it lapsed (default 14; 0 at',
    '  once); rejected, confirmed and provisional learnings are never deleted;',
    '- a chain older than that with no run and no request left goes, and so do sweep reports',
    '  older than [retention] days.',
    'The ledger part is one transaction. A layover.toml with errors is refused rather than',
    'swept with other settings than the file says. The report names only what was deleted',
    '("deleted 3 runs, 12 log entries"), or says "nothing to delete".',
    '',
    'Options:',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
    '  --json         print the report: {at, help_requests, runs, proposals, refused_lines,',
    '                 event_files, lapsed_learnings, chains}',
  ].join('\n'),
  run(args: ParsedArgs, io: CliIo) {
    return withLedger(factoryTarget(args, io), io, ({ db, root, settings }) => {
      const now = new Date();
      const report = sweep(db, root, settings, now);
      if (flagOption(args, 'json')) {
        printJson(io, report);
        return;
      }
      io.stdout(`Swept at ${report.at}: ${sweptPhrase(report)}.\n`);
      io.stdout(
        `Kept: records from ${retentionHorizon(now, settings)} on (UTC days); lapsed learnings for ` +
          `${plural(settings.learnings.keep_lapsed_days, 'day', 'days')} after they lapsed.\n`,
      );
    }, { strictSettings: 'not sweeping' });
  },
};
