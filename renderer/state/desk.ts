/** The Desk itself: which factory, the watcher, settings and ledger health, the last sweep. */
import { createStore } from 'zustand/vanilla';
import { ApiError, type DeskApi, type DeskInfo } from '../../shared/api.js';
import type { WatcherStatus } from '../../shared/domain.js';
import { messageOf } from './errors.js';
import { storedResponder } from './responder.js';

export interface DeskState {
  info: DeskInfo | null;
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
  /** Who a decision or reply is recorded as: the remembered name, else the OS account. */
  actor(): string;
}

export function createDeskStore(api: DeskApi) {
  return createStore<DeskState>()((set, get) => ({
    info: null,
    watcher: null,
    error: null,
    busy: false,
    confirmCreate: null,
    async load() {
      try {
        const info = await api.call('desk.info', {});
        set({ info, watcher: info.watcher, error: null });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
    setInfo(info) {
      set({ info, watcher: info.watcher });
    },
    setWatcher(status) {
      set({ watcher: status });
    },
    async openFactory(path, create) {
      set({ busy: true, confirmCreate: null });
      try {
        const info = await api.call('factory.open', { ...(path ? { path } : {}), ...(create ? { create: true } : {}) });
        set({ info, watcher: info.watcher, error: null, busy: false });
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
        set({ info, watcher: info.watcher, error: null, busy: false });
        return true;
      } catch (error) {
        set({ error: messageOf(error), busy: false });
        return false;
      }
    },
    actor() {
      return storedResponder() || get().info?.os_user || 'operator';
    },
  }));
}
export type DeskStore = ReturnType<typeof createDeskStore>;
