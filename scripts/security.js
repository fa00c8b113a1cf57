// `npm run security`: Electronegativity over the Electron shell, failing on any finding it rates
// above "note". The tool itself exits 0 whatever it finds, so this reads its SARIF report.
// The check that downloads Electron's release list is left out (it needs the network).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { root } from './build-state.js';

const require = createRequire(import.meta.url);
const electronVersion = JSON.parse(fs.readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
const cli = path.join(path.dirname(require.resolve('@doyensec/electronegativity/package.json')), 'dist', 'index.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'electronegativity-'));
const report = path.join(dir, 'report.sarif');

const run = spawnSync(
  process.execPath,
  [cli, '-i', path.join(root, 'electron'), '-o', report, '-r', '-e', electronVersion, '-x', 'AvailableSecurityFixesGlobalCheck'],
  { cwd: root, encoding: 'utf8', timeout: 300_000 },
);
if (!fs.existsSync(report)) {
  process.stderr.write(`security: Electronegativity wrote no report\n${run.stdout}\n${run.stderr}\n`);
  process.exit(1);
}
const sarif = JSON.parse(fs.readFileSync(report, 'utf8'));
fs.rmSync(dir, { recursive: true, force: true });
const results = sarif.runs.flatMap((r) => r.results ?? []);
let failing = 0;
for (const result of results) {
  const where = result.locations?.[0]?.physicalLocation;
  const line = `${result.level ?? 'note'}\t${result.ruleId}\t${where?.artifactLocation?.uri ?? '?'}:${where?.region?.startLine ?? '?'}`;
  process.stdout.write(`${line}\n`);
  if (result.level === 'error' || result.level === 'warning') failing += 1;
}
process.stdout.write(`security: ${results.length} finding(s), ${failing} above note (Electron ${electronVersion})\n`);
process.exit(failing > 0 ? 1 : 0);
