/**
 * What the window's end-to-end specs share: a Desk served by `layover-desk serve` on a fresh
 * demo factory per test, helpers to append events the way the factory does, and a way to ask
 * the running Desk through its own HTTP API (the page's cookie authorises it).
 *
 * The CLI runs as the tests' other processes do (`test/support/spawnCli.ts`): the build when it
 * is current, else the sources (`LAYOVER_TEST_CLI=source` forces them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import type { CallInput, CallOutput, Channel } from '../../shared/api.js';
import { startServe } from '../support/serve.js';
import { appendEvents, tempFactory } from '../support/factory.js';
import { runCliProcess } from '../support/spawnCli.js';

export interface DeskServer {
  url: string;
  factory: string;
  stop(): Promise<void>;
}

export interface DeskOptions {
  /**
   * Rewrites the demo's `layover.toml` before `serve` starts, for what the Desk does only on
   * opening a factory (the first sweep follows at once; the next not before a minute).
   */
  settings?: (toml: string) => string;
}

export async function startDesk(options: DeskOptions = {}): Promise<DeskServer> {
  const temp = tempFactory('layover-ui-');
  const factory = path.join(temp.dir, 'factory');
  try {
    const demo = await runCliProcess(['demo', factory]);
    if (demo.code !== 0) throw new Error(`layover-desk demo exited ${demo.code}: ${demo.stderr}`);
    if (options.settings) {
      const file = path.join(factory, 'layover.toml');
      fs.writeFileSync(file, options.settings(fs.readFileSync(file, 'utf8')));
    }
    const serve = await startServe(factory);
    return {
      url: serve.url,
      factory,
      async stop() {
        await serve.stop();
        temp.remove();
      },
    };
  } catch (error) {
    temp.remove();
    throw error;
  }
}

/** Appends one event, stamped now unless it has its own `at`, to the file of its UTC day, as the factory does. */
export function appendEvent(factory: string, event: Record<string, unknown>): void {
  appendEvents(factory, { at: new Date().toISOString(), ...event });
}

/** Asks the running Desk directly (same origin, the page's auth cookie). */
export async function call<C extends Channel>(page: Page, channel: C, input: CallInput<C>): Promise<CallOutput<C>> {
  const response = await page.request.post(new URL(`/api/call/${channel}`, page.url()).href, { data: input });
  const envelope = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } };
  if (!envelope.ok) throw new Error(`${channel}: ${envelope.error?.message}`);
  return envelope.value as CallOutput<C>;
}

/** Opens the window on a view and waits until it has data. */
export async function openDesk(page: Page, desk: DeskServer, view = 'needs'): Promise<void> {
  page.on('dialog', (dialog) => {
    throw new Error(`unexpected browser dialog: ${dialog.message()}`);
  });
  await page.goto(desk.url);
  await expect(page.getByRole('main')).toBeVisible();
  expect(page.url()).not.toContain('token=');
  if (view !== 'needs') await page.evaluate((v) => (window.location.hash = `#/${v}`), view);
}

export const test = base.extend<{ desk: DeskServer }>({
  // eslint-disable-next-line no-empty-pattern
  desk: async ({}, use) => {
    const desk = await startDesk();
    await use(desk);
    await desk.stop();
  },
});

export { expect };

/**
 * After a reply or a resolve the cursor moves on to the next open request; this waits for that,
 * then opens the handled request again (it stays listed) to read its outcome.
 */
export async function reopenHandled(page: Page, id: string): Promise<void> {
  await expect(page.locator('.request-item[aria-current="true"]')).not.toHaveAttribute('data-request', id);
  await page.locator(`[data-request="${id}"]`).click();
  await expect(page.getByText('Answered by')).toBeVisible();
}
