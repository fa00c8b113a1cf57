/**
 * `layover-desk rebuild`: the ledger made again from nothing, from the event files and the
 * decisions journal (docs/factory-format.md#the-decisions-journal), for a ledger lost with no
 * safety copy to restore.
 *
 * It is only possible while every event file is still there: once a sweep has deleted one, what
 * it held lives only in the ledger and its copies, and a rebuild would quietly forget it, so it
 * is refused, saying why. The ledger that was there (damaged, or none) is moved aside, never
 * deleted.
 */
import { FACTORY_OPTION, JSON_OPTION, Refusal, factoryDir, flagOption, printJson, type Command } from '../command.js';
import { existingFactory } from '../ledgerAccess.js';
import { moveLedgerAside } from '../../node/backup.js';
import { firstSweptEventFile, isFactory } from '../../node/factory.js';
import { catchUpRestored } from '../../node/journal.js';
import { ledgerSettings } from '../../node/settingsFile.js';
import { ledgerPath, openDb } from '../../node/store/db.js';

export const rebuildCommand: Command = {
  name: ['rebuild'],
  summary: 'Make the ledger again from the event files and the decisions journal',
  usage: 'rebuild [--factory DIR] [--json]',
  options: { ...FACTORY_OPTION, ...JSON_OPTION },
  help: [
    'Makes a new ledger from nothing: every event file is read from its start, then every',
    'decision in .layover/decisions.jsonl is made again. The ledger that was there (and its',
    '-wal/-shm files) is renamed to ledger.sqlite.broken-<time> beside it, never deleted.',
    'Refused once a sweep has deleted an event file (.layover/swept.jsonl says which): what it',
    'held is only in the ledger and its safety copies; restore a copy instead. Close the app first.',
    '',
    'Options:',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
    '  --json         print {moved_aside, events, decisions}',
  ].join('\n'),
  run(args, io) {
    const root = existingFactory(factoryDir(args, io));
    if (!isFactory(root)) throw new Refusal(`${root} is not a factory (no events/, layover.toml or .layover/ in it): nothing to rebuild from`);
    const swept = firstSweptEventFile(root);
    if (swept !== null) {
      throw new Refusal(
        `not rebuilding: a sweep deleted ${swept.file} on ${swept.at}, so the event files no longer hold everything the ledger ` +
          'did; restore a safety copy instead (see `layover-desk backups`)',
      );
    }
    const moved = moveLedgerAside(root, new Date());
    const db = openDb(ledgerPath(root));
    let result;
    try {
      result = catchUpRestored(db, root, ledgerSettings(root, db).current());
    } finally {
      db.close();
    }
    if (flagOption(args, 'json')) {
      printJson(io, { moved_aside: moved, ...result });
      return;
    }
    io.stdout(`Rebuilt ${ledgerPath(root)} from ${result.events} event lines and ${result.decisions} journaled decisions\n`);
    for (const file of moved) io.stdout(`The previous file is kept as ${file}\n`);
  },
};
