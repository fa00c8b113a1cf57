/**
 * What `npm start` does, in plain Node: pick the factory, then open it in the Electron app if its
 * runtime is installed, else in the browser host — saying so in one line. It never loads the
 * `electron` package (that may start a download) and never waits on one.
 *
 * The factory: `--factory DIR`, else `$LAYOVER_FACTORY`, else the last one opened on this computer
 * (if it is still there), else a demo factory in the user's data folder, created on first start.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CliIo } from '../cli/command.js';
import { serve } from '../cli/commands/serve.js';
import { detectElectronRuntime, type ElectronRuntime } from './electronRuntime.js';
import { electronMainPath } from './paths.js';
import { readUserState, updateUserState, userDataDir } from './userState.js';

export const BROWSER_FALLBACK_LINE = 'Electron runtime not installed here; serving the same UI in your browser instead';

export type FactoryChoice =
  | { source: 'argument' | 'environment' | 'last'; factory: string }
  | { source: 'demo'; factory: string };

export function demoFactoryDir(dataDir: string): string {
  return path.join(dataDir, 'demo-factory');
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
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

export interface LaunchOptions {
  argv: readonly string[];
  io: CliIo;
  runtime?: ElectronRuntime;
  /** Port for the browser host (default any free one). */
  port?: number;
}

/** Runs `npm start`: resolves with the exit code. */
export async function launch(options: LaunchOptions): Promise<number> {
  const { io } = options;
  const dataDir = userDataDir(io.env);
  const choice = chooseFactory({ argv: options.argv, env: io.env, cwd: io.cwd, dataDir });
  if (choice.source === 'demo') {
    const made = await ensureDemoFactory(choice.factory);
    if (made === 'created') io.stdout(`First start: created a demo factory in ${choice.factory}\n`);
  } else if (!isDirectory(choice.factory)) {
    io.stderr(`layover-desk: the factory ${choice.factory} is not a folder\n`);
    return 2;
  }
  const plan = planLaunch(options.runtime ?? detectElectronRuntime({ env: io.env }), choice.factory, electronMainPath());
  if (plan.mode === 'electron') {
    const env = { ...io.env };
    delete env.ELECTRON_RUN_AS_NODE;
    const child = spawn(plan.executable, plan.args, { stdio: 'inherit', env, cwd: io.cwd });
    const forward = () => child.kill('SIGTERM');
    io.signal.addEventListener('abort', forward, { once: true });
    return await new Promise<number>((resolve) => {
      child.on('error', (error) => {
        io.stderr(`layover-desk: cannot start Electron: ${error.message}\n`);
        resolve(1);
      });
      child.on('exit', (code, signal) => {
        io.signal.removeEventListener('abort', forward);
        resolve(code ?? (signal ? 0 : 1));
      });
    });
  }
  const remember = (factory: string) => {
    try {
      updateUserState(dataDir, { lastFactory: factory });
    } catch (error) {
      io.stderr(`layover-desk: could not remember the factory: ${(error as Error).message}\n`);
    }
  };
  io.stdout(`${BROWSER_FALLBACK_LINE}\n`);
  return serve(
    {
      factory: choice.factory,
      port: options.port ?? 0,
      onFactory: remember,
    },
    io,
  );
}
