/**
 * `npm run bench` (`tsx test/bench/bench.ts`): the benchmark of issue 9, one case per module in
 * `cases/`, each timed against a baseline in the same run, printed as a table and written to
 * `bench/results.json` (see `BenchResult` in `harness.ts` for the shape).
 *
 *   --quick          small sizes, for a check within about a minute (`npm test` runs it once);
 *                    never builds, where full and scaled runs build first if the build is stale
 *   --scale S        the full sizes times S (e.g. 0.05), for trying the full path on slow code
 *   --only a,b       only the named cases (ids in the header)
 *   --out FILE       where to write the results (default bench/results.json)
 *
 * Exits 1 when a case could not run (it still appears in the results, failed), 2 on bad options;
 * a missed target is a figure, not a failure of the benchmark.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { REPO, compiledCliStaleReason } from '../support/spawnCli.js';
import {
  BenchWork,
  FULL_SIZES,
  QUICK_SIZES,
  failedResult,
  formatCount,
  machineLine,
  scaledSizes,
  tableHeader,
  tableRow,
  writeResults,
  type BenchCase,
  type BenchResult,
  type Sizes,
} from './harness.js';
import { serveProgram } from '../support/serve.js';
import { CASES } from './cases/index.js';

const DEFAULT_OUT = path.join(REPO, 'bench', 'results.json');

class BadOption extends Error {}

interface Options {
  quick: boolean;
  sizes: Sizes;
  mode: string;
  cases: readonly BenchCase[];
  out: string;
}

function options(argv: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { quick: { type: 'boolean' }, scale: { type: 'string' }, only: { type: 'string' }, out: { type: 'string' } },
      strict: true,
    }).values;
  } catch (error) {
    throw new BadOption((error as Error).message);
  }
  if (parsed.quick && parsed.scale !== undefined) throw new BadOption('--quick and --scale cannot be used together');
  let sizes = FULL_SIZES;
  let mode = 'full sizes';
  if (parsed.quick) {
    sizes = QUICK_SIZES;
    mode = '--quick sizes';
  } else if (parsed.scale !== undefined) {
    const scale = Number(parsed.scale);
    if (!Number.isFinite(scale) || scale <= 0 || scale > 1) throw new BadOption(`--scale must be a number above 0 and at most 1, not '${parsed.scale}'`);
    sizes = scaledSizes(scale);
    mode = `full sizes × ${scale}`;
  }
  let cases = CASES;
  if (parsed.only !== undefined) {
    const wanted = parsed.only.split(',').map((id) => id.trim()).filter((id) => id !== '');
    const unknown = wanted.filter((id) => !CASES.some((c) => c.id === id));
    if (unknown.length > 0 || wanted.length === 0) {
      throw new BadOption(`--only names no case ${unknown.map((id) => `'${id}'`).join(', ')}; the cases are ${CASES.map((c) => c.id).join(', ')}`);
    }
    cases = CASES.filter((c) => wanted.includes(c.id));
  }
  return { quick: parsed.quick === true, sizes, mode, cases, out: path.resolve(parsed.out ?? DEFAULT_OUT) };
}

function header(o: Options): string {
  const s = o.sizes;
  const lines = [
    'Layover Desk benchmark (issue 9): each case is timed against its baseline in this same run.',
    `Machine: ${machineLine()}`,
    `Sizes (${o.mode}): ${formatCount(s.events)} mixed events; ${formatCount(s.oneAgentLearnings)} learnings of one agent, ${formatCount(s.proposalsTimed)} proposals timed, ${formatCount(s.linesOnTop)} lines on top; shared ledger of ${formatCount(s.ledgerEvents)} mixed events; ${formatCount(s.rejected)} rejected; serve memory with ${formatCount(s.memoryLearnings)} learnings and ${formatCount(s.memoryRuns)} runs`,
    `Serve runs ${serveProgram()}.`,
    '',
    ...o.cases.map((c) => `  ${c.id.padEnd(13)} ${c.about}`),
    '',
  ];
  return lines.join('\n');
}

/**
 * Builds first (`scripts/ensure-built.js`) when a case runs serve and the build is stale, so that
 * the figures are of the program that ships. Never at `--quick`: the smoke test runs beside other
 * tests that use `dist/`, and a build replaces it under them; serve then runs from the sources.
 */
function buildIfStale(o: Options): boolean {
  if (o.quick || !o.cases.some((c) => c.runsServe) || compiledCliStaleReason() === null) return true;
  return spawnSync(process.execPath, [path.join(REPO, 'scripts', 'ensure-built.js')], { cwd: REPO, stdio: 'inherit' }).status === 0;
}

async function main(argv: string[]): Promise<number> {
  let o: Options;
  try {
    o = options(argv);
  } catch (error) {
    if (error instanceof BadOption) {
      process.stderr.write(`bench: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  if (!buildIfStale(o)) {
    process.stderr.write('bench: the build failed (see above), and serve would run other code than the sources\n');
    return 1;
  }
  const began = performance.now();
  console.log(header(o));
  let current = '';
  const work = new BenchWork((line) => console.log(`  [${current}] ${line}…`));
  const results: BenchResult[] = [];
  let failed = 0;
  const rows: string[] = [];
  try {
    for (const bench of o.cases) {
      const started = performance.now();
      current = bench.id;
      const log = (line: string): void => console.log(`  [${bench.id}] ${line}…`);
      try {
        const output = await bench.run({ sizes: o.sizes, work, log });
        for (const { result, note } of output.results) {
          results.push(result);
          rows.push(tableRow(result, note));
          console.log(`  [${bench.id}] ${result.case}: ${result.value ?? '—'} ${result.unit} (${result.ok === null ? 'no target' : result.ok ? 'target met' : 'target missed'})`);
        }
      } catch (error) {
        failed++;
        const entry = failedResult(bench.id, error);
        results.push(entry);
        rows.push(tableRow(entry, ''));
        console.log(`  [${bench.id}] could not run: ${error instanceof Error ? error.message : String(error)}`);
      }
      console.log(`  [${bench.id}] ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    work.remove();
  }
  console.log(`\n${tableHeader()}\n${rows.join('\n')}\n`);
  writeResults(o.out, results);
  console.log(`Results in ${path.relative(process.cwd(), o.out) || o.out}; ${((performance.now() - began) / 1000).toFixed(0)} s in all.`);
  return failed > 0 ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
