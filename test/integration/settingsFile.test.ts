import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ledgerSettings, SettingsSource } from '../../electron/node/settingsFile.js';
import { readLastGoodSettings } from '../../electron/node/store/meta.js';
import { DEFAULT_SETTINGS, type Settings } from '../../electron/rules/settings.js';
import { eventually as eventuallyWithin, writeSettings } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';
import { withTestLedger } from '../support/ledger.js';

let factory: string;
const stops: Array<() => void> = [];

// Registered first, so its cleanup runs last: after the watchers below are stopped.
freshFactoryEachTest('layover-settings-', (dir) => (factory = dir));
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

const write = (text: string) => writeSettings(factory, text);
/** Polling the file takes up to two polls; a loaded machine is given plenty more. */
const eventually = (condition: () => boolean, what: string) => eventuallyWithin(condition, what, 10_000);

describe('the settings file', () => {
  it('a factory without layover.toml runs on the defaults with no error', () => {
    const source = new SettingsSource(factory);
    expect(source.current()).toEqual(DEFAULT_SETTINGS);
    expect(source.error()).toBeNull();
    expect(source.warnings()).toEqual([]);
  });

  it('a good file is in force and its unknown keys are warned about', () => {
    write('[learnings]\nmax_text = 300\ncolour = "red"\n');
    const source = new SettingsSource(factory);
    expect(source.current().learnings.max_text).toBe(300);
    expect(source.error()).toBeNull();
    expect(source.warnings()).toEqual(['unknown key learnings.colour is ignored']);
  });

  it('a bad file at start leaves the defaults in force and reports the key', () => {
    write('[learnings]\nprovisional_runs = 0\n');
    const source = new SettingsSource(factory);
    expect(source.current()).toEqual(DEFAULT_SETTINGS);
    expect(source.error()).toContain('learnings.provisional_runs = 0');
  });

  it('a file that turns bad keeps the last good settings and reports the key until it is fixed', () => {
    write('[learnings]\nmax_text = 300\n');
    const source = new SettingsSource(factory);

    write('[learnings]\nmax_text = 300\nmax_per_run = -1\n');
    source.reload();
    expect(source.current().learnings.max_text).toBe(300);
    expect(source.error()).toContain('learnings.max_per_run = -1');

    write('[learnings]\nmax_text = 250\n');
    source.reload();
    expect(source.current().learnings.max_text).toBe(250);
    expect(source.error()).toBeNull();
  });

  it('a syntax error keeps the last good settings and names the line', () => {
    write('[retention]\ndays = 30\n');
    const source = new SettingsSource(factory);
    write('[retention]\ndays = 30\n[learnings\n');
    source.reload();
    expect(source.current().retention.days).toBe(30);
    expect(source.error()).toContain('line 3');
  });

  it('deleting the file returns to the defaults and clears the error', () => {
    write('[learnings]\nmax_text = 0\n');
    const source = new SettingsSource(factory);
    unlinkSync(join(factory, 'layover.toml'));
    source.reload();
    expect(source.current()).toEqual(DEFAULT_SETTINGS);
    expect(source.error()).toBeNull();
  });

  it('a watched file is re-read when it changes, and onChange is called', async () => {
    write('[learnings]\nmax_text = 300\n');
    const source = new SettingsSource(factory);
    let changes = 0;
    stops.push(source.watch(() => changes++));

    write('[learnings]\nmax_text = 200\n');
    await eventually(() => source.current().learnings.max_text === 200, 'the new max_text is in force');
    expect(changes).toBeGreaterThan(0);

    write('[learnings]\nmax_text = "lots"\n');
    await eventually(() => source.error() !== null, 'the bad file is reported');
    expect(source.error()).toContain('learnings.max_text');
    expect(source.current().learnings.max_text).toBe(200);

    write('[learnings]\nmax_text = 150\n');
    await eventually(() => source.error() === null, 'the fixed file clears the error');
    expect(source.current().learnings.max_text).toBe(150);
  });

  it('a file created after watching started is picked up', async () => {
    const source = new SettingsSource(factory);
    stops.push(source.watch(() => {}));
    write('[retention]\ndays = 7\n');
    await eventually(() => source.current().retention.days === 7, 'the created file is in force');
  });

  it('a change made between loading and watching is not missed', async () => {
    write('[retention]\ndays = 7\n');
    const source = new SettingsSource(factory);
    write('[retention]\ndays = 8\n');
    stops.push(source.watch(() => {}));
    await eventually(() => source.current().retention.days === 8, 'the change is in force');
  });

  it('after the watch is stopped, changes are no longer read', async () => {
    write('[retention]\ndays = 7\n');
    const source = new SettingsSource(factory);
    let changes = 0;
    const stop = source.watch(() => changes++);
    write('[retention]\ndays = 8\n');
    await eventually(() => changes > 0, 'the first change is seen');
    stop();

    const seen = changes;
    write('[retention]\ndays = 9\n');
    // A watcher still running would see this within two polls; wait longer than that.
    const until = Date.now() + 1_500;
    await eventually(() => Date.now() > until, 'the poll window has passed');
    expect(changes).toBe(seen);
    expect(source.current().retention.days).toBe(8);
  });

  it('a bad file at start leaves the last good settings it was seeded with in force, not the defaults', () => {
    const lastGood: Settings = { learnings: { ...DEFAULT_SETTINGS.learnings, provisional_runs: 5 }, retention: { days: 30 } };
    write('[learnings]\nprovisional_runs = 0\n');
    const source = new SettingsSource(factory, { lastGood });
    expect(source.current()).toEqual(lastGood);
    expect(source.error()).toContain('learnings.provisional_runs = 0');
  });

  it('onGood is told every settings that come into force, and never a refused file', () => {
    const told: Settings[] = [];
    write('[learnings]\nmax_text = 300\n');
    const source = new SettingsSource(factory, { onGood: (s) => told.push(s) });
    write('[learnings]\nmax_text = 0\n');
    source.reload();
    unlinkSync(join(factory, 'layover.toml'));
    source.reload();
    expect(told.map((s) => s.learnings.max_text)).toEqual([300, DEFAULT_SETTINGS.learnings.max_text]);
  });

  it('a failing onGood does not stop the good settings taking effect, and the error says they were not kept', () => {
    write('[learnings]\nmax_text = 300\n');
    const source = new SettingsSource(factory, {
      onGood: () => {
        throw new Error('the ledger is locked');
      },
    });
    expect(source.current().learnings.max_text).toBe(300);
    expect(source.error()).toBe(
      'the settings in force could not be kept as the last good ones (the ledger is locked); the next start may use older settings',
    );
  });

  it('a last good settings record that cannot be read is reported, and the defaults it leaves in force are named', () => {
    write('[learnings]\nprovisional_runs = 5\n');
    withTestLedger(factory, (db) => ledgerSettings(factory, db));
    write('[learnings]\nprovisional_runs = 0\n');
    withTestLedger(factory, (db) => {
      db.prepare(`UPDATE meta SET value = '{"learnings":' WHERE key = 'settings.last_good'`).run();
      expect(() => readLastGoodSettings(db)).toThrow(/the record is not JSON/);
      const source = ledgerSettings(factory, db);
      expect(source.current()).toEqual(DEFAULT_SETTINGS);
      expect(source.error()).toMatch(/provisional_runs/);
      expect(source.error()).toMatch(
        /the last good settings kept in the ledger cannot be read \(the record is not JSON .*\); while layover\.toml is refused the defaults are in force instead$/,
      );
    });
  });

  it('the report of an unreadable last good record clears once good settings are kept again', () => {
    withTestLedger(factory, (db) => {
      db.prepare(`INSERT INTO meta (key, value) VALUES ('settings.last_good', '[]') ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run();
      expect(() => readLastGoodSettings(db)).toThrow(/no longer passes the checks/);
      write('[learnings]\nprovisional_runs = 5\n');
      const source = ledgerSettings(factory, db);
      expect(source.error()).toBeNull();
      expect(readLastGoodSettings(db)?.learnings.provisional_runs).toBe(5);
    });
  });

  it('failing to save the last good settings in the ledger is reported, not swallowed', () => {
    write('[learnings]\nprovisional_runs = 5\n');
    withTestLedger(factory, (db) => {
      db.exec(`CREATE TRIGGER meta_fails BEFORE INSERT ON meta BEGIN SELECT RAISE(ABORT, 'disk full'); END;`);
      const source = ledgerSettings(factory, db);
      expect(source.current().learnings.provisional_runs).toBe(5);
      expect(source.error()).toBe('the settings in force could not be kept as the last good ones (disk full); the next start may use older settings');
    });
  });

  it('the ledger keeps the last good settings for the next process', () => {
    write('[learnings]\nprovisional_runs = 5\n');
    withTestLedger(factory, (db) => {
      expect(ledgerSettings(factory, db).current().learnings.provisional_runs).toBe(5);
      expect(readLastGoodSettings(db)?.learnings.provisional_runs).toBe(5);
    });
    write('[learnings]\nprovisional_runs = 0\n');
    withTestLedger(factory, (db) => {
      const source = ledgerSettings(factory, db);
      expect(source.current().learnings.provisional_runs).toBe(5);
      expect(source.error()).toContain('provisional_runs');
      expect(readLastGoodSettings(db)?.learnings.provisional_runs).toBe(5);
    });
  });
});
