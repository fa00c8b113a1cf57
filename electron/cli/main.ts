/**
 * The `layover-desk` command line: finds the command named by the first words, reads its
 * options, runs it and turns what happened into an exit code.
 *
 * `runCli` takes its I/O as a parameter so tests run commands in-process; `bin/layover-desk.js`
 * calls `main()` with the real process.
 */
import { faultMessage } from '../node/faults.js';
import { appVersion } from '../node/paths.js';
import { ApiError, type ApiErrorCode } from '../../shared/api.js';
import { COMMANDS } from './commands.js';
import {
  EXIT_DONE,
  EXIT_FAILURE,
  EXIT_REFUSED,
  Failure,
  Refusal,
  parseCommandArgs,
  type CliIo,
  type Command,
} from './command.js';

/** The store's errors that mean "no" (exit 2); its others (`unavailable`, `failure`) are failures (exit 1). */
const REFUSED_CODES: ReadonlySet<ApiErrorCode> = new Set(['refused', 'not_found', 'bad_input', 'needs_confirmation']);

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.join(' ').length), 4);
  const lines = COMMANDS.map((c) => `  ${c.name.join(' ').padEnd(width)}  ${c.summary}`);
  return [
    'usage: layover-desk <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Every command takes --factory DIR (default: $LAYOVER_FACTORY, else the current folder)',
    'where it touches a factory, --create to make a new factory of a folder that is not one',
    'yet, --json on listings, --help, and --debug (a failure also prints its stack trace,',
    'for a bug report).',
    'Exit codes: 0 done, 2 refused or bad input (reason on stderr), 1 failure.',
  ].join('\n');
}

function findCommand(argv: string[]): { command: Command; rest: string[] } | undefined {
  const matches = COMMANDS.filter((c) => c.name.every((word, i) => argv[i] === word));
  const longest = matches.sort((a, b) => b.name.length - a.name.length)[0];
  return longest ? { command: longest, rest: argv.slice(longest.name.length) } : undefined;
}

/**
 * The commands whose names go on from the longest run of leading words that begins any of them
 * (`run` for `run --help`, `run` alone or `run stat`), with those words; undefined when none does.
 */
function findGroup(argv: string[]): { prefix: string[]; commands: Command[] } | undefined {
  const firstOption = argv.findIndex((word) => word.startsWith('-'));
  const words = firstOption === -1 ? argv : argv.slice(0, firstOption);
  for (let length = words.length; length >= 1; length--) {
    const prefix = words.slice(0, length);
    const commands = COMMANDS.filter((c) => c.name.length > length && prefix.every((word, i) => c.name[i] === word));
    if (commands.length > 0) return { prefix, commands };
  }
  return undefined;
}

function groupOverview(prefix: readonly string[], commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.join(' ').length));
  const group = prefix.join(' ');
  return [
    `usage: layover-desk ${group} <command> [options]`,
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.join(' ').padEnd(width)}  ${c.summary}`),
    '',
    `\`layover-desk ${group} <command> --help\` explains one.`,
  ].join('\n');
}

/** Given anywhere among a command's words: a failure is printed with its stack trace. */
const DEBUG_FLAG = '--debug';

/** The stack traces of an error and of what caused it, for `--debug`. */
function stackOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const own = error.stack ?? error.message;
  return error.cause === undefined ? own : `${own}\ncaused by: ${stackOf(error.cause)}`;
}

export async function runCli(allArgs: string[], io: CliIo): Promise<number> {
  const debug = allArgs.includes(DEBUG_FLAG);
  const argv = allArgs.filter((word) => word !== DEBUG_FLAG);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout(`${overview()}\n`);
    return EXIT_DONE;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    io.stdout(`${appVersion()}\n`);
    return EXIT_DONE;
  }
  const found = findCommand(argv);
  if (!found) {
    const group = findGroup(argv);
    if (group) {
      // The first words of a longer command (`run`): --help lists what follows them; anything
      // else is a command left unfinished, or a word of it mistyped, refused with the same list.
      const listing = groupOverview(group.prefix, group.commands);
      const rest = argv.slice(group.prefix.length);
      const mistyped = rest.length > 0 && !rest[0]!.startsWith('-');
      if (!mistyped && rest.some((word) => word === '--help' || word === '-h')) {
        io.stdout(`${listing}\n`);
        return EXIT_DONE;
      }
      const problem = mistyped ? `unknown command '${argv.join(' ')}'` : `which '${group.prefix.join(' ')}' command?`;
      io.stderr(`layover-desk: ${problem}\n\n${listing}\n`);
      return EXIT_REFUSED;
    }
    io.stderr(`layover-desk: unknown command '${argv.join(' ')}'\n\n${overview()}\n`);
    return EXIT_REFUSED;
  }
  const { command, rest } = found;
  try {
    const args = parseCommandArgs(command, rest);
    if (args.values.help === true) {
      io.stdout(`usage: layover-desk ${command.usage}\n\n${command.summary}\n\n${command.help}\n`);
      return EXIT_DONE;
    }
    const code = await command.run(args, io);
    return code ?? EXIT_DONE;
  } catch (error) {
    const name = command.name.join(' ');
    if (error instanceof Refusal || (error instanceof ApiError && REFUSED_CODES.has(error.code))) {
      io.stderr(`layover-desk ${name}: ${error.message}\n`);
      return EXIT_REFUSED;
    }
    const trace = debug ? `\n${stackOf(error)}` : '';
    if (error instanceof Failure || error instanceof ApiError) {
      io.stderr(`layover-desk ${name}: ${error.message}${trace}\n`);
      return EXIT_FAILURE;
    }
    const fault = faultMessage(error);
    if (fault !== null) {
      io.stderr(`layover-desk ${name}: ${fault}${trace}\n`);
      return EXIT_FAILURE;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`layover-desk ${name}: failed: ${debug ? stackOf(error) : `${message} (run it again with --debug for the stack trace)`}\n`);
    return EXIT_FAILURE;
  }
}

/** The error a write to a pipe whose reader has gone away (`layover-desk learnings | head -1`) ends with. */
function isClosedPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

export async function main(): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // A reader that stopped reading (`| head -1`) wants no more: what is left to print is dropped
  // and the command ends as it would have, quietly, as command-line tools do; without a
  // listener the EPIPE error would end the process with a stack trace.
  const closed = { stdout: false, stderr: false };
  const onError = (stream: 'stdout' | 'stderr') => (error: Error) => {
    if (!isClosedPipe(error)) throw error;
    closed[stream] = true;
  };
  process.stdout.on('error', onError('stdout'));
  process.stderr.on('error', onError('stderr'));
  const code = await runCli(process.argv.slice(2), {
    stdout: (text) => void (closed.stdout || process.stdout.write(text)),
    stderr: (text) => void (closed.stderr || process.stderr.write(text)),
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
  });
  process.exitCode = code;
}
