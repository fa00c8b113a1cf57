import path from 'node:path';
import { FACTORY_OPTION, JSON_OPTION, Refusal, factoryTarget, flagOption, intOption, printJson, stringOption, type Command } from '../command.js';
import { refusedFiles, rereadFile } from '../../node/store/eventFiles.js';
import { listedUpTo } from '../format.js';
import { plural } from '../../../shared/words.js';
import { withLedger } from '../ledgerAccess.js';
import { DEFAULT_MAX_LINES, ingest } from '../../node/ingest.js';
import { firstListed } from '../../rules/listing.js';

export const ingestCommand: Command = {
  name: ['ingest'],
  summary: 'Read the new lines of the factory events files into the ledger, once.',
  usage: 'ingest [--json] [--batch N] [--reread FILE] [--factory DIR]',
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
    'A file the ledger has read is only ever appended to. One that was cut or rewritten since is',
    'refused as a whole, with a warning on every command, until it is read again from the start',
    'with --reread: lines the ledger already holds (runs and help requests by id, proposals by',
    'agent, time and text) are then recognised and not applied twice.',
    '',
    'Options:',
    '  --json         print { applied, refused: [{file, line, reason}], exported, fatal_help,',
    '                 runs_finished, settings_error, ... }',
    `  --batch N      most lines per transaction (default ${DEFAULT_MAX_LINES})`,
    '  --reread FILE  read events/FILE again from its first line (e.g. 2026-11-30.jsonl)',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: { ...FACTORY_OPTION, ...JSON_OPTION, batch: { type: 'string' }, reread: { type: 'string' } },
  async run(args, io) {
    const maxLines = intOption(args, 'batch', DEFAULT_MAX_LINES);
    await withLedger(factoryTarget(args, io), io, async ({ root, db, settings, settingsError }) => {
      const reread = stringOption(args, 'reread');
      if (reread !== undefined) {
        const name = path.basename(reread);
        if (!db.transaction(() => rereadFile(db, name)).immediate()) {
          throw new Refusal(`--reread ${JSON.stringify(reread)}: the ledger has not read an events file of that name (see events/)`);
        }
      }
      const warned = new Set(refusedFiles(db).map((f) => f.file));
      const result = await ingest(db, root, { settings, maxLines, signal: io.signal });
      for (const refused of result.refused_files) {
        if (!warned.has(refused.file)) io.stderr(`warning: ${refused.file} is refused: ${refused.reason}\n`);
      }
      if (flagOption(args, 'json')) {
        printJson(io, { ...result, settings_error: settingsError });
        return;
      }
      io.stdout(`applied ${plural(result.applied, 'event', 'events')}, refused ${plural(result.refused.length, 'line', 'lines')}\n`);
      const refused = firstListed(result.refused);
      for (const r of refused.listed) io.stdout(`  refused ${r.file}:${r.line}: ${r.reason}\n`);
      if (refused.more > 0) io.stdout(`  … and ${refused.more} more refused lines (--json lists them all)\n`);
      if (result.exported.length > 0) io.stdout(`re-wrote learnings for: ${listedUpTo(result.exported, '--json lists them all')}\n`);
      if (result.fatal_help.length > 0) {
        io.stdout(`new fatal help requests: ${listedUpTo(result.fatal_help, 'layover-desk help-requests lists them')}\n`);
      }
    });
  },
};
