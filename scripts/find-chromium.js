// A Chromium for the end-to-end tests, on whatever machine `npm test` runs: found where browsers
// usually are, else installed the least intrusive way that works, each step said in one line.
//
// Why: Playwright's own browser download is not possible everywhere (this project's machines
// reach package registries only), and a fresh clone must not fail 14 tests with "executable
// doesn't exist". The path found reaches Playwright through CHROMIUM_PATH, which
// playwright.config.ts reads.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Browser commands looked up on PATH, in this order (Debian/Ubuntu names first, then Chrome's). */
export const PATH_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

const MACOS_PLACES = [
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

function windowsPlaces(env) {
  const bases = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(Boolean);
  return bases.flatMap((base) => [
    path.win32.join(base, 'Google', 'Chrome', 'Application', 'chrome.exe'),
    path.win32.join(base, 'Chromium', 'Application', 'chrome.exe'),
  ]);
}

/** Where Playwright keeps its own Chromium (whether or not it is downloaded), or null without playwright-core. */
export function playwrightChromium() {
  try {
    return createRequire(import.meta.url)('playwright-core').chromium.executablePath() || null;
  } catch {
    return null;
  }
}

/**
 * Every place a Chromium may be, in the order they are tried, each with where it comes from:
 * $CHROMIUM_PATH (the person's own choice wins), Playwright's own browser, the PATH commands,
 * then the usual install places of the platform.
 */
export function chromiumCandidates({ env = process.env, platform = process.platform, playwrightPath = playwrightChromium() } = {}) {
  const out = [];
  if (env.CHROMIUM_PATH) out.push({ path: env.CHROMIUM_PATH, where: '$CHROMIUM_PATH' });
  if (playwrightPath) out.push({ path: playwrightPath, where: "Playwright's own browser" });
  const dirs = (env.PATH ?? '').split(platform === 'win32' ? ';' : ':').filter(Boolean);
  const suffixes = platform === 'win32' ? ['.exe', ''] : [''];
  for (const command of PATH_COMMANDS) {
    for (const dir of dirs) {
      for (const suffix of suffixes) out.push({ path: path.join(dir, command + suffix), where: `\`${command}\` on PATH` });
    }
  }
  if (platform === 'darwin') out.push(...MACOS_PLACES.map((p) => ({ path: p, where: 'the usual macOS place' })));
  if (platform === 'win32') out.push(...windowsPlaces(env).map((p) => ({ path: p, where: 'the usual Windows place' })));
  return out;
}

function isExecutableFile(file) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first candidate that is an executable file, or null. */
export function findChromium(options = {}) {
  return chromiumCandidates(options).find((c) => isExecutableFile(c.path)) ?? null;
}

function runCommand(command, args) {
  return spawnSync(command, args, { stdio: 'inherit', shell: process.platform === 'win32' }).status === 0;
}

/**
 * Finds a Chromium, installing one when there is none: first Playwright's own
 * (`npx playwright install chromium`), then, on Debian or Ubuntu as root, Debian's package. Says
 * each step in one line through `log`; returns the executable's path, or null after one line
 * saying what to run. `run(command, args)` runs a command and says whether it succeeded (tests
 * pass their own, so nothing is installed by a test).
 */
export function ensureChromium({
  log = (line) => process.stdout.write(`${line}\n`),
  run = runCommand,
  isRoot = process.getuid?.() === 0,
  isDebian = fs.existsSync('/etc/debian_version'),
  ...search
} = {}) {
  const found = () => {
    const hit = findChromium(search);
    if (hit) log(`Chromium for the end-to-end tests: ${hit.path} (${hit.where})`);
    return hit?.path ?? null;
  };
  const env = search.env ?? process.env;
  if (env.CHROMIUM_PATH && !isExecutableFile(env.CHROMIUM_PATH)) {
    log(`$CHROMIUM_PATH is ${env.CHROMIUM_PATH}, which is not an executable file: looking elsewhere`);
  }
  const first = found();
  if (first) return first;

  log('No Chromium found ($CHROMIUM_PATH, Playwright\'s browsers, chromium or google-chrome on PATH, the usual places): trying `npx playwright install chromium`');
  if (run('npx', ['playwright', 'install', 'chromium'])) {
    const installed = found();
    if (installed) return installed;
  }
  if ((search.platform ?? process.platform) === 'linux' && isRoot && isDebian) {
    log("Playwright's download did not give one: installing Debian's chromium (apt-get update && apt-get install -y chromium)");
    if (run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'chromium'])) {
      const installed = found();
      if (installed) return installed;
    }
  }
  log('No Chromium for the end-to-end tests: install one (Debian/Ubuntu: `sudo apt-get install -y chromium`; elsewhere: `npx playwright install chromium`) or set CHROMIUM_PATH to its executable, then run `npm test` again');
  return null;
}
