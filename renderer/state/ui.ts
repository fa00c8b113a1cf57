/** Window chrome: the shortcut sheet, the open dialog, the undo toast. */
import { createStore } from 'zustand/vanilla';

export const UNDO_MS = 15_000;

export interface Toast {
  id: number;
  message: string;
  /** Ids the decision changed: Undo hands exactly these back. */
  undoIds: string[] | null;
  until: number;
  /** Undo is under way (from the button or `u`): a second press does not send it twice. */
  undoing?: boolean;
  /** Why the last Undo failed, shown on the toast. */
  undoError?: string;
}

/** `reject` confirms rejecting the list's selection, `reject-detail` the learning in the detail. */
export type DialogKind = 'reject' | 'reject-detail' | 'restore' | 'open-factory' | null;

export interface UiState {
  sheet: boolean;
  dialog: DialogKind;
  toast: Toast | null;
  setSheet(open: boolean): void;
  openDialog(kind: DialogKind): void;
  showToast(message: string, undoIds: string[] | null, ms?: number): void;
  dismissToast(id?: number): void;
  /** Changes the toast `id` if it is still the one shown (a newer toast is left alone). */
  patchToast(id: number, patch: Pick<Toast, 'undoing' | 'undoError'>): void;
}

export function createUiStore() {
  let next = 1;
  return createStore<UiState>()((set, get) => ({
    sheet: false,
    dialog: null,
    toast: null,
    setSheet(open) {
      set({ sheet: open });
    },
    openDialog(kind) {
      set({ dialog: kind });
    },
    showToast(message, undoIds, ms = UNDO_MS) {
      set({ toast: { id: next++, message, undoIds, until: Date.now() + ms } });
    },
    dismissToast(id) {
      if (id === undefined || get().toast?.id === id) set({ toast: null });
    },
    patchToast(id, patch) {
      const toast = get().toast;
      if (toast?.id === id) set({ toast: { ...toast, ...patch } });
    },
  }));
}
export type UiStore = ReturnType<typeof createUiStore>;
