/**
 * The running Desk: one factory opened, its ledger kept current, its sweeps and safety copies on
 * schedule, and every API channel answered.
 *
 * Both hosts (the Electron shell and the browser host) hold a `Desk` and only route to it, so
 * what the window can do is decided here, once. A factory that cannot be used (folder missing,
 * ledger corrupt, locked or newer) still opens: `desk.info` says what is wrong and where, the
 * channels that need the ledger answer `unavailable` with that message, and the window stays up
 * so the operator can choose another factory or restore a safety copy. Nothing crashes, nothing
 * is overwritten without the operator's say.
 */
import path from 'node:path';
import {
  ApiError,
  type CallArgs,
  type CallOutput,
  type DeskInfo,
  type Handlers,
  type LedgerProblem,
  type PushName,
  type PushPayload,
} from '../../shared/api.js';
import type { SweepReport, WatcherStatus } from '../../shared/domain.js';
import { BackupScheduler, backupLedger, ledgerProblem, newestBackup, restoreBackup, RestoreRefused } from './backup.js';
import { exportPending } from './exporter.js';
import { flushOutbox } from './outbox.js';
import { osAccountName } from './osUser.js';
import { ledgerSettings, SettingsSource } from './settingsFile.js';
import { listProposals, listRefused, dailyStats, refusalsByRule } from './store/activity.js';
import { LedgerOpenError, ledgerPath, openDb, type Db } from './store/db.js';
import { getHelp, helpDetail, listChains, listHelp, reply, resolve } from './store/help.js';
import { learningDetail, queryLearnings } from './store/learningQueries.js';
import { decideLearnings, undoDecisions } from './store/learnings.js';
import { listRuns, runDetail } from './store/runs.js';
import { lastSweep, listSweeps, sweep, SweepScheduler } from './sweep.js';
import { EventsWatcher, type WatcherChange } from './watcher.js';
import type { DeskOpenOptions, DeskPort, PushListener } from './host/deskPort.js';
import { appVersion } from './paths.js';
import { isDirectory } from './factory.js';

export interface DeskOptions extends DeskOpenOptions {
  /** Watch `events/` (default true). */
  watch?: boolean;
  /** Poll instead of file-system events (network drives). */
  usePolling?: boolean;
  /** The operating-system account name, the responder when none is typed. */
  osUser?: string;
  /** Least time between two sweeps that follow finished runs (default a minute; tests set 0). */
  sweepMinGapMs?: number;
}

const STOPPED: WatcherStatus = { state: 'stopped', done_bytes: 0, total_bytes: 0, last_event_at: null, error: null };

/** Everything that belongs to one open factory; replaced whole when the operator opens another. */
class FactorySession {
  settings: SettingsSource;
  db: Db | null = null;
  factoryError: string | null = null;
  problem: LedgerProblem | null = null;
  watcher: EventsWatcher | null = null;
  sweeps: SweepScheduler | null = null;
  backups: BackupScheduler | null = null;
  lastSweep: SweepReport | null = null;
  /** The watcher's first catch-up, which runs while the window already answers. */
  started: Promise<void> = Promise.resolve();
  private stopSettings: (() => void) | null = null;

  constructor(
    readonly factory: string,
    private readonly options: DeskOptions,
    private readonly emit: <P extends PushName>(name: P, payload: PushPayload<P>) => void,
    private readonly info: () => DeskInfo,
  ) {
    this.settings = new SettingsSource(factory);
  }

