/**
 * End-to-end tests. `chromium`: the browser host in the Chromium `$CHROMIUM_PATH` names (`npm
 * test` sets it from scripts/find-chromium.js, which also installs one when there is none),
 * else the first one that script finds (`npx playwright test` run directly), else Playwright's
 * own. `electron`: the desktop app through `_electron`, which skips itself where the Electron
 * runtime is not installed.
 */
import { defineConfig } from '@playwright/test';
import { findChromium } from './scripts/find-chromium.js';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'test/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    headless: true,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testDir: 'test/e2e',
      use: {
        browserName: 'chromium',
        launchOptions: {
          executablePath: findChromium()?.path,
          args: CHROMIUM_ARGS,
        },
      },
    },
    {
      name: 'electron',
      testDir: 'test/electron',
    },
  ],
});
