/**
 * `layover-desk serve` run in-process: it opens the factory, prints a tokened URL, serves until
 * the process is asked to stop, then shuts down cleanly.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../electron/cli/command.js';
import { runCli } from '../../electron/cli/main.js';
import { runStarted } from '../support/events.js';
import { appendEvents, eventually } from '../support/factory.js';

function io(controller: AbortController, cwd: string, env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env: { LAYOVER_USER_DATA: path.join(cwd, '.user-data'), ...env },
    cwd,
    signal: controller.signal,
  };
  return { io: value, out: () => out.join(''), err: () => err.join('') };
}

describe('layover-desk serve', () => {
  it('refuses a bad port (exit 2)', async () => {
    const cli = io(new AbortController(), os.tmpdir());
    expect(await runCli(['serve', '--port', 'eighty'], cli.io)).toBe(2);
    expect(cli.err()).toContain('--port');
  });

  it('refuses a folder that is not a factory yet unless --create says to make it one (exit 2), and makes nothing in it', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-serve-plain-'));
    const cli = io(new AbortController(), folder);
    expect(await runCli(['serve', '--factory', folder, '--port', '0'], cli.io)).toBe(2);
    expect(cli.err()).toContain('is not a factory yet (no events/, layover.toml or .layover/ in it): check --factory, or give --create');
    expect(fs.readdirSync(folder)).toEqual([]);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('is listed in --help and has its own help', async () => {
    const cli = io(new AbortController(), os.tmpdir());
    expect(await runCli(['--help'], cli.io)).toBe(0);
    expect(cli.out()).toMatch(/^\s+serve\s/m);
    expect(await runCli(['serve', '--help'], cli.io)).toBe(0);
    expect(cli.out()).toContain('usage: layover-desk serve [--factory DIR] [--create] [--port N]');
  });

  it('prints a tokened URL, refuses requests without the token, stops on the signal', async () => {
    const factory = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-serve-'));
    const controller = new AbortController();
    const cli = io(controller, factory);
    const running = runCli(['serve', '--factory', factory, '--create', '--port', '0'], cli.io);
    const printed = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{43})/;
    const match = await eventually(
      () => printed.exec(cli.out()) ?? undefined,
      () => `a tokened URL is printed (printed: ${cli.out()} ${cli.err()})`,
      20_000,
    );
    const origin = `http://127.0.0.1:${match[1]}`;
    expect((await fetch(`${origin}/`)).status).toBe(401);
    const call = await fetch(`${origin}/api/call/desk.info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-layover-token': match[2]! },
      body: '{}',
    });
    expect(await call.json()).toMatchObject({ ok: true, value: { host: 'browser', factory } });
    const stopping = Date.now();
    controller.abort();
    expect(await running).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(1000);
    expect(cli.out()).toContain('stopped');
    fs.rmSync(factory, { recursive: true, force: true });
  });
  /** Starts `serve ARGV` on a fresh factory and waits for its URL; `stop()` ends it and returns its exit code. */
  async function serving(argv: string[], env: Record<string, string> = {}) {
    const factory = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-serve-'));
    const controller = new AbortController();
    const cli = io(controller, factory, env);
    const running = runCli(['serve', '--factory', factory, '--create', '--port', '0', ...argv], cli.io);
    const printed = /http:\/\/127\.0\.0\.1:(\d+)\/\?token=([A-Za-z0-9_-]{43})/;
    const match = await eventually(() => printed.exec(cli.out()) ?? undefined, 'serve prints its URL', 20_000);
    const call = async (name: string, input: unknown) => {
      const response = await fetch(`http://127.0.0.1:${match[1]}/api/call/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-layover-token': match[2]! },
        body: JSON.stringify(input),
      });
      return (await response.json()) as { ok: boolean; value: unknown };
    };
    const stop = async () => {
      controller.abort();
      const code = await running;
      fs.rmSync(factory, { recursive: true, force: true });
      return code;
    };
    return { factory, cli, call, stop };
  }

  /** How the ingest thread watches events/, as the window's status reports it. */
  async function polling(served: Awaited<ReturnType<typeof serving>>): Promise<boolean> {
    return ((await served.call('desk.info', {})).value as { watcher: { polling: boolean } }).watcher.polling;
  }

  it('serve --poll watches events/ by polling (network drives send no file-system events) and applies a line appended while it runs', async () => {
    const served = await serving(['--poll']);
    expect(served.cli.out()).toContain('Watching events/ by polling');
    // The watcher starts once the ledger has passed its check, in the background.
    await eventually(
      async () => ((await served.call('desk.info', {})).value as { watcher: { state: string } }).watcher.state === 'watching',
      'the watcher has caught up',
      10_000,
    );
    expect(await polling(served)).toBe(true);
    appendEvents(served.factory, runStarted({ at: '2026-03-01T08:00:00.000Z', run: 'r1', agent: 'builder' }));
    await eventually(
      async () => ((await served.call('runs.list', {})).value as { total: number }).total === 1,
      'the appended run start is applied',
      10_000,
    );
    expect(await served.stop()).toBe(0);
  });

  it('LAYOVER_POLL=1 turns polling on for serve as --poll does; without either it watches by file-system events', async () => {
    const byEnv = await serving([], { LAYOVER_POLL: '1' });
    expect(byEnv.cli.out()).toContain('Watching events/ by polling');
    await eventually(async () => (await polling(byEnv)) || undefined, 'the first watcher polls');
    expect(await byEnv.stop()).toBe(0);
    const plain = await serving([]);
    expect(plain.cli.out()).not.toContain('polling');
    await eventually(
      async () => ((await plain.call('desk.info', {})).value as { watcher: { state: string } }).watcher.state === 'watching',
      'the second watcher has caught up',
      10_000,
    );
    expect(await polling(plain)).toBe(false);
    expect(await plain.stop()).toBe(0);
  });
});