  async start(): Promise<void> {
    if (!isDirectory(this.factory)) {
      this.factoryError = `the factory folder ${this.factory} does not exist`;
      return;
    }
    try {
      this.db = openDb(ledgerPath(this.factory), this.options.nativeBinding ? { nativeBinding: this.options.nativeBinding } : {});
    } catch (error) {
      if (!(error instanceof LedgerOpenError)) throw error;
      this.problem = ledgerProblem(this.factory, error);
    }
    // With the ledger open, a bad layover.toml leaves the last good settings of any earlier
    // process in force, not the defaults (SPEC 7), and each good reading is kept for the next.
    if (this.db) this.settings = ledgerSettings(this.factory, this.db);
    this.stopSettings = this.settings.watch(() => this.emit('desk.changed', this.info()));
    if (!this.db) return;
    const db = this.db;
    flushOutbox(db, this.factory);
    this.lastSweep = lastSweep(db);
    this.sweeps = new SweepScheduler({
      sweep: () => sweep(db, this.factory, this.settings.current()),
      onSweep: (report) => {
        this.lastSweep = report;
        this.emit('ledger.changed', { reason: 'sweep' });
        this.emit('desk.changed', this.info());
      },
      onError: (error) => this.emit('watcher.status', { ...this.watcherStatus(), error: `sweep failed: ${message(error)}` }),
      ...(this.options.sweepMinGapMs !== undefined ? { minGapMs: this.options.sweepMinGapMs } : {}),
    });
    this.backups = new BackupScheduler({
      backup: () => backupLedger(db, this.factory),
      newestAt: () => {
        const newest = newestBackup(this.factory);
        return newest ? Date.parse(newest.at) : null;
      },
      onError: (error) => this.emit('watcher.status', { ...this.watcherStatus(), error: `safety copy failed: ${message(error)}` }),
    });
    this.sweeps.start();
    this.backups.start();
    if (this.options.watch === false) return;
    this.watcher = new EventsWatcher({
      db,
      factory: this.factory,
      settings: () => this.settings.current(),
      ...(this.options.usePolling ? { usePolling: true } : {}),
      onStatus: (status) => this.emit('watcher.status', status),
      onChange: (change) => this.changed(change),
    });
    // The first catch-up may be long (a large backlog): it runs in bounded chunks while the
    // window is already answering, and the status bar shows its progress.
    this.started = this.watcher.start().catch((error: unknown) =>
      this.emit('watcher.status', { ...this.watcherStatus(), state: 'error', error: message(error) }),
    );
  }

  private changed(change: WatcherChange): void {
    this.emit('ledger.changed', { reason: 'ingest' });
    if (change.runs_finished > 0) this.sweeps?.noteRunsFinished();
    if (!this.db) return;
    for (const id of change.fatal_help) {
      const request = getHelp(this.db, id);
      if (request && request.state === 'open') this.emit('help.fatal', request);
    }
  }

  watcherStatus(): WatcherStatus {
    return this.watcher?.status() ?? STOPPED;
  }

