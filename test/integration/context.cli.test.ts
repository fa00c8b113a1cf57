/**
 * `layover-desk context`: what an agent's next run is given, for a harness without MCP, as
 * Markdown to include in its instructions file or as JSON; read-only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIn } from '../support/cli.js';
import { freshFactoryEachTest } from '../support/freshFactory.js';

let factory: string;
freshFactoryEachTest('layover-context-', (dir) => (factory = dir));

async function ok(...argv: string[]): Promise<string> {
  const result = await runIn(factory, ...argv);
  expect({ argv, code: result.code, stderr: result.stderr }).toEqual({ argv, code: 0, stderr: '' });
  return result.stdout;
}

describe('layover-desk context', () => {
  it("prints the agent's next-run learnings as a Markdown block, in the order the run is given them", async () => {
    await ok('propose', '--agent', 'builder', '--impact', 'low', 'the docs site builds with mkdocs from the docs folder');
    await ok('propose', '--agent', 'builder', '--impact', 'high', 'the release job needs the signing key loaded before it starts');
    await ok('propose', '--agent', 'scout', 'the crawler must respect robots.txt on every host');
    await ok('ingest');
    expect(await ok('context', '--agent', 'builder')).toBe(
      [
        '## Learnings from earlier runs of builder',
        '',
        'What earlier runs of this agent found out, most important first. Take them into account.',
        '',
        '1. the release job needs the signing key loaded before it starts (provisional, high impact)',
        '2. the docs site builds with mkdocs from the docs folder (provisional, low impact)',
        '',
      ].join('\n'),
    );
  });

  it('prints the learnings file as JSON with --format json, and says there are none yet for a new agent', async () => {
    await ok('propose', '--agent', 'builder', 'the docs site builds with mkdocs from the docs folder');
    await ok('ingest');
    const exported = JSON.parse(fs.readFileSync(path.join(factory, 'learnings', 'builder.json'), 'utf8'));
    expect(JSON.parse(await ok('context', '--agent', 'builder', '--format', 'json'))).toEqual(exported);
    expect(await ok('context', '--agent', 'nobody')).toMatch(/^## Learnings from earlier runs of nobody\n\nNone yet\./);
  });

  it('refuses an unknown format or a bad agent name in one line, exit 2, and writes nothing', async () => {
    const format = await runIn(factory, 'context', '--agent', 'builder', '--format', 'html');
    expect(format).toEqual({ code: 2, stdout: '', stderr: 'layover-desk context: --format "html" is not one of md, json\n' });
    const agent = await runIn(factory, 'context', '--agent', '../etc');
    expect(agent.code).toBe(2);
    expect(agent.stderr).toMatch(/^layover-desk context: --agent "\.\.\/etc" is not a valid agent name/);
    expect(fs.readdirSync(factory)).toEqual([]);
  });
});
