/**
 * Ingest in a thread of its own, for the hosts (the Electron main process and `serve`).
 *
 * Why a thread. Catching up is CPU work in SQLite and in the rules, done in batches of thousands
 * of lines. On the host's event loop every batch is time the window waits: a click, a page of
 * learnings, the answer to a help request. In a `worker_threads` worker with a ledger connection
 * of its own, the host's reads go on beside it (the ledger is in WAL mode) and its writes wait
 * only for the one batch in flight. The watcher, ingest and the sweeps that follow finished runs
 * all live in the worker (`ingestWorker.ts`); what the host learns of them arrives as messages.
 *
 * A crash of the worker never takes the window down: the host reports it in the status (the
 * status bar shows it), then starts a new worker, which carries on from the committed offsets,
 * so nothing is read twice or lost (docs/factory-format.md#reading-events).
 *
 * The CLI ingests in its own process and does not need this.
 */
import { Worker } from 'node:worker_threads';
import type { SweepReport, WatcherStatus } from '../../shared/domain.js';
import type { Settings } from '../rules/settings.js';
import type { WatcherChange } from './watcher.js';
import { workerEntry } from './workerEntry.js';

/** What the host tells the worker. */
export type ToWorker =
  | { type: 'settings'; settings: Settings }
  | { type: 'idle'; id: number }
  | { type: 'read' }
  | { type: 'checkpoint' }
  | { type: 'stop' };

/** What the worker tells the host. */
export type FromWorker =
  | { type: 'status'; status: WatcherStatus }
  | { type: 'change'; change: WatcherChange }
  | { type: 'sweep'; report: SweepReport }
  | { type: 'sweep-failed'; message: string }
  | { type: 'idle'; id: number }
  | { type: 'stopped' };

/** What the worker is started with. */
export interface WorkerStart {
  factory: string;
  settings: Settings;
  /** Watch and ingest `events/`; when false the thread only sweeps (tests of the window). */
  watch: boolean;
  usePolling: boolean;
  nativeBinding: string | null;
  sweepMinGapMs: number | null;
}

export interface IngestThreadOptions extends Omit<WorkerStart, 'settings'> {
  settings: () => Settings;
  onStatus: (status: WatcherStatus) => void;
  onChange: (change: WatcherChange) => void;
  onSweep: (report: SweepReport) => void;
  onSweepFailed: (message: string) => void;
  /** What the host knows before the worker reports: the newest event in the ledger, the bytes to read. */
  initial: Pick<WatcherStatus, 'last_event_at' | 'done_bytes' | 'total_bytes' | 'error'>;
}

/** First wait before a crashed worker is started again, doubled after each crash in a row, to this most. */
const RESTART_FIRST_MS = 200;
const RESTART_MOST_MS = 30_000;

/** A worker that ran this long counts as having recovered: the next crash waits the first delay again. */
const HEALTHY_AFTER_MS = 60_000;

/** How long a stopping worker may take to finish its batch before it is ended. */
const STOP_GRACE_MS = 5_000;

export class IngestThread {
  private worker: Worker | null = null;
  private stopping = false;
  private restartDelay = RESTART_FIRST_MS;
  private restartTimer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  /** Whether the current worker has sent anything yet (it has loaded and opened the ledger). */
  private heard = false;
  private nextIdle = 1;
  private readonly idleWaiters = new Map<number, () => void>();
  private firstCatchUp: { resolve: () => void; promise: Promise<void> };
  private state: WatcherStatus;

  constructor(private readonly options: IngestThreadOptions) {
    this.state = { ...options.initial, state: 'starting', polling: options.usePolling };
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.firstCatchUp = { resolve, promise };
  }

  status(): WatcherStatus {
    return { ...this.state };
  }

  /** Starts the worker; resolves once its first catch-up is done (or it failed). */
  start(): Promise<void> {
    this.spawn();
    return this.firstCatchUp.promise;
  }

