/**
 * Keeps the ledger current while the app (or `serve`) runs: watches `events/` and catches up
 * whenever a file there grows or appears.
 *
 * chokidar's change events are throttled, so in a burst of appends the last lines may get no
 * event of their own. Each ingest therefore reads to the end of every file, and one trailing
 * re-read is scheduled ~100 ms after the last event, which picks up whatever the throttle
 * swallowed. Ingests never overlap: an event during an ingest asks for one more afterwards.
 */
import fs from 'node:fs';
import chokidar, { type FSWatcher } from 'chokidar';
import type { WatcherStatus } from '../../shared/domain.js';
import type { Settings } from '../rules/settings.js';
import type { Db } from './store/db.js';
import { factoryPaths } from './factory.js';
import { lastEventAt } from './store/activity.js';
import { ingest, listEventFiles, type IngestResult } from './ingest.js';
import { ScreenAhead } from './screenAhead.js';

export interface WatcherChange {
  applied: number;
  refused: number;
  /** Agents whose learnings file was re-written. */
  agents: string[];
  /** Open fatal help requests that arrived. */
  fatal_help: string[];
  /** `run.finished` events applied: what a sweep follows (docs/rules.md#retention-sweeps). */
  runs_finished: number;
}

export interface WatcherOptions {
  db: Db;
  factory: string;
  settings: () => Settings;
  onStatus?: (status: WatcherStatus) => void;
  onChange?: (change: WatcherChange) => void;
  /** Poll instead of file-system events (network drives). */
  usePolling?: boolean;
  /** Delay of the trailing re-read after the last event. */
  trailingMs?: number;
  maxLines?: number;
}

export const TRAILING_MS = 100;

export class EventsWatcher {
  private watcher: FSWatcher | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private trailing: NodeJS.Timeout | null = null;
  private stopped = true;
  private abort = new AbortController();
  /** One screen helper for every ingest while the watcher runs (ingest.ts, `screenAhead`). */
  private readonly screenAhead = new ScreenAhead();
  /** Why watching events/ failed, kept until the next start: catch-ups that work do not fix it. */
  private watchError: string | null = null;
  private state: WatcherStatus;

  constructor(private readonly options: WatcherOptions) {
    this.state = { state: 'stopped', done_bytes: 0, total_bytes: 0, last_event_at: null, error: null, polling: options.usePolling ?? false };
  }

  status(): WatcherStatus {
    return { ...this.state };
  }

  private setStatus(patch: Partial<WatcherStatus>): void {
    this.state = { ...this.state, ...patch };
    this.options.onStatus?.(this.status());
  }

  /** Starts watching and catches up with what is already there. Resolves once the first catch-up is done. */
  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    this.abort = new AbortController();
    const total = listEventFiles(this.options.factory).reduce((sum, f) => sum + f.size, 0);
    this.setStatus({ state: 'starting', error: null, done_bytes: 0, total_bytes: total, last_event_at: lastEventAt(this.options.db) });
    const dir = factoryPaths(this.options.factory).events;
    fs.mkdirSync(dir, { recursive: true });
    this.watcher = chokidar.watch(dir, {
      ignoreInitial: true,
      depth: 0,
      usePolling: this.options.usePolling ?? false,
      interval: 250,
      persistent: true,
    });
    const poke = () => this.poke();
    this.watchError = null;
    this.watcher.on('add', poke).on('change', poke).on('error', (error) => {
      this.watchError = `watching ${dir} failed: ${(error as Error).message}`;
      this.setStatus({ state: 'error', error: this.watchError });
    });
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));
    this.request();
    await this.idle();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = null;
    const watcher = this.watcher;
    this.watcher = null;
    await watcher?.close();
    await this.running?.catch(() => undefined);
    this.screenAhead.close();
    this.setStatus({ state: 'stopped' });
  }

  /** Resolves when no ingest is running or asked for. */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /** A file changed: read now, and once more shortly after the last event. */
  poke(): void {
    if (this.stopped) return;
    this.request();
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = setTimeout(() => {
      this.trailing = null;
      this.request();
    }, this.options.trailingMs ?? TRAILING_MS);
  }

  /** Asks for a catch-up; serialised with any that is running. */
  request(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      if (this.stopped) return;
      let result: IngestResult;
      try {
        this.setStatus({ state: 'catching_up' });
        result = await ingest(this.options.db, this.options.factory, {
          settings: this.options.settings,
          signal: this.abort.signal,
          screenAhead: this.screenAhead,
          ...(this.options.maxLines !== undefined ? { maxLines: this.options.maxLines } : {}),
          onProgress: (p) =>
            this.setStatus({
              done_bytes: p.done_bytes,
              total_bytes: p.total_bytes,
              last_event_at: p.last_event_at ?? this.state.last_event_at,
            }),
        });
      } catch (error) {
        this.setStatus({ state: 'error', error: `reading the events failed: ${(error as Error).message}` });
        continue;
      }
      if (this.stopped) return;
      // A catch-up that worked does not mean watching works again: new lines might never be
      // noticed, so a watch error stays in the status until the watcher is started again.
      this.setStatus({
        state: this.watchError === null ? 'watching' : 'error',
        // A file refused as a whole stays in the status bar until it is read again.
        error:
          this.watchError ??
          (result.refused_files.length > 0 ? result.refused_files.map((f) => `${f.file} is refused: ${f.reason}`).join('; ') : null),
        done_bytes: result.done_bytes,
        total_bytes: result.total_bytes,
        last_event_at: result.last_event_at ?? this.state.last_event_at,
      });
      if (result.applied > 0 || result.refused.length > 0 || result.exported.length > 0) {
        try {
          this.options.onChange?.({
            applied: result.applied,
            refused: result.refused.length,
            agents: result.exported,
            fatal_help: result.fatal_help,
            runs_finished: result.runs_finished,
          });
        } catch (error) {
          // The events are in the ledger; what shows them did not hear of it, and must say so.
          this.setStatus({ state: 'error', error: `the events were read, but telling the window failed: ${(error as Error).message}` });
        }
      }
    } while (this.again && !this.stopped);
  }
}
