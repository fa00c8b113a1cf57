/**
 * `npm start`'s decisions, in plain Node: is the Electron runtime there (without loading the
 * `electron` package), which factory opens, and which host opens it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectElectronRuntime } from '../../electron/node/electronRuntime.js';
import { chooseFactory, demoFactoryDir, ensureDemoFactory, factoryArgument, planLaunch } from '../../electron/node/launcher.js';
import { readUserState, updateUserState, userDataDir } from '../../electron/node/userState.js';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-launch-'));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A fake project with an `electron` package in node_modules, as npm leaves it. */
function fakeElectron(options: { pathTxt?: string; binary?: boolean }): string {
  const project = path.join(tmp, 'project');
  const pkg = path.join(project, 'node_modules', 'electron');
  fs.mkdirSync(pkg, { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'electron', version: '41.0.0', main: 'index.js' }));
  // Loading the package would throw: detection must never do it.
  fs.writeFileSync(path.join(pkg, 'index.js'), 'throw new Error("loaded electron")');
  if (options.pathTxt !== undefined) fs.writeFileSync(path.join(pkg, 'path.txt'), options.pathTxt);
  if (options.binary) {
    fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'dist', options.pathTxt ?? 'electron'), '');
  }
  const from = path.join(project, 'main.js');
  fs.writeFileSync(from, '');
  return from;
}

describe('Electron runtime detection', () => {
  it('says not installed when the package has no binary (no path.txt)', () => {
    const runtime = detectElectronRuntime({ resolveFrom: fakeElectron({}), env: {} });
    expect(runtime).toMatchObject({ installed: false, executable: null, version: '41.0.0' });
    expect(runtime.reason).toContain('path.txt');
  });

  it('says not installed when path.txt names a missing binary', () => {
    const runtime = detectElectronRuntime({ resolveFrom: fakeElectron({ pathTxt: 'electron' }), env: {} });
    expect(runtime.installed).toBe(false);
    expect(runtime.reason).toContain('missing');
  });

  it('finds the binary named by path.txt under dist/', () => {
    const from = fakeElectron({ pathTxt: 'electron', binary: true });
    const runtime = detectElectronRuntime({ resolveFrom: from, env: {} });
    expect(runtime.installed).toBe(true);
    expect(runtime.executable).toBe(path.join(path.dirname(from), 'node_modules', 'electron', 'dist', 'electron'));
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH', () => {
    const from = fakeElectron({});
    const override = path.join(tmp, 'override');
    fs.mkdirSync(override);
    expect(detectElectronRuntime({ resolveFrom: from, env: { ELECTRON_OVERRIDE_DIST_PATH: override } }).installed).toBe(false);
    const name = process.platform === 'win32' ? 'electron.exe' : process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';
    fs.mkdirSync(path.dirname(path.join(override, name)), { recursive: true });
    fs.writeFileSync(path.join(override, name), '');
    expect(detectElectronRuntime({ resolveFrom: from, env: { ELECTRON_OVERRIDE_DIST_PATH: override } })).toMatchObject({
      installed: true,
      executable: path.join(override, name),
    });
  });

  it('says not installed when there is no electron package at all', () => {
    const from = path.join(tmp, 'empty', 'main.js');
    fs.mkdirSync(path.dirname(from));
    expect(detectElectronRuntime({ resolveFrom: from, env: {} })).toMatchObject({ installed: false, version: null });
  });

  it('gives an answer for this repository without loading electron', () => {
    const runtime = detectElectronRuntime();
    expect(typeof runtime.installed).toBe('boolean');
    expect(runtime.installed ? runtime.reason : runtime.executable).toBeFalsy();
  });
});

