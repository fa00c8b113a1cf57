/**
 * Where the built pieces are, from any module of the build (`dist/main/electron/...`) or of the
 * source tree run through tsx (`electron/...`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: the nearest folder above this module with the app's package.json. */
export function appRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = path.dirname(from);
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    try {
      const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string };
      if (pkg.name === 'layover-desk') return dir;
    } catch {
      // keep climbing
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the layover-desk package above ${from}`);
    dir = parent;
  }
}

let cachedVersion: string | undefined;

/** The app's version, from its package.json (read once). */
export function appVersion(): string {
  if (cachedVersion === undefined) {
    const pkg = JSON.parse(fs.readFileSync(path.join(appRoot(), 'package.json'), 'utf8')) as { version?: string };
    cachedVersion = pkg.version ?? '0.0.0';
  }
  return cachedVersion;
}

export function rendererDir(root: string = appRoot()): string {
  return path.join(root, 'dist', 'renderer');
}

export function preloadPath(root: string = appRoot()): string {
  return path.join(root, 'dist', 'preload', 'preload.cjs');
}

export function electronMainPath(root: string = appRoot()): string {
  return path.join(root, 'dist', 'main', 'electron', 'main.js');
}

/** The better-sqlite3 addon built for Electron's ABI by `npm run rebuild:electron`. */
export function electronNativeBinding(root: string = appRoot()): string {
  return path.join(root, 'build', 'electron-native', 'better_sqlite3.node');
}
