/** The `layover-desk` command line run in this process, with what it printed captured. */
import { runCli } from '../../electron/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `layover-desk ARGV` in-process in `cwd` (no `--factory` added) and captures its output. */
export async function cli(argv: readonly string[], cwd: string, env: Record<string, string | undefined> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...argv], {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env,
    cwd,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

/** Runs `layover-desk ARGV --factory DIR` in-process and captures its output. */
export function runIn(factory: string, ...argv: string[]): Promise<CliResult> {
  return cli([...argv, '--factory', factory], factory);
}

/** Runs `layover-desk ARGV --json --factory DIR`, requires exit 0, and parses what it printed. */
export async function jsonIn<T = unknown>(factory: string, ...argv: string[]): Promise<T> {
  const result = await runIn(factory, ...argv, '--json');
  if (result.code !== 0) throw new Error(`layover-desk ${argv.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
