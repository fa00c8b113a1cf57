/**
 * `layover-desk` as one end of a pipe, in a process of its own: a reader that stops reading
 * early (`layover-desk runs --json | head -1`) must end the command quietly, as command-line
 * tools do, not with an EPIPE stack trace.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';
import { cliStartAllowanceMs, spawnCli } from '../support/spawnCli.js';

let factory: string;
freshFactoryEachTest('layover-pipe-', (dir) => (factory = dir));

/** Runs `layover-desk ARGS` with its stdout read by a reader that closes after the first line. */
function readFirstLineThenClose(args: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; first: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args);
    let out = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // `head -1`: the first line is all it wants; it closes its end of the pipe.
      if (out.includes('\n')) child.stdout!.destroy();
    });
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, first: out.split('\n')[0]!, stderr }));
  });
}

describe('a closed stdout', () => {
  it(
    'a reader that closes early (`layover-desk runs --json | head -1`) ends the command quietly: exit 0, no stack trace',
    async () => {
      const demo = path.join(factory, 'demo');
      expect((await cli(['demo', demo], factory)).code).toBe(0);
      // Hundreds of KiB of JSON: far more than a pipe holds, so the reader is gone before the end.
      const result = await readFirstLineThenClose(['runs', '--json', '--factory', demo]);
      expect(result.first).toBe('[');
      expect(result.stderr).not.toMatch(/EPIPE|\n\s+at /);
      expect(result.stderr).toBe('');
      expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
    },
    20_000 + cliStartAllowanceMs(),
  );
});
