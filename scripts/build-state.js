// Is dist/ older than the sources it is built from? Used by `npm start` and `npm test` to build
// only when needed (after `npm ci` the `prepare` script has built it already).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SOURCES = ['electron', 'shared', 'renderer', 'package.json', 'tsconfig.base.json', 'tsconfig.json', 'tsconfig.renderer.json', 'tsconfig.preload.json', 'vite.config.ts', 'vite.preload.config.ts'];
const OUTPUTS = ['dist/main/electron/cli/main.js', 'dist/main/electron/main.js', 'dist/renderer/index.html', 'dist/preload/preload.cjs'];

function newest(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const name of fs.readdirSync(entry)) max = Math.max(max, newest(path.join(entry, name)));
  return max;
}

/** A reason to build, or null when dist/ is current. */
export function staleReason() {
  let oldestOutput = Infinity;
  for (const output of OUTPUTS) {
    const file = path.join(root, output);
    if (!fs.existsSync(file)) return `${output} is missing`;
    oldestOutput = Math.min(oldestOutput, fs.statSync(file).mtimeMs);
  }
  const source = Math.max(...SOURCES.map((s) => newest(path.join(root, s))));
  return source > oldestOutput ? 'the sources changed since the last build' : null;
}
