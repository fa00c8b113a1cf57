/**
 * `layover-desk backup`, `backups` and `restore`: the ledger's safety copies by hand. `backups`
 * and `restore` work also when the ledger cannot be opened: they never open it.
 */
import fs from 'node:fs';
import {
  FACTORY_OPTION,
  JSON_OPTION,
  Refusal,
  factoryDir,
  flagOption,
  printJson,
  type CliIo,
  type Command,
  type ParsedArgs,
} from '../command.js';
import { existingFactory, withLedger } from '../ledgerAccess.js';
import { backupLedger, backupsDir, listBackups, restoreBackup, RestoreRefused } from '../../node/backup.js';
import { catchUpRestored } from '../../node/journal.js';
import { ledgerPath } from '../../node/store/db.js';

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export const backupCommand: Command = {
  name: ['backup'],
  summary: 'Write a safety copy of the ledger now',
  usage: 'backup [--factory DIR] [--json]',
  options: { ...FACTORY_OPTION, ...JSON_OPTION },
  help: [
    'Writes a consistent copy of the ledger (.layover/ledger.sqlite) into .layover/backups/,',
    'named for the current UTC time, and keeps the newest 7 copies. The running Desk makes one',
    'a day by itself; this makes one now, e.g. before moving the factory.',
    '',
    'Options:',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
    '  --json         print the copy made as JSON: {name, file, at, size}',
  ].join('\n'),
  async run(args: ParsedArgs, io: CliIo) {
    const factory = existingFactory(factoryDir(args, io));
    if (!fs.existsSync(ledgerPath(factory))) {
      throw new Refusal(`there is no ledger at ${ledgerPath(factory)} yet: nothing to copy`);
    }
    return withLedger({ dir: factory, create: false }, io, async ({ db, root }) => {
      const info = await backupLedger(db, root, new Date());
      if (flagOption(args, 'json')) printJson(io, info);
      else io.stdout(`Safety copy written: ${info.file} (${formatSize(info.size)})\n`);
    });
  },
};

export const backupsCommand: Command = {
  name: ['backups'],
  summary: "List the ledger's safety copies, newest first",
  usage: 'backups [--factory DIR] [--json]',
  options: { ...FACTORY_OPTION, ...JSON_OPTION },
  help: [
    'Lists the safety copies in .layover/backups/, newest first. The name is what',
    '`layover-desk restore` takes. Works also when the ledger itself cannot be opened.',
    '',
    'Options:',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
    '  --json         print {rows: [{name, file, at, size}]}',
  ].join('\n'),
  run(args: ParsedArgs, io: CliIo) {
    const factory = existingFactory(factoryDir(args, io));
    const rows = listBackups(factory);
    if (flagOption(args, 'json')) {
      printJson(io, { rows });
      return;
    }
    if (rows.length === 0) {
      io.stdout(`No safety copies in ${backupsDir(factory)}\n`);
      return;
    }
    for (const row of rows) io.stdout(`${row.name}  ${row.at}  ${formatSize(row.size)}\n`);
  },
};

export const restoreCommand: Command = {
  name: ['restore'],
  summary: 'Bring back a safety copy of the ledger (the present one is moved aside)',
  usage: 'restore [--factory DIR] [--json] BACKUP',
  options: { ...FACTORY_OPTION, ...JSON_OPTION },
  help: [
    'Replaces the ledger with the safety copy BACKUP (a name from `layover-desk backups`).',
    'The copy is checked first; then the present ledger and its -wal/-shm files are renamed',
    'to ledger.sqlite.broken-<time> beside it (kept, never deleted) and the copy takes its',
    'place. Close the Desk app first: it must not have the ledger open. Then the event lines',
    'written since the copy was made are read, and the decisions journaled since',
    '(.layover/decisions.jsonl) are made again, so nothing a person decided is lost.',
    '',
    'Options:',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
    '  --json         print {restored, moved_aside, replayed: {events, decisions}}',
  ].join('\n'),
  async run(args: ParsedArgs, io: CliIo) {
    const factory = existingFactory(factoryDir(args, io));
    const [name, ...extra] = args.positionals;
    if (name === undefined || name.trim() === '') throw new Refusal('name the safety copy to restore (see `layover-desk backups`)');
    if (extra.length > 0) throw new Refusal(`one safety copy at a time; unexpected: ${extra.join(' ')}`);
    let result;
    try {
      result = restoreBackup(factory, name, new Date());
    } catch (error) {
      if (error instanceof RestoreRefused) throw new Refusal(error.message);
      throw error;
    }
    const caughtUp = await withLedger({ dir: factory, create: false }, io, ({ db, root, settings }) => catchUpRestored(db, root, settings));
    if (flagOption(args, 'json')) {
      printJson(io, { ...result, replayed: caughtUp });
      return;
    }
    io.stdout(`Restored ${result.restored} as ${ledgerPath(factory)}\n`);
    for (const file of result.moved_aside) io.stdout(`The previous file is kept as ${file}\n`);
    io.stdout(`Replayed since the copy: ${caughtUp.events} event lines, ${caughtUp.decisions} journaled decisions\n`);
  },
};
