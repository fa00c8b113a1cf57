/**
 * The real Desk for component tests: a temporary factory, a real `Desk` opened on it (its ledger,
 * its ingest thread watching `events/`, its sweeps), and the window's own Electron door
 * (`bridgeApi`) wired to it the way the main process and the preload wire it: every call goes
 * through `dispatch` (the contract's schemas both ways) with its input and answer copied as IPC
 * copies them, and every push the Desk makes is checked against the contract before the window
 * hears it (main.ts drops one that does not fit; here it throws, which fails the test).
 *
 * Why not a stand-in: a hand-made fake answers what its author believed the Desk answers, so a
 * window test on it cannot notice the Desk and the window drifting apart (an order, a message, a
 * flag value). Here the state a test needs is made as a factory makes it (event lines, ingested by
 * the CLI before the Desk opens or by the Desk's watcher while it runs) and as a person makes it
 * (decisions through the same channels the window uses).
 *
 * What it costs: each Desk starts its ingest thread, about 0.8 s of CPU run from the sources
 * (most of it tsx's loader starting in the worker), so each test opens one Desk with only the
 * history it needs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { dispatch, parsePush, type CallInput, type CallOutput, type Channel, type DeskApi } from '../../shared/api.js';
import { Desk } from '../../electron/node/desk.js';
import { bridgeApi } from '../../renderer/api/bridge.js';
import { runIn, type CliResult } from '../support/cli.js';
import { helpRequested, runStarted, type EventLine } from '../support/events.js';
import { appendEvents, tempFactory, writeSettings } from '../support/factory.js';

/** The account the Desk reports as the operator's, the responder when none is typed. */
export const OS_USER = 'osuser';

/**
 * Where a factory's clock starts, before now: event times must lie in the Desk's windows that
 * count from the real clock (the last 30 days of the activity chart, the 90 days of retention a
 * sweep keeps), and stay in the past for as many events as a test writes.
 */
const CLOCK_START_BEFORE_NOW_MS = 2 * 24 * 60 * 60 * 1000;
/** Time between two events the clock gives: one second, so every event has a time of its own. */
const CLOCK_STEP_MS = 1000;

export interface AskOptions {
  id: string;
  agent?: string;
  question?: string;
  fatal?: boolean;
  workflow?: string;
  flags?: Record<string, unknown>;
  routes?: string[];
}

/**
 * Longest wait for what the Desk's watcher does by itself (a line appended, taken up, pushed to
 * the window): a limit on waiting, not a time the test asserts. Wide, because the watcher is a
 * thread starting and reading on a shared, loaded machine.
 */
export const WATCHER_WAIT_MS = 15_000;

/** A learning as `layover-desk learnings --json` lists it (the fields the tests read). */
interface ListedLearning {
  id: string;
  agent: string;
  text: string;
  state: string;
}

/** A temporary factory folder and the ways a test writes its history. */
export class RealFactory {
  readonly dir: string;
  readonly remove: () => void;
  private clock = Date.now() - CLOCK_START_BEFORE_NOW_MS;

  constructor() {
    ({ dir: this.dir, remove: this.remove } = tempFactory('layover-component-'));
    fs.mkdirSync(path.join(this.dir, 'events'));
  }

  /** The next event time, one step after the last. */
  at(): string {
    this.clock += CLOCK_STEP_MS;
    return new Date(this.clock).toISOString();
  }

  /** Appends event lines to the day files, as the factory does. */
  write(...events: EventLine[]): void {
    appendEvents(this.dir, ...events);
  }

  /**
   * A run that asks for help and waits: its request inherits the run's workflow, flags and
   * routes (a release run allowed to publish, by default).
   */
  ask(request: AskOptions): void {
    const run = `run_${request.id}`;
    const chain = `chain_${request.id}`;
    const { agent = 'builder', workflow = 'release', flags = { publish: true, tier: 'gold' }, routes = ['main'], ...asked } = request;
    this.write(
      runStarted({ at: this.at(), run, agent, chain, workflow, flags, routes }),
      helpRequested({ at: this.at(), agent, run, chain, ...asked }),
    );
  }

