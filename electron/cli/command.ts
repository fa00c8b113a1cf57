/**
 * What every `layover-desk` command is made of, and how its words are read.
 *
 * Exit codes are part of the interface agents and scripts rely on: 0 done, 2 refused or bad
 * input (the reason on stderr), 1 failure (a bug or an I/O error). A command signals "refused"
 * by throwing `Refusal` (or a store's `ApiError` refused / not_found / bad_input), a failure it
 * can explain by throwing `Failure`; anything else thrown is a failure too. An I/O fault (disk
 * full, read-only, …) is printed as one line naming the path; the stack trace of anything is
 * printed only with `--debug`, for a bug report.
 */
// Arguments are read by Node's own parseArgs (node:util), a maintained parser that needs no package.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export const EXIT_DONE = 0;
export const EXIT_FAILURE = 1;
export const EXIT_REFUSED = 2;

/** Where a command writes and what it may read of its process, so tests can run it in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Aborted when the process is asked to stop (SIGINT/SIGTERM); long-running commands listen. */
  signal: AbortSignal;
}

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Command {
  /** The words that select it: `['run', 'start']` for `layover-desk run start`. */
  name: readonly string[];
  summary: string;
  /** The full `--help` text, after the usage line. */
  help: string;
  usage: string;
  options: Options;
  run(args: ParsedArgs, io: CliIo): Promise<number | void> | number | void;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/** A rule or the input said no: exit 2 with this message on stderr. */
export class Refusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Refusal';
  }
}

/**
 * Something outside the command went wrong in a way the operator can act on (a ledger that
 * cannot be opened, a file that cannot be written): exit 1 with this message on stderr, and no
 * stack trace, which would only bury it.
 */
export class Failure extends Error {
  /** `cause`: the error it explains, whose stack `--debug` prints. */
  constructor(message: string, options?: { cause: unknown }) {
    super(message, options);
    this.name = 'Failure';
  }
}

/**
 * Options every command that touches a factory takes. `--create` lets a command that opens the
 * ledger make a new factory of a folder that is not one yet (see `factoryTarget`).
 */
export const FACTORY_OPTION: Options = {
  factory: { type: 'string', short: 'f' },
  create: { type: 'boolean' },
};
export const JSON_OPTION: Options = {
  json: { type: 'boolean' },
};

export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (error) {
    throw new Refusal(`${(error as Error).message}\nusage: layover-desk ${command.usage}`);
  }
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function requiredOption(args: ParsedArgs, name: string): string {
  const value = stringOption(args, name);
  if (value === undefined || value.trim() === '') throw new Refusal(`--${name} is required`);
  return value;
}

export function listOption(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
}

export function flagOption(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}

/** A whole number option of at least 1 (`--limit`, `--batch`), `fallback` when absent, or a refusal naming it. */
export function intOption(args: ParsedArgs, name: string, fallback: number): number {
  const value = stringOption(args, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new Refusal(`--${name} must be a whole number of at least 1, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** The factory a command works on: `--factory DIR`, else `LAYOVER_FACTORY`, else the cwd. */
export function factoryDir(args: ParsedArgs, io: CliIo): string {
  return stringOption(args, 'factory') ?? io.env.LAYOVER_FACTORY ?? io.cwd;
}

/** The factory a command opens the ledger of, and whether it may make a new factory of the folder. */
export interface FactoryTarget {
  dir: string;
  create: boolean;
}

/** `factoryDir`, with `--create`: a folder that is not a factory yet is only made one when asked. */
export function factoryTarget(args: ParsedArgs, io: CliIo): FactoryTarget {
  return { dir: factoryDir(args, io), create: flagOption(args, 'create') };
}

export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * How every listing prints: with `--json` the rows as JSON (`json` maps each row, default as
 * is), else `empty` when there are none, else one text block per row from `line` (newline
 * added).
 */
export function printList<T>(
  io: CliIo,
  args: ParsedArgs,
  rows: readonly T[],
  text: { empty: string; line: (row: T) => string; json?: (row: T) => unknown },
): void {
  if (flagOption(args, 'json')) {
    printJson(io, text.json ? rows.map(text.json) : rows);
    return;
  }
  if (rows.length === 0) {
    io.stdout(`${text.empty}\n`);
    return;
  }
  for (const row of rows) io.stdout(`${text.line(row)}\n`);
}
