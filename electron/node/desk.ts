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
 *
 * The ledger is checked in full (SQLite's quick check, in a worker thread so the window is not
 * held up) when the factory opens and before each daily safety copy. From a failed check on, or
 * from damage any statement meets, the Desk writes nothing more to it: the watcher, sweeps and
 * copies stop, the channels answer `unavailable` with the damaged-ledger message, and
 * `desk.info` carries the restore offer.
 */
import path from 'node:path';
import {
  ApiError,
  type CallArgs,
  type CallOutput,
  type DeskInfo,
  type Handlers,
  type LedgerCheckState,
  type LedgerProblem,
  type PushName,
  type PushPayload,
} from '../../shared/api.js';
import type { SweepReport, WatcherStatus } from '../../shared/domain.js';
import {
  BackupScheduler,
  backupLedger,
  damageProblem,
  ledgerProblem,
  newestBackup,
  openFactoryLedger,
  restoreBackup,
  RestoreRefused,
} from './backup.js';
import { catchUpRestored, flushJournal } from './journal.js';
import { checkLedgerInWorker } from './ledgerWorker.js';
import { answerDecision } from './answerDecision.js';
import { flushOutbox } from './outbox.js';
import { osAccountName } from './osUser.js';
import { ledgerSettings, SettingsSource } from './settingsFile.js';
import { dailyStats, lastEventAt, listProposals, listRefused, refusalsByRule } from './store/activity.js';
import { BUSY_TIMEOUT_MS, isDamage, isDamageCode, LedgerOpenError, ledgerPath, type Db } from './store/db.js';
import { SCHEMA_VERSION } from './store/schema.js';
import { getHelp, helpDetail, listChains, listHelp, reply, resolve } from './store/help.js';
import { learningDetail, queryLearnings } from './store/learningQueries.js';
import { decideLearnings, originLearnings, undoDecisions } from './store/decisions.js';
import { listRuns, listWorkflows, runDetail } from './store/runs.js';
import { dismissWorth, worthALook } from './store/worth.js';
import { lastSweep, listSweeps } from './sweep.js';
import type { WatcherChange } from './watcher.js';
import { refusedFiles, rereadFile } from './store/eventFiles.js';
import { warmList } from './store/learningList.js';
import { IngestThread } from './ingestThread.js';
import { upgradeOffThread } from './ledgerUpgrade.js';
import type { DeskOpenOptions, DeskPort, PushListener } from './host/deskPort.js';
import { appVersion } from './paths.js';
import { isDirectory, isFactory } from './factory.js';

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

/** Most fatal help requests one catch-up step tells the window of, one push (and notification) each. */
const FATAL_PUSHES_MOST = 10;

/** The channels that write a person's decision to the ledger. */
const WRITE_CHANNELS: ReadonlySet<string> = new Set([
  'learnings.reject',
  'learnings.keep',
  'learnings.undo',
  'learnings.dismissWorth',
  'help.reply',
  'help.resolve',
  'events.reread',
]);

const STOPPED: WatcherStatus = { state: 'stopped', done_bytes: 0, total_bytes: 0, last_event_at: null, error: null, polling: false };

