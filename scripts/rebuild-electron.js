// `npm run rebuild:electron`: builds better-sqlite3 for Electron's ABI into
// build/electron-native/better_sqlite3.node, which the app opens with `nativeBinding`.
//
// It works on a COPY of the package in build/.electron-rebuild/, never on node_modules: the
// Node build there is what the CLI and `npm test` load, and rebuilding it in place for Electron
// (or failing half-way, as electron-rebuild does without the right headers) breaks them.
// Runs only where the Electron runtime is installed; never as an install script.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ensureBuilt } from './ensure-built.js';
import { root } from './build-state.js';

ensureBuilt();
const { detectElectronRuntime } = await import('../dist/main/electron/node/electronRuntime.js');
const runtime = detectElectronRuntime();
if (!runtime.installed) {
  process.stderr.write(`rebuild:electron: Electron runtime not installed here (${runtime.reason}); nothing to build for it.\n`);
  process.exit(1);
}

const require = createRequire(import.meta.url);
const source = path.dirname(require.resolve('better-sqlite3/package.json'));
const version = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')).version;
const work = path.join(root, 'build', '.electron-rebuild');
const copy = path.join(work, 'node_modules', 'better-sqlite3');
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(path.dirname(copy), { recursive: true });
fs.cpSync(source, copy, { recursive: true, filter: (file) => !file.startsWith(path.join(source, 'build')) });
fs.writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'electron-native', private: true, dependencies: { 'better-sqlite3': version } }));

const { rebuild } = await import('@electron/rebuild');
process.stdout.write(`Building better-sqlite3 ${version} for Electron ${runtime.version}…\n`);
await rebuild({ buildPath: work, electronVersion: runtime.version, onlyModules: ['better-sqlite3'], force: true });

const built = path.join(copy, 'build', 'Release', 'better_sqlite3.node');
const target = path.join(root, 'build', 'electron-native', 'better_sqlite3.node');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(built, target);
fs.rmSync(work, { recursive: true, force: true });
process.stdout.write(`Wrote ${path.relative(root, target)}\n`);