  /**
   * A request from a run the ledger never saw start (an older factory's): its workflow and flags
   * are unknown, so a reply must state them.
   */
  askUnknown(request: Omit<AskOptions, 'workflow' | 'flags' | 'routes'>): void {
    const { agent = 'builder', ...asked } = request;
    this.write(helpRequested({ at: this.at(), agent, run: `run_${request.id}`, chain: `chain_${request.id}`, ...asked }));
  }

  /** Appends raw text to an events file (a line a factory wrote wrongly). */
  writeRaw(file: string, text: string): void {
    fs.appendFileSync(path.join(this.dir, 'events', file), text);
  }

  /** Runs `layover-desk ARGV --factory DIR`, requiring it to succeed. */
  async cli(...argv: string[]): Promise<CliResult> {
    const result = await runIn(this.dir, ...argv);
    if (result.code !== 0) throw new Error(`layover-desk ${argv.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result;
  }

  /** Takes up what the events files hold, as `layover-desk ingest` does. */
  async ingest(): Promise<void> {
    await this.cli('ingest');
  }

  /** The learnings the ledger holds, as `layover-desk learnings --json` lists them. */
  async learnings(): Promise<ListedLearning[]> {
    return JSON.parse((await this.cli('learnings', '--json')).stdout) as ListedLearning[];
  }
}

export interface RealDeskOptions {
  /** `layover.toml`, written before anything else. */
  settings?: string;
  /** Makes the factory's history before the Desk opens: write events, ingest, decide. */
  prepare?: (factory: RealFactory) => void | Promise<void>;
}

export interface RealDesk {
  factory: RealFactory;
  /** What the window is given: the Electron door over the real Desk. */
  api: DeskApi;
  /** A call through the same door, for a test to make a decision or read what the ledger holds. */
  call<C extends Channel>(channel: C, input: CallInput<C>): Promise<CallOutput<C>>;
  /** Every call the window sent through its door, in order (not the test's own `call`s). */
  sent: { channel: string; input: unknown }[];
}

/** The factories made and the Desks opened since the last `closeRealDesks`. */
const made: { factory: RealFactory; desk: Desk | null }[] = [];

/** As IPC carries a value: a copy, so neither side holds the other's objects. */
const carried = <T>(value: T): T => structuredClone(value);

/** The window's door to `desk`, wired as main.ts and preload.ts wire it; each call is noted in `sent`. */
function windowApi(desk: Desk, sent: RealDesk['sent'] = []): DeskApi {
  return bridgeApi({
    invoke: async (channel, input) => {
      sent.push({ channel, input: carried(input) });
      return carried(await dispatch(desk.handlers, channel, carried(input)));
    },
    subscribe: (name, listener) =>
      desk.onPush((pushed, payload) => {
        if (pushed === name) listener(carried(parsePush(pushed, payload)));
      }),
  });
}

/**
 * A real Desk on a fresh factory, once its first catch-up is done. Closed, and its factory
 * deleted, by `closeRealDesks` (after the window is unmounted).
 */
export async function openRealDesk(options: RealDeskOptions = {}): Promise<RealDesk> {
  const factory = new RealFactory();
  const entry: (typeof made)[number] = { factory, desk: null };
  made.push(entry);
  if (options.settings !== undefined) writeSettings(factory.dir, options.settings);
  await options.prepare?.(factory);
  // The browser host's window types the path of a factory to open; the door is the Electron one
  // all the same, as both hosts answer through `dispatch` and check pushes against one contract.
  // A sweep follows every finished run (no least gap), as a test cannot wait a minute.
  const desk = await Desk.open(factory.dir, { host: 'browser', osUser: OS_USER, sweepMinGapMs: 0 });
  entry.desk = desk;
  await desk.idle();
  const sent: RealDesk['sent'] = [];
  const own = windowApi(desk);
  return { factory, api: windowApi(desk, sent), sent, call: (channel, input) => own.call(channel, input) };
}

/** Closes every Desk `openRealDesk` opened and deletes every factory it made. */
export async function closeRealDesks(): Promise<void> {
  for (const { desk, factory } of made.splice(0).reverse()) {
    await desk?.close();
    factory.remove();
  }
}
