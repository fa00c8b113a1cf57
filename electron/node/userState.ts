/**
 * What the Desk remembers on this computer between starts: the last factory opened and the
 * window's place. Kept in one small JSON file in the user's data folder, which the Electron
 * shell and the plain-Node launcher both compute the same way (so `npm start` in the browser
 * and the app agree on "the last factory").
 *
 * Nothing here may stop the app from starting: an unreadable or malformed file reads as empty.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeStaleTemps, writeFileAtomic } from './atomicFile.js';

const APP_FOLDER = 'layover-desk';

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface UserState {
  lastFactory?: string;
  window?: WindowState;
}

/**
 * The per-user data folder: `$LAYOVER_USER_DATA` if set (tests, portable installs), else the
 * platform's configuration folder (`$XDG_CONFIG_HOME` or `~/.config` on Linux,
 * `~/Library/Application Support` on macOS, `%APPDATA%` on Windows) + `layover-desk`.
 */
export function userDataDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir(),
): string {
  if (env.LAYOVER_USER_DATA) return path.resolve(env.LAYOVER_USER_DATA);
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_FOLDER);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_FOLDER);
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(base, APP_FOLDER);
}

function statePath(dataDir: string): string {
  return path.join(dataDir, 'state.json');
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function readWindow(value: unknown): WindowState | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (!finite(v.width) || !finite(v.height) || v.width < 200 || v.height < 150) return undefined;
  const state: WindowState = { width: Math.round(v.width), height: Math.round(v.height), maximized: v.maximized === true };
  if (finite(v.x) && finite(v.y)) {
    state.x = Math.round(v.x);
    state.y = Math.round(v.y);
  }
  return state;
}

export function readUserState(dataDir: string): UserState {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(statePath(dataDir), 'utf8'));
  } catch {
    return {};
  }
  if (!raw || typeof raw !== 'object') return {};
  const r = raw as Record<string, unknown>;
  const state: UserState = {};
  if (typeof r.lastFactory === 'string' && path.isAbsolute(r.lastFactory)) state.lastFactory = r.lastFactory;
  const window = readWindow(r.window);
  if (window) state.window = window;
  return state;
}

/**
 * Merges `patch` into the stored state; written atomically, so a crash or a full disk keeps the
 * old state rather than an empty file. Not flushed to the folder: losing the last change to a
 * power cut costs the window's place or the last factory, nothing the ledger counts on.
 */
export function updateUserState(dataDir: string, patch: Partial<UserState>): UserState {
  const next = { ...readUserState(dataDir), ...patch };
  removeStaleTemps(dataDir);
  writeFileAtomic(statePath(dataDir), `${JSON.stringify(next, null, 2)}\n`);
  return next;
}
