/**
 * `layover-desk mcp`: the agent side as a stdio Model Context Protocol server (docs/cli.md#mcp),
 * for agent harnesses that take their tools through MCP (Claude Code, Codex CLI, Cursor, ...).
 *
 * One session is one run. Without `--run`, the session owns its run: it appends `run.started`
 * (a new run and chain id, workflow `mcp`, the ids of the learnings it gives) before it
 * answers the client, and `run.finished` when the agent calls `finish_run`, or `stopped` when
 * the client goes away without it, so the Desk counts the run against the provisional learnings
 * as it counts any other. With `--run R --chain C` a scheduler owns the run (it recorded the
 * start and will record the end): the server only proposes and asks, and offers no finish_run.
 *
 * Every tool goes through the same functions as the CLI's agent side (`agentSide.ts`), so the
 * same line is refused for the same reason whichever door the agent uses. Tool arguments are
 * typed loosely on purpose (strings and booleans): the JSON schema the model reads states the
 * limits (max_text, the six categories, the outcomes), but the refusal comes from the shared
 * rule, in its words, not from a schema validator's.
 *
 * stdout is the protocol channel: nothing else is written there; diagnostics go to stderr.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ulid } from 'ulid';
import { z } from 'zod';
import { HELP_CATEGORIES, IMPACTS, RUN_OUTCOMES } from '../../../shared/domain.js';
import { appVersion } from '../../node/paths.js';
import type { LearningsFile } from '../../node/exporter.js';
import { FACTORY_OPTION, Refusal, factoryDir, stringOption, type CliIo, type Command } from '../command.js';
import { existingFactory, peekSettings } from '../ledgerAccess.js';
import { agentOption, askForHelp, currentLearnings, finishRun, proposeLearning, startRun } from './agentSide.js';
import { learningsMarkdown } from './context.js';

/** The workflow a run started by an MCP session records: how the work was asked for is "an agent in a harness". */
const MCP_WORKFLOW = 'mcp';

/**
 * The outcome recorded when the client goes away without calling finish_run
 * (docs/factory-format.md#events: `stopped`).
 */
const DISCONNECT_OUTCOME = 'stopped';

function learningsResourceUri(agent: string): string {
  return `layover://learnings/${agent}`;
}

interface SessionRun {
  run: string;
  chain: string;
  /** True when this session recorded the start, and so records the end. */
  owned: boolean;
  /** The outcome once finish_run was called (or the session ended it). */
  finished: string | null;
}

function toolText(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/**
 * Runs a tool. A refusal becomes a tool error the model reads (nothing was written); any other
 * error is a failure the operator must see too, so it is also told on stderr, and the model is
 * told it failed rather than that it was refused.
 */
function answer(io: CliIo, tool: string, work: () => string): CallToolResult {
  try {
    return toolText(work());
  } catch (error) {
    if (error instanceof Refusal) return { ...toolText(`Refused, nothing was recorded: ${error.message}`), isError: true };
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`layover-desk mcp: ${tool} failed: ${message}\n`);
    return { ...toolText(`Failed (not your input: the Desk's side went wrong): ${message}`), isError: true };
  }
}

function instructions(agent: string, session: SessionRun, given: LearningsFile): string {
  const finish = session.owned
    ? ' Call finish_run once, when your work is done, with how it went.'
    : '';
  return [
    `You are working as the agent "${agent}" (run ${session.run}). Layover Desk keeps what this agent learns from run to run.`,
    '',
    learningsMarkdown(given).trimEnd(),
    '',
    'Call propose_learning when you find out something durable that later runs should know (a gotcha, a command that works, a convention).',
    'Call ask_for_help when you need a person; with fatal: true when you cannot go on without the answer (then stop: the answer starts a new run, it does not come back to this one).' +
      finish,
  ].join('\n');
}

/**
 * The SDK is loaded when a server starts, not with the command line: every other command (and
 * `serve`, whose start the window waits for) would otherwise load it and all it brings.
 */
