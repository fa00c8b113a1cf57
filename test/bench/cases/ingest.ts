/**
 * Case 1: ingesting N mixed events into an empty ledger, against the floor of storing them at all.
 *
 * Ingest runs as a factory grows (`growLedger`): a day file at a time, each day's runs given the
 * first of their agent's learnings as the Desk exported them after the day before, so every run
 * names learnings the ledger has and Worth a look counts them for every finished run, as in
 * real use. Each day is one `ingestSync` on one `openDb` connection, as the CLI runs it; the
 * figure is those calls summed with the one export of the learnings files after the last day,
 * the work of one catch-up of every file (the exports after the other days, which only the
 * growing needs, are timed apart and given in the note). Filling a day's given ids and writing
 * its file are not timed.
 *
 * The floor reads the same (filled) files, `JSON.parse`s each line and stores it with one
 * prepared plain INSERT into a one-table SQLite file (same journal settings as the ledger), one
 * transaction a day file: what no ingest can beat. It is timed day by day just before that day's
 * ingest, so load drifting during the run hits both; the ratio is everything the Desk adds on top
 * of reading and storing. The ledger it makes is kept for the cases that read a mixed ledger.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Stopwatch, countIn, formatCount, growLedger, mixedSpec, result, type BenchCase } from '../harness.js';

/** The ratio to the floor the issue asks for ("aim for 3×"). */
const MOST_TIMES_FLOOR = 10;

/** The floor's one-table SQLite file, filled a day file at a time; `watch` sums the days. */
class Floor {
  readonly watch = new Stopwatch();
  private readonly db: Database.Database;
  private readonly store: (file: string) => void;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec('CREATE TABLE events (type TEXT, at TEXT, line TEXT)');
    const insert = this.db.prepare('INSERT INTO events (type, at, line) VALUES (?, ?, ?)');
    this.store = this.db.transaction((file: string) => {
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        if (line === '') continue;
        const event = JSON.parse(line) as { type: string; at: string };
        insert.run(event.type, event.at, line);
      }
    });
  }

  day(file: string): void {
    this.watch.time(() => this.store(file));
  }

  close(): void {
    this.watch.time(() => this.db.close());
  }
}

export const ingestCase: BenchCase = {
  id: 'ingest',
  about: 'ingestSync of N mixed events (60% run events, their runs given real learnings; 30% proposals, 10% help; 50 agents; 30 days), a day at a time, into an empty ledger ÷ JSON.parse + one plain INSERT a line, a transaction a day',
  run({ sizes, work, log }) {
    const spec = mixedSpec(sizes.events);
    const template = work.factory(spec);
    const floor = new Floor(path.join(work.folder('floor'), 'floor.sqlite'));
    log(`ingesting ${formatCount(sizes.events)} events, a day at a time`);
    const ledger = growLedger(work, template, 'ingest', (file) => floor.day(file));
    floor.close();
    work.keepLedger(spec, ledger);
    const { factory, file, ingest, dailyExports } = ledger;
    const base = floor.watch;
    const perSecond = (ms: number): string => `${formatCount((factory.events / ms) * 1000)} lines/s`;
    const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
    return {
      results: [
        {
          result: result(`ingest: ${formatCount(factory.events)} mixed events into an empty ledger vs the floor`, ingest.ms, 'ms', base.ms, { on: 'ratio', most: MOST_TIMES_FLOOR }),
          note:
            `ingest ${perSecond(ingest.ms)}, floor ${perSecond(base.ms)}; CPU (all threads) ${seconds(ingest.cpuMs)} and ${seconds(base.cpuMs)}, ${(ingest.cpuMs / base.cpuMs).toFixed(2)}×; ` +
            `the ${factory.files.length - 1} exports of learnings files after the days before the last, not counted, ${formatCount(dailyExports.ms)} ms; ` +
            `${formatCount(countIn(file, 'learnings'))} learnings made, ${formatCount(countIn(file, 'links'))} links from runs to what they were given, ${ledger.refused} lines refused, ${(factory.bytes / 1024 ** 2).toFixed(0)} MB of events`,
        },
      ],
    };
  },
};
