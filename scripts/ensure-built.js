// Builds (`npm run build`) when dist/ is missing or older than the sources; else does nothing.
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { root, staleReason } from './build-state.js';

export function ensureBuilt() {
  const reason = staleReason();
  if (!reason) return;
  process.stdout.write(`Building first (${reason})…\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    process.stderr.write('layover-desk: the build failed (see above)\n');
    process.exit(result.status ?? 1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) ensureBuilt();
