/**
 * `npm test` finds a Chromium on a fresh machine (scripts/find-chromium.js): the search order over
 * a fake PATH of real temporary files, and the install steps with a stand-in for the commands (no
 * test installs anything).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chromiumCandidates, ensureChromium, findChromium } from '../../scripts/find-chromium.js';

let dir: string;
let bin1: string;
let bin2: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-chromium-'));
  bin1 = path.join(dir, 'bin1');
  bin2 = path.join(dir, 'bin2');
  fs.mkdirSync(bin1);
  fs.mkdirSync(bin2);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function executable(file: string): string {
  fs.writeFileSync(file, '#!/bin/sh\n');
  fs.chmodSync(file, 0o755);
  return file;
}

const linux = (env: Record<string, string> = {}, playwrightPath: string | null = null) => ({
  env: { PATH: `${bin1}:${bin2}`, ...env },
  platform: 'linux' as const,
  playwrightPath,
});

describe('finding a Chromium for the end-to-end tests', () => {
  it('takes $CHROMIUM_PATH first, then Playwright\'s own browser, then the PATH commands', () => {
    const own = executable(path.join(dir, 'own-chromium'));
    const playwright = executable(path.join(dir, 'playwright-chrome'));
    executable(path.join(bin1, 'chromium'));
    expect(findChromium(linux({ CHROMIUM_PATH: own }, playwright))).toEqual({ path: own, where: '$CHROMIUM_PATH' });
    expect(findChromium(linux({}, playwright))).toEqual({ path: playwright, where: "Playwright's own browser" });
    expect(findChromium(linux({}, path.join(dir, 'not-downloaded')))).toEqual({ path: path.join(bin1, 'chromium'), where: '`chromium` on PATH' });
  });

  it('looks for chromium, chromium-browser, google-chrome and google-chrome-stable in that order, each along the whole PATH', () => {
    executable(path.join(bin1, 'google-chrome-stable'));
    expect(findChromium(linux())?.path).toBe(path.join(bin1, 'google-chrome-stable'));
    executable(path.join(bin1, 'google-chrome'));
    expect(findChromium(linux())?.path).toBe(path.join(bin1, 'google-chrome'));
    executable(path.join(bin2, 'chromium-browser'));
    expect(findChromium(linux())?.path).toBe(path.join(bin2, 'chromium-browser'));
    executable(path.join(bin2, 'chromium'));
    expect(findChromium(linux())).toEqual({ path: path.join(bin2, 'chromium'), where: '`chromium` on PATH' });
  });

  it('passes over what is not an executable file: a missing $CHROMIUM_PATH, a file without the execute bit, a folder', () => {
    fs.writeFileSync(path.join(bin1, 'chromium'), 'not a program');
    fs.mkdirSync(path.join(bin1, 'chromium-browser'));
    const chrome = executable(path.join(bin2, 'google-chrome'));
    expect(findChromium(linux({ CHROMIUM_PATH: path.join(dir, 'gone') }))?.path).toBe(chrome);
  });

  it('finds nothing on an empty PATH, and looks in the usual macOS and Windows places on those systems', () => {
    expect(findChromium(linux())).toBeNull();
    const mac = chromiumCandidates({ env: { PATH: '' }, platform: 'darwin', playwrightPath: null }).map((c) => c.path);
    expect(mac).toEqual(['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome', '/Applications/Chromium.app/Contents/MacOS/Chromium']);
    const windows = chromiumCandidates({ env: { PATH: '', PROGRAMFILES: 'C:\\Program Files' }, platform: 'win32', playwrightPath: null });
    expect(windows.map((c) => c.path)).toContain('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe');
  });
});

describe('getting a Chromium when there is none', () => {
  /** Stand-in commands: records each one and, for those listed in `installs`, puts a browser on the PATH. */
  function commands(results: Record<string, boolean>, installs: Record<string, string> = {}) {
    const ran: string[] = [];
    const run = (command: string, args: string[]) => {
      const line = [command, ...args].join(' ');
      ran.push(line);
      if (installs[line]) executable(installs[line]);
      return results[line] ?? false;
    };
    return { ran, run };
  }

  function setup(options: { isRoot: boolean; run: (command: string, args: string[]) => boolean }) {
    const lines: string[] = [];
    const found = ensureChromium({ ...linux(), isDebian: true, ...options, log: (line) => lines.push(line) });
    return { found, lines };
  }

  it('runs nothing and says which Chromium it uses when one is there', () => {
    const chromium = executable(path.join(bin1, 'chromium'));
    const { ran, run } = commands({});
    expect(setup({ isRoot: true, run })).toEqual({ found: chromium, lines: [`Chromium for the end-to-end tests: ${chromium} (\`chromium\` on PATH)`] });
    expect(ran).toEqual([]);
  });

  it("tries Playwright's download first", () => {
    const chromium = path.join(bin1, 'chromium');
    const { ran, run } = commands({ 'npx playwright install chromium': true }, { 'npx playwright install chromium': chromium });
    const { found, lines } = setup({ isRoot: true, run });
    expect(found).toBe(chromium);
    expect(ran).toEqual(['npx playwright install chromium']);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^No Chromium found .*: trying `npx playwright install chromium`$/);
  });

  it("installs Debian's chromium with apt-get when the download fails on Debian as root", () => {
    const chromium = path.join(bin2, 'chromium');
    const { ran, run } = commands(
      { 'apt-get update': true, 'apt-get install -y chromium': true },
      { 'apt-get install -y chromium': chromium },
    );
    const { found, lines } = setup({ isRoot: true, run });
    expect(found).toBe(chromium);
    expect(ran).toEqual(['npx playwright install chromium', 'apt-get update', 'apt-get install -y chromium']);
    expect(lines[1]).toBe("Playwright's download did not give one: installing Debian's chromium (apt-get update && apt-get install -y chromium)");
  });

  it('says in one line what to run when nothing works, and never runs apt-get when not root', () => {
    const { ran, run } = commands({});
    const { found, lines } = setup({ isRoot: false, run });
    expect(found).toBeNull();
    expect(ran).toEqual(['npx playwright install chromium']);
    for (const line of lines) expect(line).not.toContain('\n');
    expect(lines.at(-1)).toMatch(/^No Chromium for the end-to-end tests: install one .*sudo apt-get install -y chromium.*CHROMIUM_PATH/);
  });
});
