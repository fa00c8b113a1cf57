/**
 * What a host (the Electron shell or the browser host) needs from the Desk, and how it gets one.
 *
 * A host only routes: calls go to `handlers` through `dispatch()` (which validates both ways),
 * pushes come from `onPush`. Keeping this narrow lets both hosts be tested against a small real
 * `Handlers` object, without a factory.
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

interface DeskModule {
  Desk?: { open(factory: string, options: DeskOpenOptions): Promise<DeskPort> | DeskPort };
}

/**
 * Opens the Desk (`electron/node/desk.ts`, `Desk.open(factory, options)`) on a factory.
 * Loaded at run time so the hosts build and test on their own.
 */
export async function openDesk(factory: string, options: DeskOpenOptions): Promise<DeskPort> {
  let mod: DeskModule;
  try {
    mod = (await import(new URL('../desk.js', import.meta.url).href)) as DeskModule;
  } catch (error) {
    throw new Error(`the Desk module could not be loaded: ${(error as Error).message}`, { cause: error });
  }
  if (!mod.Desk || typeof mod.Desk.open !== 'function') throw new Error('the Desk module has no Desk.open');
  return await mod.Desk.open(factory, options);
}

