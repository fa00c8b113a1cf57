/**
 * Starts the built `layover-desk serve` on a temporary factory and reads its URL from stdout.
 * `stop` removes the factory folder once serve has exited.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Served {
  url: string;
  origin: string;
  token: string;
  factory: string;
  output: () => string;
  stop(): Promise<number | null>;
}

const root = path.resolve(import.meta.dirname, '..', '..');

export async function startServe(): Promise<Served> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-e2e-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'bin', 'layover-desk.js'), 'serve', '--factory', dir, '--create', '--port', '0'], {
    cwd: root,
    env: { ...process.env, LAYOVER_USER_DATA: path.join(dir, '.user-data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 30 s:\n${output}`)), 30_000);
    const check = () => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before printing a URL:\n${output}`));
    });
  });
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token') ?? '',
    factory: dir,
    output: () => output,
    stop() {
      const exited = (code: number | null): number | null => {
        fs.rmSync(dir, { recursive: true, force: true });
        return code;
      };
      return new Promise((resolve) => {
        // A process ended by a signal keeps `exitCode` null, and its 'exit' has passed: do not wait for it.
        if (child.exitCode !== null || child.signalCode !== null) return resolve(exited(child.exitCode));
        child.once('exit', (code) => resolve(exited(code)));
        child.kill('SIGINT');
      });
    },
  };
}
