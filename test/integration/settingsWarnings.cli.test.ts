/** A layover.toml with very many unknown keys is warned about in a bounded number of lines. */
import { expect, it } from 'vitest';
import { MOST_LISTED } from '../../electron/rules/listing.js';
import { runIn } from '../support/cli.js';
import { writeSettings } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';

let factory: string;
freshFactoryEachTest('layover-warnings-', (dir) => (factory = dir));

const UNKNOWN_KEYS = 200_000;

it('a layover.toml with 200,000 unknown keys warns about the first 20 and then says how many more, on every command', async () => {
  const keys = Array.from({ length: UNKNOWN_KEYS }, (_, i) => `unknown_${i} = ${i}`).join('\n');
  writeSettings(factory, `[learnings]\nprovisional_runs = 5\n${keys}\n`);
  for (const argv of [['learnings'], ['propose', '--agent', 'builder', 'Run the migrations before the integration test suite.']]) {
    const result = await runIn(factory, ...argv);
    expect({ argv, code: result.code }).toEqual({ argv, code: 0 });
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    expect(warnings).toHaveLength(MOST_LISTED + 1);
    expect(warnings[0]).toBe('warning: layover.toml: unknown key learnings.unknown_0 is ignored');
    expect(warnings.at(-1)).toBe(`warning: layover.toml: and ${UNKNOWN_KEYS - MOST_LISTED} more warnings`);
  }
});
