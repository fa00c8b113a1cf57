import { defineConfig } from 'vitest/config';

/**
 * Left out of the default run (`npm test`, CI) and run by `npm run test:kill`: the test that
 * SIGKILLs `serve` during replies. It passes when it finishes, but about one run in six hangs
 * until its time budget ends, for a reason not found yet (docs/development.md#known-limits); in
 * the default run that would fail every landing.
 */
const HANGS_AT_TIMES = ['test/integration/serveKill.test.ts'];

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/component/**/*.test.tsx'],
    exclude: ['**/node_modules/**', ...(process.env.LAYOVER_KILL_TESTS === '1' ? [] : HANGS_AT_TIMES)],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
