/**
 * The factory's `layover.toml`, read from disk and kept current.
 *
 * The operator edits this file by hand while the Desk runs, so it is sometimes wrong for a while:
 * half-saved, mistyped, a zero where a zero means "never". A wrong file must neither stop the Desk
 * nor take effect. So a bad file is refused as a whole, the Desk goes on with the last settings
 * that were good (the defaults, if none ever were), and the error stays on show until the file is
 * fixed. A missing file is not an error: it means the defaults.
 *
 * "Last good" must hold across processes too: the app restarted, or a CLI command run, while the
 * file is bad must not fall back to the defaults. So a source can be seeded with the settings
 * last in force (`lastGood`) and tells `onGood` whenever settings come into force; the ledger
 * keeps them (`ledgerSettings`, below, wires both to `store/meta.ts`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, parseSettingsToml, type Settings } from '../rules/settings.js';
import type { Db } from './store/db.js';
import { readLastGoodSettings, saveLastGoodSettings } from './store/meta.js';

export const SETTINGS_FILE = 'layover.toml';

/**
 * How often a watched file is read again.
 *
 * Polling the content rather than waiting for file-system events: it sees the file appear after
 * the Desk started, it survives editors that save by replacing the file, it cannot miss a change
 * made between loading and watching, and a settings file is small enough to read twice a second.
 * Half a second is quicker than a person can switch back from the editor.
 */
const POLL_MS = 500;

/** What reading the file found: its text, nothing (no file), or why it could not be read. */
type Reading = { text: string } | { absent: true } | { unreadable: string };

function sameReading(a: Reading, b: Reading): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface SettingsSourceOptions {
  /** The settings last in force (kept by an earlier process): in force while the file is bad. Default: the defaults. */
  lastGood?: Settings | null;
  /** Why the last good settings could not be read, if they could not: reported by `error()`. */
  lastGoodProblem?: string | null;
  /**
   * Told the settings each time a good file (or no file: the defaults) is read, to keep them as
   * the last good ones. The settings stay in force when it throws; `error()` says they were not
   * kept, because the next process would then start from older ones.
   */
  onGood?: (settings: Settings) => void;
}

/**
 * The last good settings as `read` gives them, and why they could not be read when it throws:
 * an unreadable record is reported, never taken silently for "none" (the defaults).
 */
export function lastGoodFrom(read: () => Settings | null): Pick<SettingsSourceOptions, 'lastGood' | 'lastGoodProblem'> {
  try {
    return { lastGood: read(), lastGoodProblem: null };
  } catch (error) {
    return {
      lastGood: null,
      lastGoodProblem:
        `the last good settings kept in the ledger cannot be read (${(error as Error).message}); ` +
        'while layover.toml is refused the defaults are in force instead',
    };
  }
}

export class SettingsSource {
  readonly path: string;
  private settings: Settings;
  private problem: string | null = null;
  /** Why the last good settings could not be read or kept; cleared once they are kept again. */
  private keepProblem: string | null;
  private warned: string[] = [];
  private lastReading: Reading = { absent: true };
  private readonly onGood: ((settings: Settings) => void) | undefined;

  constructor(factoryDir: string, options: SettingsSourceOptions = {}) {
    this.path = join(factoryDir, SETTINGS_FILE);
    this.settings = options.lastGood ?? DEFAULT_SETTINGS;
    this.keepProblem = options.lastGoodProblem ?? null;
    this.onGood = options.onGood;
    this.reload();
  }

  /** The settings in force: the file's when it is good, else the last good ones. */
  current(): Settings {
    return this.settings;
  }

  /**
   * Why the file on disk is not in force, until it is fixed, and why the last good settings
   * could not be read or kept; null when nothing is wrong.
   */
  error(): string | null {
    const problems = [this.problem, this.keepProblem].filter((p): p is string => p !== null);
    return problems.length > 0 ? problems.join('; ') : null;
  }

  /** Unknown keys and sections in the file on disk, in force or refused. */
  warnings(): string[] {
    return [...this.warned];
  }

  /** Reads the file again. Never throws: whatever goes wrong becomes `error()`. */
  reload(): void {
    this.apply(this.read());
  }

  /**
   * Re-reads the file whenever it changes, is created or is deleted, then calls `onChange`.
   * Returns the function that stops watching.
   */
  watch(onChange: () => void): () => void {
    const timer = setInterval(() => {
      const reading = this.read();
      if (sameReading(reading, this.lastReading)) return;
      this.apply(reading);
      onChange();
    }, POLL_MS);
    // Watching settings is never a reason on its own to keep the process alive.
    timer.unref();
    return () => clearInterval(timer);
  }

  private read(): Reading {
    try {
      return { text: readFileSync(this.path, 'utf8') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { absent: true };
      return { unreadable: (error as Error).message };
    }
  }

  private apply(reading: Reading): void {
    this.lastReading = reading;
    if ('absent' in reading) {
      this.warned = [];
      this.good(DEFAULT_SETTINGS);
      return;
    }
    if ('unreadable' in reading) {
      this.problem = `${this.path} cannot be read (${reading.unreadable}); the last good settings stay in force`;
      return;
    }
    const result = parseSettingsToml(reading.text);
    this.warned = result.warnings;
    if ('errors' in result) {
      this.problem = `${this.path} is refused, the last good settings stay in force: ${result.errors.join('; ')}`;
    } else {
      this.good(result.settings);
    }
  }

  private good(settings: Settings): void {
    this.settings = settings;
    this.problem = null;
    if (!this.onGood) return;
    try {
      this.onGood(settings);
      this.keepProblem = null;
    } catch (error) {
      // This process has them in force either way; the next one would start from older ones.
      this.keepProblem =
        `the settings in force could not be kept as the last good ones (${(error as Error).message}); ` +
        'the next start may use older settings';
    }
  }
}

/**
 * The factory's settings for a process that has its ledger open: seeded with the last good
 * settings the ledger keeps, and keeping each good reading there for the next process — unless
 * `keep` is false: a ledger not yet checked (the Desk at start) is only read, never written.
 */
export function ledgerSettings(factoryDir: string, db: Db, keep = true): SettingsSource {
  const last = lastGoodFrom(() => readLastGoodSettings(db));
  return new SettingsSource(factoryDir, keep ? { ...last, onGood: (settings) => saveLastGoodSettings(db, settings) } : last);
}