  async close(): Promise<void> {
    this.stopSettings?.();
    this.sweeps?.stop();
    this.backups?.stop();
    await this.watcher?.stop();
    await this.backups?.idle();
    this.db?.close();
    this.db = null;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class Desk implements DeskPort {
  private session: FactorySession;
  private readonly listeners = new Set<PushListener>();
  private readonly osUser: string;
  readonly handlers: Handlers;

  private constructor(
    factory: string,
    private readonly options: DeskOptions,
  ) {
    this.osUser = options.osUser ?? osAccountName();
    this.session = this.newSession(factory);
    this.handlers = this.makeHandlers();
  }

  /** Opens the Desk on a factory. Never throws for a bad factory: `desk.info` reports it. */
  static async open(factory: string, options: DeskOptions): Promise<Desk> {
    const desk = new Desk(path.resolve(factory), options);
    await desk.session.start();
    options.onFactoryOpened?.(desk.session.factory);
    return desk;
  }

  onPush(listener: PushListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the watcher has caught up with what is on disk (for tests and the CLI). */
  async idle(): Promise<void> {
    await this.session.started;
    await this.session.watcher?.idle();
  }

  async close(): Promise<void> {
    await this.session.close();
    this.listeners.clear();
  }

  private emit<P extends PushName>(name: P, payload: PushPayload<P>): void {
    for (const listener of this.listeners) listener(name, payload);
  }

  private newSession(factory: string): FactorySession {
    return new FactorySession(factory, this.options, (name, payload) => this.emit(name, payload), () => this.info());
  }

  info(): DeskInfo {
    const s = this.session;
    return {
      version: appVersion(),
      host: this.options.host,
      factory: s.factory,
      factory_error: s.factoryError,
      ledger_problem: s.problem,
      os_user: this.osUser,
      settings: s.settings.current(),
      settings_error: s.settings.error(),
      settings_warnings: s.settings.warnings(),
      watcher: s.watcherStatus(),
      last_sweep: s.lastSweep,
    };
  }

  /** The open ledger, or the reason there is none, as the error every ledger channel answers. */
  private db(): Db {
    const s = this.session;
    if (s.db) return s.db;
    throw new ApiError('unavailable', s.factoryError ?? s.problem?.message ?? 'no ledger is open');
  }

  private async switchTo(factory: string): Promise<DeskInfo> {
    await this.session.close();
    this.session = this.newSession(path.resolve(factory));
    await this.session.start();
    this.options.onFactoryOpened?.(this.session.factory);
    const info = this.info();
    this.emit('desk.changed', info);
    this.emit('ledger.changed', { reason: 'factory opened' });
    return info;
  }

  /** After a person's decision: re-write the learnings files of the agents it touched, tell the window. */
  private decided<T>(result: T): T {
    exportPending(this.db(), this.session.factory, this.session.settings.current().learnings.max_per_run);
    this.emit('ledger.changed', { reason: 'decision' });
    return result;
  }

  private makeHandlers(): Handlers {
    const now = () => new Date();
    const notFound = (what: string): never => {
      throw new ApiError('not_found', what);
    };
    const decision = (input: CallArgs<'learnings.reject'> | CallArgs<'learnings.keep'>, kind: 'reject' | 'keep') => {
      const reason = 'reason' in input ? input.reason : undefined;
      const result = decideLearnings(this.db(), kind, input.target, { by: input.by, reason, now: now() });
      return this.decided({ changed: result.changed });
    };
    return {
      'desk.info': () => this.info(),
      'factory.open': async (input) => {
        let target = input.path;
        if (target === undefined) {
          if (!this.options.chooseFolder) {
            throw new ApiError('bad_input', 'type the path of the factory folder to open');
          }
          const chosen = await this.options.chooseFolder();
          if (chosen === null) return this.info();
          target = chosen;
        }
        if (!isDirectory(target)) throw new ApiError('refused', `the folder ${target} does not exist`);
        return this.switchTo(target);
      },
      'learnings.query': (input) => queryLearnings(this.db(), input),
      'learnings.detail': (input) => learningDetail(this.db(), input.id) ?? notFound(`no learning ${input.id}`),
      'learnings.reject': (input) => decision(input, 'reject'),
      'learnings.keep': (input) => decision(input, 'keep'),
      'learnings.undo': (input) => {
        const result = undoDecisions(this.db(), input.ids, { by: input.by, now: now() });
        return this.decided({ changed: result.changed });
      },
      'help.list': (input) => listHelp(this.db(), input),
      'help.detail': (input) => helpDetail(this.db(), input.id),
      'help.reply': (input) => {
        const request = reply(this.db(), this.session.factory, input, this.osUser);
        this.emit('ledger.changed', { reason: 'reply' });
        return request;
      },
      'help.resolve': (input) => {
        const request = resolve(this.db(), input, this.osUser);
        this.emit('ledger.changed', { reason: 'resolve' });
        return request;
      },
      'runs.list': (input) => listRuns(this.db(), input),
      'runs.detail': (input) => runDetail(this.db(), input.run) ?? notFound(`no run ${input.run}`),
      'chains.list': (input) => listChains(this.db(), input),
      'activity.proposals': (input) => listProposals(this.db(), input),
      'activity.refused': (input) => listRefused(this.db(), input),
      'activity.sweeps': (input) => listSweeps(this.db(), input),
      'activity.refusalsByRule': () => refusalsByRule(this.db()),
      'stats.daily': (input) => dailyStats(this.db(), input.days),
      'ledger.restore': async (input) => {
        const factory = this.session.factory;
        await this.session.close();
        try {
          restoreBackup(factory, input.backup);
        } catch (error) {
          await this.switchTo(factory);
          if (error instanceof RestoreRefused) throw new ApiError('refused', error.message);
          throw error;
        }
        return this.switchTo(factory);
      },
    } satisfies { [C in keyof Handlers]: (input: CallArgs<C>) => Promise<CallOutput<C>> | CallOutput<C> };
  }
}
