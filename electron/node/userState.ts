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
import { z } from 'zod';
import { removeStaleTemps, writeFileAtomic } from './atomicFile.js';

const APP_FOLDER = 'layover-desk';

/** The smallest window worth restoring; a smaller stored size is someone's accident, not a choice. */
const MIN_WIDTH = 200;
const MIN_HEIGHT = 150;

/**
 * The window's place as stored: whole pixels, at least the smallest size worth restoring; a
 * position only when both coordinates are there (half a position would put the window anywhere).
 */
const WindowStateSchema = z
  .object({
    x: z.number().optional().catch(undefined),
    y: z.number().optional().catch(undefined),
    width: z.number().min(MIN_WIDTH),
    height: z.number().min(MIN_HEIGHT),
    maximized: z.unknown().transform((value) => value === true),
  })
  .transform(({ x, y, width, height, maximized }) => ({
    ...(x !== undefined && y !== undefined ? { x: Math.round(x), y: Math.round(y) } : {}),
    width: Math.round(width),
    height: Math.round(height),
    maximized,
  }));

/**
 * `state.json`, defined once. Each part that does not check out is dropped on its own (a broken
 * window place keeps the last factory), since nothing here may stop the app from starting.
 */
const UserStateSchema = z.object({
  lastFactory: z.string().refine((file) => path.isAbsolute(file)).optional().catch(undefined),
  window: WindowStateSchema.optional().catch(undefined),
});

export type WindowState = z.output<typeof WindowStateSchema>;
export type UserState = z.output<typeof UserStateSchema>;

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

export function readUserState(dataDir: string): UserState {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(statePath(dataDir), 'utf8'));
  } catch {
    return {};
  }
  const parsed = UserStateSchema.safeParse(raw);
  if (!parsed.success) return {};
  const { lastFactory, window } = parsed.data;
  return { ...(lastFactory !== undefined ? { lastFactory } : {}), ...(window !== undefined ? { window } : {}) };
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