async function buildServer(root: string, io: CliIo, agent: string, session: SessionRun, given: LearningsFile): Promise<McpServer> {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const maxText = peekSettings(root, io).settings.learnings.max_text;
  const brief = learningsMarkdown(given);
  const server = new McpServer({ name: 'layover-desk', version: appVersion() }, { instructions: instructions(agent, session, given) });
  const stillRunning = (): void => {
    if (session.finished !== null) {
      throw new Refusal(`run ${session.run} has already finished (${session.finished}); a new session is a new run`);
    }
  };

  server.registerResource(
    'learnings',
    learningsResourceUri(agent),
    { title: `Learnings of ${agent}`, description: `What this run of ${agent} was given, most important first.`, mimeType: 'text/markdown' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: brief }] }),
  );

  server.registerTool(
    'propose_learning',
    {
      title: 'Propose a learning',
      description: [
        `Write down something durable you learned, for ${agent}'s later runs: it applies to them at once and lapses after a number of runs unless a later run arrives at it again.`,
        'Proposing one you were already given counts for nothing (an echo).',
        `Refused when the text is empty, longer than ${maxText} characters, holds control or invisible characters, is addressed to the model rather than about the work, would send secrets or run downloaded code, or is the same as a learning a person rejected.`,
      ].join(' '),
      inputSchema: {
        text: z.string().meta({ description: 'The learning, one plain sentence or two about the work.', minLength: 1, maxLength: maxText }),
        impact: z
          .string()
          .meta({ description: 'How much it would change a run (default medium).', enum: [...IMPACTS], default: 'medium' })
          .optional(),
      },
    },
    ({ text, impact }) =>
      answer(io, 'propose_learning', () => {
        stillRunning();
        const { file, echoOf } = proposeLearning(root, io, { agent, text, impact: impact ?? 'medium', run: session.run });
        if (echoOf) {
          return `Recorded (appended to ${file}), as an echo: it is the same as learning ${echoOf}, which ${agent} is already given, so it changes nothing.`;
        }
        return `Proposed (appended to ${file}). Later runs of ${agent} are given it once the Desk reads it.`;
      }),
  );

  server.registerTool(
    'ask_for_help',
    {
      title: 'Ask a person for help',
      description: [
        'Ask the person who runs this factory a question.',
        `The category, if you give one, is one of: ${HELP_CATEGORIES.join(', ')}.`,
        'With fatal: true you cannot go on without the answer: stop after asking; the answer starts a new run, it does not come back to this one.',
      ].join(' '),
      inputSchema: {
        question: z.string().meta({ description: 'The question, with what a person needs to answer it.', minLength: 1 }),
        category: z.string().meta({ description: 'What kind of help (optional).', enum: [...HELP_CATEGORIES] }).optional(),
        fatal: z.boolean().meta({ description: 'True when this run cannot go on without the answer.', default: false }).optional(),
      },
    },
    ({ question, category, fatal }) =>
      answer(io, 'ask_for_help', () => {
        stillRunning();
        const { id } = askForHelp(root, {
          agent,
          run: session.run,
          chain: session.chain,
          fatal: fatal ?? false,
          question,
          ...(category !== undefined && { category }),
        });
        return fatal
          ? `Asked (request ${id}). This run cannot get the answer: stop now${session.owned ? ', calling finish_run first' : ''}.`
          : `Asked (request ${id}). Go on with your work; a person may answer by starting a new run.`;
      }),
  );

  if (session.owned) {
    server.registerTool(
      'finish_run',
      {
        title: 'Finish this run',
        description: `Record that this run is over and how it went: ${RUN_OUTCOMES.join(', ')}. Call it once, last.`,
        inputSchema: { outcome: z.string().meta({ description: 'How the run went.', enum: [...RUN_OUTCOMES] }) },
      },
      ({ outcome }) =>
        answer(io, 'finish_run', () => {
          stillRunning();
          finishRun(root, { agent, run: session.run, outcome });
          session.finished = outcome;
          return `Run ${session.run} finished: ${outcome}.`;
        }),
    );
  }
  return server;
}

/** Resolves when the client is gone (stdin ended or closed) or the process is asked to stop. */
function untilDisconnected(stdin: NodeJS.ReadableStream, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

export const mcpCommand: Command = {
  name: ['mcp'],
  summary: 'Serve the agent side to an agent harness over MCP (stdio).',
  usage: 'mcp --agent A [--run R --chain C] [--factory DIR]',
  help: [
    'A Model Context Protocol server on stdin/stdout for an agent harness (register it in the',
    "harness's MCP configuration; see the README). It gives the agent its learnings, as the",
    `server's instructions and as the resource ${learningsResourceUri('<A>')}, and the tools`,
    'propose_learning, ask_for_help and finish_run, each checked exactly as `propose`, `ask` and',
    '`run finish` check them; a refusal is a tool error the model reads.',
    '',
    'One session is one run. Without --run, the session records its own run: run.started (a new',
    `run_ and chn_ id, workflow "${MCP_WORKFLOW}", the learnings given) when it starts, run.finished when`,
    `the agent calls finish_run, or "${DISCONNECT_OUTCOME}" when the client goes away without it. With`,
    '--run and --chain a scheduler owns the run (it records start and end): the session only',
    'proposes and asks, under that run, and offers no finish_run.',
    '',
    'stdout carries the protocol only; what the server has to say goes to stderr.',
    '',
    'Options:',
    '  --agent A      the agent (required)',
    '  --run R        the run a scheduler started (with --chain)',
    '  --chain C      the chain of that run (with --run)',
    '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
  ].join('\n'),
  options: { ...FACTORY_OPTION, agent: { type: 'string' }, run: { type: 'string' }, chain: { type: 'string' } },
  async run(args, io) {
    const agent = agentOption(args);
    const run = stringOption(args, 'run');
    const chain = stringOption(args, 'chain');
    if ((run === undefined) !== (chain === undefined)) {
      throw new Refusal('--run and --chain go together: a scheduler that owns the run passes both; without either the session records its own run');
    }
    const root = existingFactory(factoryDir(args, io));
    let session: SessionRun;
    let given: LearningsFile;
    if (run !== undefined && chain !== undefined) {
      session = { run, chain, owned: false, finished: null };
      given = currentLearnings(root, agent);
    } else {
      session = { run: `run_${ulid()}`, chain: `chn_${ulid()}`, owned: true, finished: null };
      given = startRun(root, { agent, run: session.run, chain: session.chain, workflow: MCP_WORKFLOW, flags: {}, routes: [] });
      io.stderr(`layover-desk mcp: run ${session.run} of ${agent} started (chain ${session.chain}), given ${given.learnings.length} learning${given.learnings.length === 1 ? '' : 's'}\n`);
    }

    const server = await buildServer(root, io, agent, session, given);
    const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
    await server.connect(new StdioServerTransport());
    await untilDisconnected(process.stdin, io.signal);
    if (session.owned && session.finished === null) {
      try {
        finishRun(root, { agent, run: session.run, outcome: DISCONNECT_OUTCOME });
        session.finished = DISCONNECT_OUTCOME;
        io.stderr(`layover-desk mcp: run ${session.run} ${DISCONNECT_OUTCOME}: the client went away without finish_run\n`);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        io.stderr(`layover-desk mcp: run ${session.run} could not be recorded as ${DISCONNECT_OUTCOME}: ${error.message}\n`);
      }
    }
    await server.close();
    process.stdin.destroy();
  },
};
