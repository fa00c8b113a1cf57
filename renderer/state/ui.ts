/** Window chrome: the shortcut sheet, the open dialog, the undo toast. */
import { createStore } from 'zustand/vanilla';

export const UNDO_MS = 15_000;

export interface Toast {
  id: number;
  message: string;
  /** Ids the decision changed: Undo hands exactly these back. */
  undoIds: string[] | null;
  until: number;
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
  }));
}
export type UiStore = ReturnType<typeof createUiStore>;
