/**
 * The "Worth a look" section of Needs you (docs/window.md#worth-a-look): the learnings the evidence
 * singles out, the entry under the section's own cursor, the one asking to be confirmed, and
 * dismissals. Display only: rejecting and keeping go through the learnings' own action code.
 */
import { createStore } from 'zustand/vanilla';
import type { DeskApi, WorthEntry } from '../../shared/api.js';
import { messageOf } from './errors.js';

export interface WorthState {
  entries: WorthEntry[];
  total: number;
  loaded: boolean;
  error: string | null;
  cursor: number;
  /** The entry whose rejection waits for the operator's confirmation. */
  confirming: WorthEntry | null;
  load(): Promise<void>;
  move(delta: number): void;
  setCursor(index: number): void;
  current(): WorthEntry | undefined;
  confirmReject(entry: WorthEntry | null): void;
  dismiss(entry: WorthEntry, by: string): Promise<boolean>;
  /** Shows why an action on an entry failed (a reject or keep, whose errors the learnings store holds). */
  fail(message: string): void;
}

export function createWorthStore(api: DeskApi) {
  let seq = 0;
  return createStore<WorthState>()((set, get) => ({
    entries: [],
    total: 0,
    loaded: false,
    error: null,
    cursor: 0,
    confirming: null,

    async load() {
      const mine = ++seq;
      try {
        const result = await api.call('learnings.worthALook', {});
        if (mine !== seq) return;
        // The cursor stays on the same learning when entries before it went.
        const at = get().entries[get().cursor]?.learning.id;
        const found = at ? result.entries.findIndex((e) => e.learning.id === at) : -1;
        const cursor = found >= 0 ? found : Math.min(get().cursor, Math.max(0, result.entries.length - 1));
        set({ entries: result.entries, total: result.total, loaded: true, error: null, cursor });
      } catch (error) {
        if (mine === seq) set({ error: messageOf(error), loaded: true });
      }
    },
    move(delta) {
      const n = get().entries.length;
      if (n === 0) return;
      set({ cursor: (get().cursor + delta + n) % n });
    },
    setCursor(index) {
      set({ cursor: index });
    },
    current() {
      return get().entries[get().cursor];
    },
    confirmReject(entry) {
      set({ confirming: entry });
    },
    async dismiss(entry, by) {
      try {
        await api.call('learnings.dismissWorth', { id: entry.learning.id, fingerprint: entry.fingerprint, by });
        await get().load();
        return true;
      } catch (error) {
        set({ error: messageOf(error) });
        return false;
      }
    },
    fail(message) {
      set({ error: message });
    },
  }));
}
export type WorthStore = ReturnType<typeof createWorthStore>;
