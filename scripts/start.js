// `npm start`: build if needed, then open the app (Electron, or the browser host where the
// Electron runtime is not installed). The decisions live in electron/node/launcher.ts, the launch in electron/cli/start.ts.
import { ensureBuilt } from './ensure-built.js';

ensureBuilt();
const { launch } = await import('../dist/main/electron/cli/start.js');
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());
process.exitCode = await launch({
  argv: process.argv.slice(2),
  io: {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
  },
});
