import { FACTORY_OPTION, Refusal, factoryDir, printJson, stringOption, type Command } from '../command.js';
import { existingFactory } from '../ledgerAccess.js';
import type { LearningsFile } from '../../node/exporter.js';
import { agentOption, currentLearnings } from './agentSide.js';

const FORMATS = ['md', 'json'] as const;

/**
 * What an agent's next run is given, as a Markdown block: a heading, one plain sentence on what
 * the list is, and one numbered line per learning in the order the run is given them (most
 * important first). The same text is the MCP server's `instructions` and resource, so an agent
 * is told the same thing whichever way its harness takes it. Kept plain on purpose: it is read by
 * a model as part of its instructions, and anything more than the learnings competes with them.
 */
export function learningsMarkdown(file: LearningsFile): string {
  const heading = `## Learnings from earlier runs of ${file.agent}`;
  if (file.learnings.length === 0) {
    return `${heading}\n\nNone yet. When you find out something durable about this work, propose it as a learning.\n`;
  }
  const lines = file.learnings.map((l, i) => `${i + 1}. ${l.text} (${l.state}, ${l.impact} impact)`);
  return [
    heading,
    '',
    'What earlier runs of this agent found out, most important first. Take them into account.',
    '',
    ...lines,
    '',
  ].join('\n');
}

export const contextCommand: Command = {
  name: ['context'],
  summary: "Print what an agent's next run is given, for a harness without MCP (agent side).",
  usage: 'context --agent A [--format md|json] [--factory DIR]',
  help: [
    'Prints the learnings in learnings/<A>.json, the list the Desk writes for the agent\'s next',
    'run, in the order the run is given them. The Markdown form is a block to include in an',
    "agent harness's instructions file (AGENTS.md, CLAUDE.md, .cursor/rules) where the harness",
    'cannot use `layover-desk mcp`; regenerate it before each run, since the list changes as',
    'learnings are proposed, confirmed, lapse or are rejected. Nothing is written.',
    '',
    'It records no run: a scheduler that wants the Desk to know which learnings a run was given',
    'uses `run start`, which prints the same list.',
    '',
    'Options:',
    '  --agent A      the agent (required)',
    '  --format F     md (default): a Markdown block; json: { agent, generated_at, learnings: [{ id, text, state, impact }] }',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: { ...FACTORY_OPTION, agent: { type: 'string' }, format: { type: 'string' } },
  run(args, io) {
    const agent = agentOption(args);
    const format = stringOption(args, 'format') ?? 'md';
    if (!(FORMATS as readonly string[]).includes(format)) throw new Refusal(`--format ${JSON.stringify(format)} is not one of ${FORMATS.join(', ')}`);
    const file = currentLearnings(existingFactory(factoryDir(args, io)), agent);
    if (format === 'json') printJson(io, file);
    else io.stdout(learningsMarkdown(file));
  },
};
