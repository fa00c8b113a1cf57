/** The Desk itself: which factory, the watcher, settings and ledger health, the last sweep. */
import { createStore } from 'zustand/vanilla';
import { ApiError, type DeskApi, type DeskInfo } from '../../shared/api.js';
import type { WatcherStatus } from '../../shared/domain.js';
import { messageOf } from './errors.js';
import { rememberResponder, storedResponder } from './responder.js';

export interface DeskState {
  info: DeskInfo | null;
  /** The watcher as last heard: newer than `info.watcher` when a push of the watcher alone came since. */
  watcher: WatcherStatus | null;
  error: string | null;
  busy: boolean;
  /**
   * The question to put to the operator when the folder asked to open is not a factory yet
   * (the Desk answered `needs_confirmation`), with the path asked for (none: the folder chosen
   * in the native dialog); null when there is none.
   */
  confirmCreate: { question: string; path: string | undefined } | null;
  load(): Promise<void>;
  setInfo(info: DeskInfo): void;
  setWatcher(status: WatcherStatus): void;
  /** Opens a factory; `create` confirms making a new factory of a folder that is not one yet. */
  openFactory(path?: string, create?: boolean): Promise<boolean>;
  cancelCreate(): void;
  restoreBackup(backup: string): Promise<boolean>;
  /** The name the operator chose to act as ('' until one is chosen: the OS account is used). */
  actingAs: string;
  /** Whether the top bar's "Acting as" editor is open (the reply form's "change" opens it). */
  editingActor: boolean;
  /** Acts as `name` from now on, remembered on this computer; empty goes back to the OS account. */
  setActingAs(name: string): void;
  setEditingActor(open: boolean): void;
  /** Who a decision or reply is recorded as: the chosen name, else the OS account. */
  actor(): string;
}

/**
 * Who `state` acts as: the chosen name, else the OS account the Desk runs as (the same fallback
 * the Desk applies to a reply with no name), so the top bar shows what will be recorded.
 */
export function actorOf(state: Pick<DeskState, 'actingAs' | 'info'>): string {
  return state.actingAs || state.info?.os_user || 'operator';
}

export function createDeskStore(api: DeskApi) {
  /**
   * Which news of the Desk is newest, kept apart for the watcher and for the rest of `info`.
   * Every push takes a ticket when it arrives and every read when it is asked; news older than
   * what is shown is dropped. An answer can arrive after a push that is newer than it (the host
   * answered before it changed and pushed, but the answer was slower to come back): applied
   * then, it put back what was already past, and nothing came to mend it (the status bar stayed
   * at "starting" with the Desk long caught up). The host pushes every change, so a dropped
   * answer hides none; but a push of the watcher alone says nothing of the rest, so it drops only
   * the answer's watcher. Dropped whole, the answer to the read made when the event stream
   * connects, the window's only news of what was pushed before (a sweep's report), was lost to
   * the watcher's progress pushed meanwhile: the status bar showed the watcher caught up and no
   * sweep (docs/window.md#around-the-views, Live updates).
   */
  let tickets = 0;
  const shown = { info: 0, watcher: 0 };
  const newest = (part: keyof typeof shown, ticket: number): boolean => {
    if (ticket < shown[part]) return false;
    shown[part] = ticket;
    return true;
  };
  /** What `info` says, taken from news with `ticket`: each part only where nothing newer of it is shown. */
  const fromInfo = (info: DeskInfo, ticket: number): Partial<DeskState> => ({
    ...(newest('info', ticket) ? { info } : {}),
    ...(newest('watcher', ticket) ? { watcher: info.watcher } : {}),
  });
  return createStore<DeskState>()((set, get) => ({
    info: null,
    watcher: null,
    error: null,
    busy: false,
    confirmCreate: null,
    actingAs: storedResponder(),
    editingActor: false,
    async load() {
      const ticket = ++tickets;
      try {
        const info = await api.call('desk.info', {});
        set({ ...fromInfo(info, ticket), error: null });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
    setInfo(info) {
      set(fromInfo(info, ++tickets));
    },
    setWatcher(status) {
      if (newest('watcher', ++tickets)) set({ watcher: status });
    },
    async openFactory(path, create) {
      set({ busy: true, confirmCreate: null });
      try {
        const info = await api.call('factory.open', { ...(path ? { path } : {}), ...(create ? { create: true } : {}) });
        // What an opening answers is the factory now open, newer than whatever was pushed meanwhile.
        set({ ...fromInfo(info, ++tickets), error: null, busy: false });
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.code === 'needs_confirmation') {
          set({ confirmCreate: { question: error.message, path }, error: null, busy: false });
        } else set({ error: messageOf(error), busy: false });
        return false;
      }
    },
    cancelCreate() {
      set({ confirmCreate: null });
    },
    async restoreBackup(backup) {
      set({ busy: true });
      try {
        const info = await api.call('ledger.restore', { backup });
        set({ ...fromInfo(info, ++tickets), error: null, busy: false }); // as an opening's answer, above
        return true;
      } catch (error) {
        set({ error: messageOf(error), busy: false });
        return false;
      }
    },
    setActingAs(name) {
      rememberResponder(name);
      set({ actingAs: name.trim(), editingActor: false });
    },
    setEditingActor(open) {
      set({ editingActor: open });
    },
    actor() {
      return actorOf(get());
    },
  }));
}
export type DeskStore = ReturnType<typeof createDeskStore>;