  /** Settings changed: the worker uses them from its next batch on. */
  settingsChanged(): void {
    this.post({ type: 'settings', settings: this.options.settings() });
  }

  /** Asks the worker to read the events files now (a file was set to be read again). */
  readNow(): void {
    this.post({ type: 'read' });
  }

  /**
   * Hands the worker a checkpoint to run on its own connection, between its batches; false when
   * no worker is running to take it (the host then runs it itself). See answerDecision.ts.
   */
  checkpoint(): boolean {
    if (!this.worker) return false;
    this.post({ type: 'checkpoint' });
    return true;
  }

  /** Resolves when the worker has nothing to read (for tests and shutdown). */
  async idle(): Promise<void> {
    await this.firstCatchUp.promise;
    if (!this.worker) return;
    const id = this.nextIdle++;
    await new Promise<void>((resolve) => {
      this.idleWaiters.set(id, resolve);
      this.post({ type: 'idle', id });
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      if (!this.heard) {
        // Still loading its code: it holds no transaction and has nothing to finish.
        void worker.terminate();
        return;
      }
      worker.postMessage({ type: 'stop' } satisfies ToWorker);
      // A batch in flight finishes first (it commits or is rolled back, never half-written);
      // a worker that does not answer in time is ended, which loses at most that batch.
      setTimeout(() => void worker.terminate(), STOP_GRACE_MS).unref();
    });
    this.releaseWaiters();
    this.firstCatchUp.resolve();
  }

  /** Ends the worker as a crash would (its thread dies mid-work); the host must recover. */
  async terminateWorker(): Promise<void> {
    await this.worker?.terminate();
  }

  private post(message: ToWorker): void {
    this.worker?.postMessage(message);
  }

  private setStatus(status: WatcherStatus): void {
    this.state = status;
    this.options.onStatus(this.status());
  }

  private spawn(): void {
    const entry = workerEntry<WorkerStart>('ingestWorker');
    const start: WorkerStart = {
      factory: this.options.factory,
      settings: this.options.settings(),
      watch: this.options.watch,
      usePolling: this.options.usePolling,
      nativeBinding: this.options.nativeBinding,
      sweepMinGapMs: this.options.sweepMinGapMs,
    };
    const worker = new Worker(entry.url, { workerData: entry.workerData(start) });
    this.worker = worker;
    this.heard = false;
    this.startedAt = Date.now();
    worker.on('message', (message: FromWorker) => this.receive(message));
    worker.on('error', (error) => this.crashed(worker, error.message));
    worker.on('exit', (code) => {
      if (!this.stopping) this.crashed(worker, `it exited with code ${code}`);
    });
  }

  private receive(message: FromWorker): void {
    this.heard = true;
    switch (message.type) {
      case 'status':
        this.setStatus(message.status);
        if (['watching', 'error', 'stopped'].includes(message.status.state)) this.firstCatchUp.resolve();
        break;
      case 'change':
        this.options.onChange(message.change);
        break;
      case 'sweep':
        this.options.onSweep(message.report);
        break;
      case 'sweep-failed':
        this.options.onSweepFailed(message.message);
        break;
      case 'idle':
        this.idleWaiters.get(message.id)?.();
        this.idleWaiters.delete(message.id);
        break;
      case 'stopped':
        break;
    }
  }

  private crashed(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
    this.releaseWaiters();
    this.firstCatchUp.resolve();
    if (this.stopping) return;
    if (Date.now() - this.startedAt > HEALTHY_AFTER_MS) this.restartDelay = RESTART_FIRST_MS;
    const delay = this.restartDelay;
    this.restartDelay = Math.min(RESTART_MOST_MS, this.restartDelay * 2);
    this.setStatus({
      ...this.state,
      state: 'error',
      error: `the ingest thread stopped (${why}); starting it again in ${Math.round(delay / 100) / 10} s`,
    });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.stopping) this.spawn();
    }, delay);
  }

  private releaseWaiters(): void {
    for (const resolve of this.idleWaiters.values()) resolve();
    this.idleWaiters.clear();
  }
}