/** Everything that belongs to one open factory; replaced whole when the operator opens another. */
class FactorySession {
  settings: SettingsSource;
  db: Db | null = null;
  factoryError: string | null = null;
  problem: LedgerProblem | null = null;
  /** Where the check of the ledger stands (docs/rules.md#retention-sweeps): what `desk.info` reports as `ledger_check`. */
  check: LedgerCheckState = 'not_run';
  /** Settles when the ledger's check at start has: a person's write waits for it. */
  checked: Promise<void> = Promise.resolve();
  /** Set by `close`: work that would start after the check does not. */
  private closed = false;
  /** The ingest thread: watcher, ingest and sweeps, off the host's event loop. */
  thread: IngestThread | null = null;
  backups: BackupScheduler | null = null;
  lastSweep: SweepReport | null = null;
  /** The newest event in the ledger when it opened, for the status bar until the ingest thread reports. */
  private lastEventAt: string | null = null;
  /** The ledger's check, then the ingest thread's first catch-up, which run while the window already answers. */
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
    await upgradeOffThread(ledgerPath(this.factory), binding(this.options));
    if (this.closed) return;
    try {
      this.db = openFactoryLedger(this.factory, binding(this.options));
    } catch (error) {
      if (!(error instanceof LedgerOpenError)) throw error;
      this.problem = ledgerProblem(this.factory, error);
    }
    // With the ledger open, a bad layover.toml leaves the last good settings of any earlier
    // process in force, not the defaults (docs/rules.md#settings), and each good reading is kept for the next.
    // Read only until the ledger has passed its check (startWork then keeps good readings).
    if (this.db) this.settings = ledgerSettings(this.factory, this.db, false);
    this.watchSettings();
    if (!this.db) return;
    const db = this.db;
    this.lastSweep = lastSweep(db);
    this.lastEventAt = lastEventAt(db);
    this.checked = this.checkLedger();
    // Nothing is written to the ledger (outbox, journal, copies, ingest and sweeps) before its check has
    // passed, so a damaged ledger stays as it was found; the wait is the check's time, off the
    // window's path.
    this.started = this.checked.then(() => (this.problem || this.closed ? undefined : this.startWork(db)));
  }

  /** Everything that writes to the ledger while the Desk runs, started once the ledger passed its check. */
  private startWork(db: Db): Promise<void> | undefined {
    this.settings = ledgerSettings(this.factory, db);
    this.watchSettings();
    flushOutbox(db, this.factory);
    flushJournal(db, this.factory);
    this.backups = new BackupScheduler({
      backup: async () => {
        try {
          return await backupLedger(db, this.factory, new Date(), binding(this.options));
        } catch (error) {
          if (error instanceof LedgerOpenError && error.trouble === 'damaged') this.damaged(ledgerProblem(this.factory, error));
          throw error;
        }
      },
      newestAt: () => {
        const newest = newestBackup(this.factory);
        return newest ? Date.parse(newest.at) : null;
      },
      onError: (error) => this.emit('watcher.status', { ...this.watcherStatus(), error: `safety copy failed: ${message(error)}` }),
    });
    this.backups.start();
    // While the ingest worker runs, the host's connection copies no write-ahead log by itself: a
    // commit of the host's would otherwise copy what a catch-up left in the log (up to
    // INGEST_CHECKPOINT_PAGES, ingest.ts) on the window's event loop. The worker copies it, at its
    // own commits and after each decision (decided below).
    db.pragma('wal_autocheckpoint = 0');
    this.thread = new IngestThread({
      factory: this.factory,
      settings: () => this.settings.current(),
      watch: this.options.watch !== false,
      usePolling: this.options.usePolling ?? false,
      nativeBinding: this.options.nativeBinding ?? null,
      sweepMinGapMs: this.options.sweepMinGapMs ?? null,
      initial: { last_event_at: this.lastEventAt, done_bytes: 0, total_bytes: 0, error: null },
      onStatus: (status) => this.emit('watcher.status', status),
      onChange: (change) => this.changed(change),
      onSweep: (report) => {
        this.lastSweep = report;
        this.emit('ledger.changed', { reason: 'sweep' });
        this.emit('desk.changed', this.info());
      },
      onSweepFailed: (why) => this.emit('watcher.status', { ...this.watcherStatus(), error: `sweep failed: ${why}` }),
    });
    // The learnings list is read in small steps now, so the window's first look at it is not one
    // long wait (learningList.ts).
    void warmList(db);
    // The first catch-up may be long (a large backlog): it runs in the ingest thread while the
    // window is already answering, and the status bar shows its progress.
    return this.thread.start();
  }

  /** Tells the window when layover.toml changes (replacing an earlier watch). */
  private watchSettings(): void {
    this.stopSettings?.();
    this.stopSettings = this.settings.watch(() => {
      this.thread?.settingsChanged();
      this.emit('desk.changed', this.info());
    });
  }

  /** The quick check of the ledger, off the window's path; a failed one makes the ledger damaged. */
  private async checkLedger(): Promise<void> {
    this.check = 'checking';
    try {
      const outcome = await checkLedgerInWorker(ledgerPath(this.factory), {
        busyTimeoutMs: BUSY_TIMEOUT_MS,
        schemaVersion: SCHEMA_VERSION,
        ...binding(this.options),
      });
      if (outcome.problem === null) this.check = 'passed';
      else if (outcome.code === null || isDamageCode(outcome.code)) this.damaged(damageProblem(this.factory, outcome.problem));
      else this.check = 'not_run'; // could not run (e.g. locked): the next one will
    } catch {
      this.check = 'not_run';
    }
    this.emit('desk.changed', this.info());
  }

  /**
   * From now on the ledger is damaged: nothing more is written to it (the watcher, sweeps and
   * copies stop) and the window shows `problem` with its restore offer.
   */
  damaged(problem: LedgerProblem): void {
    if (this.problem) return;
    this.problem = problem;
    this.check = 'failed';
    this.backups?.stop();
    void this.thread?.stop();
    this.emit('desk.changed', this.info());
  }

  private changed(change: WatcherChange): void {
    this.emit('ledger.changed', { reason: 'ingest' });
    if (!this.db) return;
    // A long catch-up can bring hundreds of fatal requests at once: the window is told of the
    // newest few (a notification each); Needs you lists them all.
    for (const id of change.fatal_help.slice(-FATAL_PUSHES_MOST)) {
      const request = getHelp(this.db, id);
      if (request && request.state === 'open') this.emit('help.fatal', request);
    }
  }

  watcherStatus(): WatcherStatus {
    return this.thread?.status() ?? { ...STOPPED, last_event_at: this.lastEventAt };
  }

  async close(): Promise<void> {
    this.closed = true;
    // Once the check has settled, the work after it has started or never will; the watcher's
    // catch-up is then stopped below rather than waited for.
    await this.checked;
    this.stopSettings?.();
    this.backups?.stop();
    await this.thread?.stop();
    await this.backups?.idle();
    this.db?.close();
    this.db = null;
  }
}

