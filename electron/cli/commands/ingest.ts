import { FACTORY_OPTION, JSON_OPTION, factoryTarget, flagOption, intOption, printJson, type Command } from '../command.js';
import { plural } from '../format.js';
import { withLedger } from '../ledgerAccess.js';
import { DEFAULT_MAX_LINES, ingest } from '../../node/ingest.js';

export const ingestCommand: Command = {
  name: ['ingest'],
  summary: 'Read the new lines of the factory events files into the ledger, once.',
  usage: 'ingest [--json] [--batch N] [--factory DIR]',
  help: [
    'Reads events/*.jsonl in name order, each from where the ledger last stopped, and applies',
    'every complete line exactly once: runs started and finished, learnings proposed, help',
    'requests. A line that is not a valid event is refused (file, line, reason) and reading',
    'goes on with the next one; a last line without its newline waits until it is complete.',
    'Afterwards learnings/<agent>.json is re-written for every agent whose learnings changed.',
    '',
    'Safe to run while the app runs, and safe to kill at any moment: the read position is',
    'committed together with the effects of the lines read.',
    '',
    'Options:',
    '  --json         print { applied, refused: [{file, line, reason}], exported, fatal_help,',
    '                 runs_finished, settings_error, ... }',
    `  --batch N      most lines per transaction (default ${DEFAULT_MAX_LINES})`,
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: { ...FACTORY_OPTION, ...JSON_OPTION, batch: { type: 'string' } },
  async run(args, io) {
    const maxLines = intOption(args, 'batch', DEFAULT_MAX_LINES);
    await withLedger(factoryTarget(args, io), io, async ({ root, db, settings, settingsError }) => {
      const result = await ingest(db, root, { settings, maxLines, signal: io.signal });
      if (flagOption(args, 'json')) {
        printJson(io, { ...result, settings_error: settingsError });
        return;
      }
      io.stdout(`applied ${plural(result.applied, 'event', 'events')}, refused ${plural(result.refused.length, 'line', 'lines')}\n`);
      for (const r of result.refused) io.stdout(`  refused ${r.file}:${r.line}: ${r.reason}\n`);
      if (result.exported.length > 0) io.stdout(`re-wrote learnings for: ${result.exported.join(', ')}\n`);
      if (result.fatal_help.length > 0) io.stdout(`new fatal help requests: ${result.fatal_help.join(', ')}\n`);
    });
  },
};
