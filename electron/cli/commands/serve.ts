/**
 * `layover-desk serve`: the app in a browser tab, served on 127.0.0.1 with a per-start token.
 */
import path from 'node:path';
import { FACTORY_OPTION, Refusal, factoryTarget, flagOption, stringOption, type CliIo, type Command, type ParsedArgs } from '../command.js';
import { Desk } from '../../node/desk.js';
import type { DeskPort } from '../../node/host/deskPort.js';
import { startHost } from '../../node/host/http.js';
import { rendererDir } from '../../node/paths.js';
import { isDirectory, isFactory } from '../../node/factory.js';

export interface ServeOptions {
  factory: string;
  port: number;
  /** Called with the running host's URL once it listens. */
  onListening?: (url: string) => void;
  /** Told of every factory opened: the first, and each the window switches to. */
  onFactory?: (factory: string) => void;
  /** Prefix of the line that prints the URL. */
  banner?: string;
  /**
   * Watch `events/` by polling rather than by file-system events, which network drives do not
   * deliver (default: `LAYOVER_POLL=1` in the environment).
   */
  usePolling?: boolean;
}

/** Whether the environment asks for polling: `LAYOVER_POLL=1` (the app's Desk honours it too). */
export function pollingFromEnv(env: Record<string, string | undefined>): boolean {
  return env.LAYOVER_POLL === '1';
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return 0;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) throw new Refusal(`--port must be a number from 0 to 65535, not '${raw}'`);
  return Number(raw);
}

/** Opens the Desk on `factory`, serves it until `io.signal` aborts, then shuts down. */
export async function serve(options: ServeOptions, io: CliIo): Promise<number> {
  const usePolling = options.usePolling ?? pollingFromEnv(io.env);
  let desk: DeskPort;
  try {
    desk = await Desk.open(options.factory, {
      host: 'browser',
      usePolling,
      ...(options.onFactory ? { onFactoryOpened: options.onFactory } : {}),
    });
  } catch (error) {
    io.stderr(`layover-desk serve: cannot open the factory ${options.factory}: ${(error as Error).message}\n`);
    return 1;
  }
  let host;
  try {
    host = await startHost({
      handlers: desk.handlers,
      subscribe: (listener) => desk.onPush(listener),
      rendererDir: rendererDir(),
      port: options.port,
      log: (message) => io.stderr(`layover-desk serve: ${message}\n`),
    });
  } catch (error) {
    await desk.close();
    const message = (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? `port ${options.port} is in use` : (error as Error).message;
    throw new Refusal(message);
  }
  const watching = usePolling ? 'Watching events/ by polling (for network drives)\n' : '';
  io.stdout(`${options.banner ?? 'Layover Desk'} on ${options.factory}\nOpen ${host.url}\n${watching}(Ctrl+C stops it)\n`);
  options.onListening?.(host.url);
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await host.close();
  await desk.close();
  io.stdout('stopped\n');
  return 0;
}

export const serveCommand: Command = {
  name: ['serve'],
  summary: 'Serve the app on 127.0.0.1 for a browser (a tokened URL is printed)',
  usage: 'serve [--factory DIR] [--create] [--port N] [--poll]',
  options: { ...FACTORY_OPTION, port: { type: 'string', short: 'p' }, poll: { type: 'boolean' } },
  help: [
    'Serves the same window as the desktop app, over HTTP on 127.0.0.1 only, and prints its URL.',
    'The URL carries a random token made at each start: every request without it, the page',
    'included, is refused (401); requests naming another host or coming from another origin are',
    'refused too (403). Stop it with Ctrl+C.',
    '',
    'Options:',
    '  --factory, -f DIR  the factory to open (default: $LAYOVER_FACTORY, else the current folder)',
    '  --create           make a factory of a folder that is not one yet (no events/, layover.toml',
    '                     or .layover/ in it); without it such a folder is refused',
    '  --port, -p N       the port to listen on (default 0: any free port)',
    '  --poll             watch events/ by polling, for a factory on a network drive, which',
    '                     sends no file-system events (also: LAYOVER_POLL=1)',
  ].join('\n'),
  async run(args: ParsedArgs, io: CliIo) {
    const port = parsePort(stringOption(args, 'port'));
    const target = factoryTarget(args, io);
    const factory = path.resolve(io.cwd, target.dir);
    if (!target.create && isDirectory(factory) && !isFactory(factory)) {
      throw new Refusal(`${factory} is not a factory yet (no events/, layover.toml or .layover/ in it): check --factory, or give --create to make it a new factory`);
    }
    return serve({ factory, port, usePolling: flagOption(args, 'poll') || pollingFromEnv(io.env) }, io);
  },
};