/** The better-sqlite3 addon to load, as the openers take it: Electron's build, or none on plain Node. */
function binding(options: DeskOptions): { nativeBinding?: string } {
  return options.nativeBinding ? { nativeBinding: options.nativeBinding } : {};
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class Desk implements DeskPort {
  private session: FactorySession;
  private readonly listeners = new Set<PushListener>();
  private readonly osUser: string;
  /** The folder last asked to open that is not a factory yet: what `factory.open {create: true}` confirms. */
  private unconfirmed: string | null = null;
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
    await this.session.thread?.idle();
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
      ledger_check: s.check,
      os_user: this.osUser,
      settings: s.settings.current(),
      settings_error: s.settings.error(),
      settings_warnings: s.settings.warnings(),
      watcher: s.watcherStatus(),
      last_sweep: s.lastSweep,
    };
  }

  /**
   * The open ledger, or the reason there is none, as the error every ledger channel answers. A
   * damaged ledger is still read (what it still shows may help), never written: `writable` says no.
   */
  private db(): Db {
    const s = this.session;
    if (s.db) return s.db;
    throw new ApiError('unavailable', s.factoryError ?? s.problem?.message ?? 'no ledger is open');
  }

  /** The open ledger for a write, refused (`unavailable`, with the problem) once it is known damaged. */
  private writable(): Db {
    const problem = this.session.problem;
    if (problem) throw new ApiError('unavailable', problem.message);
    return this.db();
  }

  /**
   * Runs a channel; damage a statement meets makes the ledger damaged (as a failed check does)
   * and the channel answers `unavailable` with the damaged-ledger message.
   */
  private guarded<A, R>(name: string, handler: (input: A) => R | Promise<R>): (input: A) => Promise<R> {
    const writes = WRITE_CHANNELS.has(name);
    return async (input: A) => {
      try {
        // A person's decision is not written to a ledger whose check at start is still running.
        if (writes) await this.session.checked;
        return await handler(input);
      } catch (error) {
        if (!isDamage(error)) throw error;
        const problem = damageProblem(this.session.factory, (error as Error).message);
        this.session.damaged(problem);
        throw new ApiError('unavailable', this.session.problem?.message ?? problem.message);
      }
    };
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

  /**
   * A person's decision, answered as `answerDecision` does (journal line, learnings files of the
   * agents it changed, the checkpoint after the answer); then tells the window, `reason` saying
   * which decision. Every decision the window makes goes through here: a reject, keep or undo, and
   * a reply or resolve of a help request, which are journaled the same way
   * (docs/factory-format.md#the-decisions-journal) and change no learnings file.
   */
  private decided<T>(reason: string, decide: (db: Db) => T): T {
    const db = this.writable();
    const result = answerDecision(db, this.session.factory, this.session.settings.current().learnings.max_per_run, () => decide(db), (checkpoint) => {
      // Copied by the ingest worker on its own connection when one runs, so the window never waits for it.
      if (!this.session.thread?.checkpoint()) setImmediate(() => this.checkpointAfterAnswer(checkpoint));
    });
    this.emit('ledger.changed', { reason });
    return result;
  }

  /**
   * The checkpoint a decision's answer did not wait for. It fails as SQLite's own automatic one
   * does, quietly: the decision is committed either way and the next commit checkpoints again.
   * Damage it meets is the ledger's, and is reported as a statement's damage is.
   */
  private checkpointAfterAnswer(checkpoint: () => void): void {
    try {
      checkpoint();
    } catch (error) {
      if (isDamage(error)) this.session.damaged(damageProblem(this.session.factory, (error as Error).message));
    }
  }

  private makeHandlers(): Handlers {
    const now = () => new Date();
    const notFound = (what: string): never => {
      throw new ApiError('not_found', what);
    };
    const decision = (input: CallArgs<'learnings.reject'> | CallArgs<'learnings.keep'>, kind: 'reject' | 'keep') => {
      const reason = 'reason' in input ? input.reason : undefined;
      return this.decided('decision', (db) => ({ changed: decideLearnings(db, kind, input.target, { by: input.by, reason, now: now() }).changed }));
    };
    const handlers = {
      'desk.info': () => this.info(),
      'factory.open': async (input) => {
        let target = input.path ?? (input.create ? this.unconfirmed : null) ?? undefined;
        if (target === undefined) {
          if (!this.options.chooseFolder) {
            throw new ApiError('bad_input', 'type the path of the factory folder to open');
          }
          const chosen = await this.options.chooseFolder();
          if (chosen === null) return this.info();
          target = chosen;
        }
        if (!isDirectory(target)) throw new ApiError('refused', `the folder ${target} does not exist`);
        if (!input.create && !isFactory(target)) {
          this.unconfirmed = target;
          throw new ApiError(
            'needs_confirmation',
            `${path.resolve(target)} is not a factory yet (no events/, layover.toml or .layover/ in it). Make it a new factory?`,
          );
        }
        this.unconfirmed = null;
        return this.switchTo(target);
      },
      'learnings.query': (input) => queryLearnings(this.db(), input),
      'learnings.detail': (input) =>
        learningDetail(this.db(), input.id, this.session.settings.current().learnings.max_per_run) ?? notFound(`no learning ${input.id}`),
      'learnings.origin': (input) => ({ learnings: originLearnings(this.db(), input.origin) }),
      'learnings.reject': (input) => decision(input, 'reject'),
      'learnings.keep': (input) => decision(input, 'keep'),
      'learnings.undo': (input) => {
        return this.decided('decision', (db) => ({ changed: undoDecisions(db, input.ids, { by: input.by, now: now() }).changed }));
      },
      'learnings.worthALook': () => worthALook(this.db()),
      'learnings.dismissWorth': (input) => {
        if (!dismissWorth(this.writable(), input.id, input.fingerprint, input.by, now())) notFound(`no learning ${input.id}`);
        this.emit('ledger.changed', { reason: 'dismiss' });
        return { id: input.id };
      },
      'help.list': (input) => listHelp(this.db(), input),
      'help.detail': (input) => helpDetail(this.db(), input.id),
      'help.reply': (input) => this.decided('reply', (db) => reply(db, this.session.factory, input, this.osUser)),
      'help.resolve': (input) => this.decided('resolve', (db) => resolve(db, input, this.osUser)),
      'runs.list': (input) => listRuns(this.db(), input),
      'runs.workflows': () => ({ workflows: listWorkflows(this.db()) }),
      'runs.detail': (input) => runDetail(this.db(), input.run, this.session.settings.current().learnings.provisional_runs) ?? notFound(`no run ${input.run}`),
      'chains.list': (input) => listChains(this.db(), input),
      'activity.proposals': (input) => listProposals(this.db(), input),
      'activity.refused': (input) => listRefused(this.db(), input),
      'activity.sweeps': (input) => listSweeps(this.db(), input),
      'activity.refusalsByRule': () => refusalsByRule(this.db()),
      'activity.refusedFiles': () => refusedFiles(this.db()),
      'events.reread': (input) => {
        const db = this.db();
        if (!db.transaction(() => rereadFile(db, input.file)).immediate()) {
          throw new ApiError('not_found', `the ledger has not read an events file ${input.file}`);
        }
        this.session.thread?.readNow();
        this.emit('ledger.changed', { reason: 'reread' });
        return { file: input.file };
      },
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
        // The event lines and journaled decisions since the copy are made again before the
        // window sees the restored ledger (docs/factory-format.md).
        await upgradeOffThread(ledgerPath(factory), binding(this.options));
        const restored = openFactoryLedger(factory, binding(this.options));
        try {
          catchUpRestored(restored, factory, ledgerSettings(factory, restored).current());
        } finally {
          restored.close();
        }
        return this.switchTo(factory);
      },
    } satisfies { [C in keyof Handlers]: (input: CallArgs<C>) => Promise<CallOutput<C>> | CallOutput<C> };
    return Object.fromEntries(
      Object.entries(handlers).map(([name, handler]) => [name, this.guarded(name, handler as (input: unknown) => unknown)]),
    ) as unknown as Handlers;
  }
}
