/** One agent-name rule for the agent side and for ingest: Windows device names are refused with the reason. */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runIn } from '../support/cli.js';
import { proposed } from '../support/events.js';
import { appendEvents } from '../support/factory.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';

let factory: string;
freshFactoryEachTest('layover-names-', (dir) => (factory = dir));

it('an agent named con is refused by propose (exit 2, the reason) and by ingest, and no learnings/con.json is written', async () => {
  const propose = await runIn(factory, 'propose', '--agent', 'con', 'Run the migrations before the integration test suite.');
  expect(propose.code).toBe(2);
  expect(propose.stderr).toBe(
    'layover-desk propose: --agent "con" is not a valid agent name: con is a device name on Windows, where learnings/con.json cannot be a file\n',
  );
  appendEvents(factory, proposed({ at: '2026-11-20T08:00:00.000Z', agent: 'nul', text: 'the docs site builds with mkdocs' }));
  const ingest = await runIn(factory, 'ingest', '--json');
  expect(ingest.code).toBe(0);
  const result = JSON.parse(ingest.stdout) as { applied: number; refused: { reason: string }[] };
  expect(result.applied).toBe(0);
  expect(result.refused.map((r) => r.reason)).toEqual([expect.stringContaining('nul is a device name on Windows')]);
  expect(fs.existsSync(path.join(factory, 'learnings', 'nul.json'))).toBe(false);
});
