/**
 * What `npm start` decides, in plain Node: which factory to open, and whether the Electron app or
 * the browser host opens it (`../cli/start.ts` carries it out). Deciding never loads the
 * `electron` package (that may start a download) and never waits on one.
 *
 * The factory: `--factory DIR`, else `$LAYOVER_FACTORY`, else the last one opened on this computer
 * (if it is still there), else a demo factory in the user's data folder, created on first start.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ElectronRuntime } from './electronRuntime.js';
import { isDirectory } from './factory.js';
import { readUserState } from './userState.js';

export const BROWSER_FALLBACK_LINE = 'Electron runtime not installed here; serving the same UI in your browser instead';

export type FactoryChoice =
  | { source: 'argument' | 'environment' | 'last'; factory: string }
  | { source: 'demo'; factory: string };

export function demoFactoryDir(dataDir: string): string {
  return path.join(dataDir, 'demo-factory');
}

/** Reads `--factory DIR` / `--factory=DIR` / `-f DIR` out of an argument list. */
export function factoryArgument(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--factory' || arg === '-f') return argv[i + 1];
    if (arg.startsWith('--factory=')) return arg.slice('--factory='.length);
  }
  return undefined;
}

export interface ChooseOptions {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  cwd: string;
  dataDir: string;
}

/** Decides which factory to open; touches nothing. */
export function chooseFactory(options: ChooseOptions): FactoryChoice {
  const argument = factoryArgument(options.argv);
  if (argument) return { source: 'argument', factory: path.resolve(options.cwd, argument) };
  if (options.env.LAYOVER_FACTORY) return { source: 'environment', factory: path.resolve(options.cwd, options.env.LAYOVER_FACTORY) };
  const last = readUserState(options.dataDir).lastFactory;
  if (last && isDirectory(last)) return { source: 'last', factory: last };
  return { source: 'demo', factory: demoFactoryDir(options.dataDir) };
}

interface DemoModule {
  createDemoFactory?: (dir: string) => unknown;
}

/**
 * Makes sure the demo factory exists. It is filled (by `createDemoFactory` from `demo.ts`, when
 * that module is part of the build) only when the folder is new or empty, so the operator's
 * own changes to the demo survive later starts.
 */
export async function ensureDemoFactory(dir: string, fill: (dir: string) => unknown = fillDemo): Promise<'created' | 'existing'> {
  const fresh = !isDirectory(dir) || fs.readdirSync(dir).length === 0;
  if (!fresh) return 'existing';
  fs.mkdirSync(dir, { recursive: true });
  await fill(dir);
  return 'created';
}

async function fillDemo(dir: string): Promise<void> {
  let mod: DemoModule | undefined;
  try {
    mod = (await import(new URL('./demo.js', import.meta.url).href)) as DemoModule;
  } catch {
    mod = undefined;
  }
  if (mod && typeof mod.createDemoFactory === 'function') await mod.createDemoFactory(dir);
}

export type LaunchPlan = { mode: 'electron'; executable: string; args: string[] } | { mode: 'browser'; reason: string };

/** Electron if its binary is there, else the browser host. */
export function planLaunch(runtime: ElectronRuntime, factory: string, mainScript: string): LaunchPlan {
  if (runtime.installed && runtime.executable) {
    return { mode: 'electron', executable: runtime.executable, args: [mainScript, '--factory', factory] };
  }
  return { mode: 'browser', reason: runtime.reason };
}