describe('the user data folder', () => {
  it('follows each platform', () => {
    expect(userDataDir({}, 'linux', '/home/a')).toBe('/home/a/.config/layover-desk');
    expect(userDataDir({ XDG_CONFIG_HOME: '/xdg' }, 'linux', '/home/a')).toBe('/xdg/layover-desk');
    expect(userDataDir({ XDG_CONFIG_HOME: 'relative' }, 'linux', '/home/a')).toBe('/home/a/.config/layover-desk');
    expect(userDataDir({}, 'darwin', '/Users/a')).toBe('/Users/a/Library/Application Support/layover-desk');
    expect(userDataDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32', 'C:\\Users\\a')).toContain('layover-desk');
    expect(userDataDir({ LAYOVER_USER_DATA: '/data' }, 'linux', '/home/a')).toBe('/data');
  });

  it('remembers state, and reads a damaged file as empty', () => {
    expect(readUserState(tmp)).toEqual({});
    updateUserState(tmp, { lastFactory: '/f1' });
    updateUserState(tmp, { window: { width: 900, height: 700, maximized: true } });
    expect(readUserState(tmp)).toEqual({ lastFactory: '/f1', window: { width: 900, height: 700, maximized: true } });
    fs.writeFileSync(path.join(tmp, 'state.json'), '{not json');
    expect(readUserState(tmp)).toEqual({});
    fs.writeFileSync(path.join(tmp, 'state.json'), JSON.stringify({ lastFactory: 'relative/path', window: { width: -5, height: 10 } }));
    expect(readUserState(tmp)).toEqual({});
  });

  it('drops each stored part that does not check out on its own, and restores a position only when both coordinates are there', () => {
    const stored = (state: unknown) => fs.writeFileSync(path.join(tmp, 'state.json'), JSON.stringify(state));
    stored({ lastFactory: '/f1', window: { width: 100, height: 700 } });
    expect(readUserState(tmp)).toEqual({ lastFactory: '/f1' });
    stored({ lastFactory: 'relative', window: { x: 10.4, y: 20.6, width: 900.2, height: 700, maximized: 'yes' } });
    expect(readUserState(tmp)).toEqual({ window: { x: 10, y: 21, width: 900, height: 700, maximized: false } });
    stored({ window: { x: 10, width: 900, height: 700, maximized: true } });
    expect(readUserState(tmp)).toEqual({ window: { width: 900, height: 700, maximized: true } });
    stored(['not', 'an', 'object']);
    expect(readUserState(tmp)).toEqual({});
  });
});

describe('choosing the factory', () => {
  it('reads --factory in its spellings', () => {
    expect(factoryArgument(['--factory', '/a'])).toBe('/a');
    expect(factoryArgument(['x', '--factory=/b'])).toBe('/b');
    expect(factoryArgument(['-f', 'c'])).toBe('c');
    expect(factoryArgument([])).toBeUndefined();
  });

  it('prefers the argument, then $LAYOVER_FACTORY, then the last one, then the demo', () => {
    const dataDir = path.join(tmp, 'data');
    const last = path.join(tmp, 'last');
    const base = { argv: [], env: {}, cwd: tmp, dataDir };
    expect(chooseFactory(base)).toEqual({ source: 'demo', factory: demoFactoryDir(dataDir) });
    updateUserState(dataDir, { lastFactory: last });
    // The remembered factory is gone: back to the demo.
    expect(chooseFactory(base).source).toBe('demo');
    fs.mkdirSync(last);
    expect(chooseFactory(base)).toEqual({ source: 'last', factory: last });
    expect(chooseFactory({ ...base, env: { LAYOVER_FACTORY: 'env-f' } })).toEqual({ source: 'environment', factory: path.join(tmp, 'env-f') });
    expect(chooseFactory({ ...base, argv: ['--factory', 'arg-f'], env: { LAYOVER_FACTORY: 'env-f' } })).toEqual({
      source: 'argument',
      factory: path.join(tmp, 'arg-f'),
    });
  });

  it('creates the demo factory once and leaves it alone afterwards', async () => {
    const demo = path.join(tmp, 'data', 'demo-factory');
    const filled: string[] = [];
    const fill = (dir: string) => filled.push(dir);
    expect(await ensureDemoFactory(demo, fill)).toBe('created');
    expect(fs.statSync(demo).isDirectory()).toBe(true);
    expect(filled).toEqual([demo]);
    fs.writeFileSync(path.join(demo, 'mine.txt'), 'operator was here');
    expect(await ensureDemoFactory(demo, fill)).toBe('existing');
    expect(filled).toEqual([demo]);
    expect(fs.readFileSync(path.join(demo, 'mine.txt'), 'utf8')).toBe('operator was here');
  });
});

describe('choosing the host', () => {
  it('opens Electron when its binary is there', () => {
    const plan = planLaunch({ installed: true, executable: '/x/electron', version: '41.0.0', reason: '' }, '/f', '/app/main.js');
    expect(plan).toEqual({ mode: 'electron', executable: '/x/electron', args: ['/app/main.js', '--factory', '/f'] });
  });

  it('falls back to the browser host when it is not', () => {
    const plan = planLaunch({ installed: false, executable: null, version: '41.0.0', reason: 'no binary' }, '/f', '/app/main.js');
    expect(plan).toEqual({ mode: 'browser', reason: 'no binary' });
  });
});
