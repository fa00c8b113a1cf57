/**
 * The desktop app through Playwright's `_electron`: runs where the Electron runtime is
 * installed, and skips itself, saying why, where it is not (as on machines that cannot
 * download it). It launches the unpackaged build: the packaged app's fuses turn off the
 * inspector `_electron` needs.
 */
import path from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { detectElectronRuntime } from '../../electron/node/electronRuntime.js';
import { tempFactory } from '../support/factory.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const runtime = detectElectronRuntime();

if (!runtime.installed) console.log(`Electron runtime not installed: ${runtime.reason} — skipping the Electron app test`);
test.skip(!runtime.installed, `Electron runtime not installed: ${runtime.reason}`);

test('the app opens the factory in a hardened window', async () => {
  const folder = tempFactory('layover-electron-');
  const userData = tempFactory('layover-electron-data-');
  const factory = folder.dir;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  const app = await electron.launch({
    executablePath: runtime.executable ?? undefined,
    args: [path.join(root, 'dist', 'main', 'electron', 'main.js'), '--factory', factory, ...(process.env.CI ? ['--no-sandbox'] : [])],
    env: { ...env, LAYOVER_USER_DATA: userData.dir },
  });
  try {
    const page = await app.firstWindow();
    await expect(page).toHaveTitle('Layover Desk');
    await expect(page.getByRole('main')).toBeVisible();
    expect(page.url()).toBe('app://desk/index.html');
    // The page has no Node and sees only the typed bridge.
    const surface = await page.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      bridge: Object.keys((window as unknown as { layoverDesk: object }).layoverDesk).sort(),
    }));
    expect(surface).toEqual({ require: 'undefined', process: 'undefined', bridge: ['invoke', 'subscribe'] });
    const info = await page.evaluate(() => (window as unknown as { layoverDesk: { invoke(c: string, i: unknown): Promise<unknown> } }).layoverDesk.invoke('desk.info', {}));
    expect(info).toMatchObject({ ok: true, value: { host: 'electron', factory } });
    const bad = await page.evaluate(() => (window as unknown as { layoverDesk: { invoke(c: string, i: unknown): Promise<unknown> } }).layoverDesk.invoke('no.such', {}));
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    // Navigation away is denied.
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await page.waitForTimeout(300);
    expect(page.url()).toBe('app://desk/index.html');
    // One window, however the page tried to open others.
    await page.evaluate(() => window.open('https://example.com/'));
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  } finally {
    await app.close();
    folder.remove();
    userData.remove();
  }
});
