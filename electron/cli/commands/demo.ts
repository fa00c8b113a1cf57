import path from 'node:path';
import { JSON_OPTION, Refusal, flagOption, printJson, stringOption, type Command } from '../command.js';
import { createDemoFactory } from '../../node/demo.js';

export const demoCommand: Command = {
  name: ['demo'],
  summary: 'Create a demo factory with a realistic history, ready to open.',
  usage: 'demo [--seed N] [--json] DIR',
  help: [
    'Writes a factory into DIR (new or empty): four agents (builder, reviewer, publisher,',
    'scout) run for about 40 days up to now, with learnings in every state, echoes,',
    'rediscoveries, confirmations, refused proposals, a few malformed event lines, help',
    'requests of every category (some fatal and waiting for you) and a layover.toml; then',
    'ingests it. The same seed gives the same history.',
    '',
    'Options:',
    '  --seed N   seed of the history (default: a fixed one)',
    '  --json     print a summary as JSON',
  ].join('\n'),
  options: { ...JSON_OPTION, seed: { type: 'string' } },
  run(args, io) {
    const dir = args.positionals[0];
    if (!dir || args.positionals.length > 1) throw new Refusal('name exactly one folder to create the demo in');
    const seedText = stringOption(args, 'seed');
    if (seedText !== undefined && !/^\d+$/.test(seedText)) throw new Refusal(`--seed must be a whole number, not ${JSON.stringify(seedText)}`);
    let summary;
    try {
      summary = createDemoFactory(path.resolve(io.cwd, dir), seedText !== undefined ? { seed: Number(seedText) } : {});
    } catch (error) {
      if (/is not empty/.test((error as Error).message)) throw new Refusal((error as Error).message);
      throw error;
    }
    if (flagOption(args, 'json')) {
      printJson(io, summary);
      return;
    }
    io.stdout(
      `demo factory written to ${summary.factory}: ${summary.runs} runs, ${summary.events} event lines, ` +
        `learnings ${Object.entries(summary.states).map(([s, n]) => `${n} ${s}`).join(', ')}, ` +
        `${summary.help_requests} help requests, ${summary.refused_lines} refused lines\n`,
    );
  },
};
