/** The Desk itself: which factory, the watcher, settings and ledger health, the last sweep. */
import { createStore } from 'zustand/vanilla';
import type { DeskApi, DeskInfo } from '../../shared/api.js';
import type { WatcherStatus } from '../../shared/domain.js';
import { messageOf } from './errors.js';
import { storedResponder } from './responder.js';

export interface DeskState {
  info: DeskInfo | null;
  watcher: WatcherStatus | null;
  error: string | null;
  busy: boolean;
  load(): Promise<void>;
  setInfo(info: DeskInfo): void;
  setWatcher(status: WatcherStatus): void;
  openFactory(path?: string): Promise<boolean>;
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
    async openFactory(path) {
      set({ busy: true });
      try {
        const info = await api.call('factory.open', path ? { path } : {});
        set({ info, watcher: info.watcher, error: null, busy: false });
        return true;
      } catch (error) {
        set({ error: messageOf(error), busy: false });
        return false;
      }
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
