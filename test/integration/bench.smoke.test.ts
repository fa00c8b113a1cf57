/**
 * `npm test` runs the quick benchmark once, as a check that every case still runs against the
 * code as it is now (the lead rewrites the internals the cases measure through). Nothing here
 * asserts a time or a target: the figures are the benchmark's to report, and a shared machine
 * would make any timed assertion flaky. What must hold is that every case ran and that
 * `results.json` has the documented shape, since tools and the README read it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CASES } from '../bench/cases/index.js';
import { REPO } from '../support/spawnCli.js';

/** Generous: the quick run takes about a minute alone, more beside the rest of the suite. It guards against a hang only. */
const HANG_LIMIT_MS = 15 * 60_000;

const out = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-bench-smoke-'));
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

function runQuickBench(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'test/bench/bench.ts', '--quick', '--out', file], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const nullableNumber = (value: unknown): boolean => value === null || (typeof value === 'number' && Number.isFinite(value));

describe('the benchmark', () => {
  it(
    'the quick run runs every case and writes results.json with case, value, unit, baseline, ratio, target and ok for each result',
    async () => {
      const file = path.join(out, 'results.json');
      const run = await runQuickBench(file);
      expect(run.stderr).toBe('');
      expect(run.code, run.stdout.slice(-3000)).toBe(0);
      const results = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>[];
      expect(Array.isArray(results)).toBe(true);
      for (const entry of results) {
        expect(Object.keys(entry).sort()).toEqual(['baseline', 'case', 'ok', 'ratio', 'target', 'unit', 'value']);
        expect(typeof entry.case).toBe('string');
        expect(typeof entry.unit).toBe('string');
        expect(typeof entry.target).toBe('string');
        expect(nullableNumber(entry.value)).toBe(true);
        expect(nullableNumber(entry.baseline)).toBe(true);
        expect(nullableNumber(entry.ratio)).toBe(true);
        expect(entry.ok === null || typeof entry.ok === 'boolean').toBe(true);
      }
      for (const bench of CASES) {
        const own = results.filter((entry) => String(entry.case).startsWith(`${bench.id}: `));
        expect(own.length, `results of case ${bench.id}`).toBeGreaterThan(0);
        expect(own.filter((entry) => String(entry.case).startsWith(`${bench.id}: failed`))).toEqual([]);
      }
      expect(run.stdout).toContain('Machine: ');
    },
    HANG_LIMIT_MS,
  );

  it('a case name --only does not know is refused with the list of cases, before anything runs', async () => {
    const child = spawn('npx', ['tsx', 'test/bench/bench.ts', '--only', 'ingest,nonsense'], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(`bench: --only names no case 'nonsense'; the cases are ${CASES.map((c) => c.id).join(', ')}`);
  });
});
