/**
 * What a host (the Electron shell or the browser host) needs from the Desk.
 *
 * A host only routes: calls go to `handlers` through `dispatch()` (which validates both ways),
 * pushes come from `onPush`. Keeping this narrow lets both hosts be tested against a small real
 * `Handlers` object, without a factory; `Desk` (../desk.ts) is the real one.
 */
import type { Handlers, PushName } from '../../../shared/api.js';

export type PushListener = (name: PushName, payload: unknown) => void;
/** Registers a push listener; returns the function that removes it. */
export type Subscribe = (listener: PushListener) => () => void;

export interface DeskPort {
  readonly handlers: Handlers;
  onPush: Subscribe;
  close(): void | Promise<void>;
}

export interface DeskOpenOptions {
  /** Which host serves the window (reported in `desk.info`). */
  host: 'electron' | 'browser';
  /** better-sqlite3 addon built for Electron's ABI; absent on plain Node. */
  nativeBinding?: string;
  /** Asks the operator for a folder (`factory.open` without a path); the Electron host's dialog. */
  chooseFolder?: () => Promise<string | null>;
  /** Told of every factory opened (the first one included), so the host remembers the last. */
  onFactoryOpened?: (factory: string) => void;
}
