/**
 * What the window's end-to-end specs share: a Desk served by `layover-desk serve` on a fresh
 * demo factory per test, helpers to append events the way the factory does, and a way to ask
 * the running Desk through its own HTTP API (the page's cookie authorises it).
 *
 * The CLI is `node bin/layover-desk.js` (the built package); `LAYOVER_DESK_CLI` may name
 * another command line (e.g. `node --import tsx electron/cli/run.ts`) for running from source.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';
import type { CallInput, CallOutput, Channel } from '../../shared/api.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function cli(): string[] {
  const custom = process.env.LAYOVER_DESK_CLI?.trim();
  if (custom) return custom.split(/\s+/);
  return [process.execPath, path.join(ROOT, 'bin', 'layover-desk.js')];
}

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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-ui-'));
  const factory = path.join(dir, 'factory');
  const [cmd, ...pre] = cli();
  execFileSync(cmd!, [...pre, 'demo', factory], { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
  if (options.settings) {
    const file = path.join(factory, 'layover.toml');
    fs.writeFileSync(file, options.settings(fs.readFileSync(file, 'utf8')));
  }
  const child: ChildProcess = spawn(cmd!, [...pre, 'serve', '--factory', factory, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    factory,
    async stop() {
      if (child.exitCode === null && child.pid) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          child.kill('SIGTERM');
        }
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Appends one event line to today's (UTC) events file, as the factory does. */
export function appendEvent(factory: string, event: Record<string, unknown>): void {
  const day = new Date().toISOString().slice(0, 10);
  const file = path.join(factory, 'events', `${day}.jsonl`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.appendFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), ...event })}\n`);
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
