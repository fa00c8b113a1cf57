/**
 * `layover-desk` as a separate process, for the tests that need one (a SIGKILL mid-ingest, two
 * processes racing to reply).
 *
 * Which program runs: the compiled CLI (`bin/layover-desk.js`, which loads `dist/main/...`) when
 * `dist/` holds a build at least as new as every source file it is built from (`npm test` builds
 * first), since starting it takes a fraction of a second; otherwise the sources through tsx,
 * which is correct but takes more than a second per start, so tests give it more time
 * (`CLI_START_ALLOWANCE_MS`). A build stale when a process first asks is never used: it would
 * test old code. The choice then holds for the process (`sourcesReason`).
 * `LAYOVER_TEST_CLI=source` forces the sources.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { CliResult } from './cli.js';

export const REPO = path.resolve(import.meta.dirname, '..', '..');
const DIST = path.join(REPO, 'dist', 'main');
/** What `tsconfig.json` compiles into dist/main (it leaves out the preload script). */
const SOURCE_DIRS = ['electron', 'shared'];
const NOT_COMPILED = new Set([path.join('electron', 'preload.ts')]);

function sourceFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = path.join(rel, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(dir, child));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(child);
  }
  return out;
}

/** Why the compiled CLI cannot stand in for the sources, or null when it can. */
export function compiledCliStaleReason(): string | null {
  if (process.env.LAYOVER_TEST_CLI === 'source') return 'LAYOVER_TEST_CLI=source';
  for (const dir of SOURCE_DIRS) {
    for (const rel of sourceFiles(path.join(REPO, dir))) {
      const source = path.join(dir, rel);
      if (NOT_COMPILED.has(source)) continue;
      const compiled = path.join(DIST, source.replace(/\.ts$/, '.js'));
      let builtAt: number;
      try {
        builtAt = fs.statSync(compiled).mtimeMs;
      } catch {
        return `${path.relative(REPO, compiled)} is missing`;
      }
      if (fs.statSync(path.join(REPO, source)).mtimeMs > builtAt) return `${source} changed since the build`;
    }
  }
  return null;
}

/** `sourcesReason`'s answer once given; undefined until then. */
let decided: string | null | undefined;

/**
 * Why the CLIs this process starts run the sources, or null when they run the build: decided at
 * the first ask and kept for the process (a test file, a benchmark run), so that every CLI it
 * starts runs the same program, and a benchmark that names the program in its header names the
 * one its serve cases then run, even if a source is edited while it runs.
 */
export function sourcesReason(): string | null {
  if (decided === undefined) decided = compiledCliStaleReason();
  return decided;
}

/** Whether spawned CLIs run the compiled build (decided once per test file: `sourcesReason`). */
export function usesCompiledCli(): boolean {
  return sourcesReason() === null;
}

/** Extra time a test gives each CLI process it starts: tsx compiling at start is slow, more so under load. */
export function cliStartAllowanceMs(): number {
  return usesCompiledCli() ? 1_000 : 5_000;
}

/** How to start `layover-desk ARGS`: the compiled bin when it is current, else the sources via tsx. */
export function cliInvocation(args: readonly string[]): string[] {
  return usesCompiledCli()
    ? [path.join(REPO, 'bin', 'layover-desk.js'), ...args]
    : ['--import', 'tsx', path.join(REPO, 'electron', 'cli', 'run.ts'), ...args];
}

/** Starts `layover-desk ARGS` as a child process in the repository folder. */
export function spawnCli(
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; stdio?: StdioOptions } = {},
): ChildProcess {
  return spawn(process.execPath, cliInvocation(args), {
    cwd: REPO,
    env: { ...process.env, ...options.env },
    stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `layover-desk ARGS` as a child process to the end and captures its output. */
export function runCliProcess(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, { env });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
