// `npm test`: build if needed, then the unit/integration tests (vitest), the end-to-end tests
// (Playwright: the browser host in Chromium; the Electron app where its runtime is installed,
// under a virtual display when there is no screen), then the Electronegativity check. The
// Chromium comes from find-chromium.js (found, else installed, each step said in one line) and
// reaches Playwright through CHROMIUM_PATH.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './build-state.js';
import { ensureBuilt } from './ensure-built.js';
import { ensureChromium } from './find-chromium.js';

function bin(name) {
  return path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
}

function onPath(name) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, name)));
}

// Each runner also writes a JSON report, so the run ends with one plain count of all tests.
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-test-'));
const vitestReport = path.join(reports, 'vitest.json');
const playwrightReport = path.join(reports, 'playwright.json');
const reporter = 'list';

function counts() {
  const total = { passed: 0, failed: 0, skipped: 0 };
  try {
    const v = JSON.parse(fs.readFileSync(vitestReport, 'utf8'));
    total.passed += v.numPassedTests ?? 0;
    total.failed += v.numFailedTests ?? 0;
    total.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  } catch {
    // no report: the count below covers what did report
  }
  try {
    const p = JSON.parse(fs.readFileSync(playwrightReport, 'utf8'));
    total.passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
    total.failed += p.stats?.unexpected ?? 0;
    total.skipped += p.stats?.skipped ?? 0;
  } catch {
    // idem
  }
  return total;
}

function summary() {
  const { passed, failed, skipped } = counts();
  process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  fs.rmSync(reports, { recursive: true, force: true });
}

function step(title, command, args, env = {}) {
  process.stdout.write(`\n── ${title}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stderr.write(`\n${title}: failed (exit ${result.status ?? result.signal}) after ${seconds} s\n`);
    summary();
    process.exit(result.status || 1);
  }
  process.stdout.write(`${title}: passed in ${seconds} s\n`);
}

ensureBuilt();
step('unit and integration tests (vitest)', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);
const playwright = [bin('playwright'), 'test', `--reporter=${reporter},json`];
process.stdout.write('\n── a Chromium for the end-to-end tests\n');
const chromium = ensureChromium();
if (!chromium) {
  summary();
  process.exit(1);
}
const playwrightEnv = { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport, CHROMIUM_PATH: chromium };
const headless = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY && onPath('xvfb-run');
if (headless) step('end-to-end tests (Playwright, virtual display)', 'xvfb-run', ['-a', ...playwright], playwrightEnv);
else step('end-to-end tests (Playwright)', playwright[0], playwright.slice(1), playwrightEnv);
step('Electron security check (Electronegativity)', process.execPath, [path.join(root, 'scripts', 'security.js')]);
summary();
