/**
 * `npm start` (through scripts/start.js): the factory the launcher chooses, opened in the
 * Electron app when its runtime is installed, else in the browser host — saying so in one line.
 * It never loads the `electron` package and never waits on a download.
 */
import { spawn } from 'node:child_process';
import { BROWSER_FALLBACK_LINE, chooseFactory, ensureDemoFactory, planLaunch } from '../node/launcher.js';
import { detectElectronRuntime, type ElectronRuntime } from '../node/electronRuntime.js';
import { isDirectory } from '../node/factory.js';
import { electronMainPath } from '../node/paths.js';
import { updateUserState, userDataDir } from '../node/userState.js';
import type { CliIo } from './command.js';
import { serve } from './commands/serve.js';

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
