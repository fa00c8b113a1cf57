/**
 * Is the Electron runtime (the binary, not just the npm package) present?
 *
 * The `electron` npm package downloads its binary in an install script, which may be switched
 * off (as it is in this repo's `allowScripts`) or fail where the download host is unreachable.
 * Loading the package to find out is not an option: it may start that download. So this module
 * reads the package's files the same way its `index.js` would, and has no side effects.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

export interface ElectronRuntime {
  installed: boolean;
  /** The binary to spawn, when installed. */
  executable: string | null;
  /** The version of the `electron` package, when the package is there. */
  version: string | null;
  /** Why it is not usable, in words for a person; empty when installed. */
  reason: string;
}

export interface DetectOptions {
  env?: Record<string, string | undefined>;
  /** Where to resolve `electron/package.json` from (default: this module). */
  resolveFrom?: string;
}

function defaultExecutableName(): string {
  if (process.platform === 'win32') return 'electron.exe';
  if (process.platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  return 'electron';
}

export function detectElectronRuntime(options: DetectOptions = {}): ElectronRuntime {
  const env = options.env ?? process.env;
  const require = createRequire(options.resolveFrom ?? import.meta.url);
  let packageJson: string;
  try {
    packageJson = require.resolve('electron/package.json');
  } catch {
    return { installed: false, executable: null, version: null, reason: 'the electron package is not installed' };
  }
  const dir = path.dirname(packageJson);
  let version: string | null;
  try {
    version = (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    version = null;
  }
  const pathFile = path.join(dir, 'path.txt');
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : null;
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const executable = path.join(override, relative || defaultExecutableName());
    return fs.existsSync(executable)
      ? { installed: true, executable, version, reason: '' }
      : { installed: false, executable: null, version, reason: `ELECTRON_OVERRIDE_DIST_PATH has no ${executable}` };
  }
  if (!relative) {
    return {
      installed: false,
      executable: null,
      version,
      reason: `electron ${version ?? ''} has no downloaded binary (no ${pathFile})`.replace('  ', ' '),
    };
  }
  const executable = path.join(dir, 'dist', relative);
  if (!fs.existsSync(executable)) {
    return { installed: false, executable: null, version, reason: `the electron binary ${executable} is missing` };
  }
  return { installed: true, executable, version, reason: '' };
}
