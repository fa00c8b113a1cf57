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
import { dispatch, parsePush, type CallInput, type CallOutput, type Channel, type DeskApi } from '../../shared/api.js';
import { Desk } from '../../electron/node/desk.js';
import { bridgeApi } from '../../renderer/api/bridge.js';
import { TestFactory } from '../support/testFactory.js';

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

/**
 * Longest wait for what the Desk's watcher does by itself (a line appended, taken up, pushed to
 * the window): a limit on waiting, not a time the test asserts. Wide, because the watcher is a
 * thread starting and reading on a shared, loaded machine.
 */
export const WATCHER_WAIT_MS = 15_000;

export interface RealDeskOptions {
  /** `layover.toml`, written before anything else. */
  settings?: string;
  /** Makes the factory's history before the Desk opens: write events, ingest, decide. */
  prepare?: (factory: TestFactory) => void | Promise<void>;
}

export interface RealDesk {
  factory: TestFactory;
  /** What the window is given: the Electron door over the real Desk. */
  api: DeskApi;
  /** A call through the same door, for a test to make a decision or read what the ledger holds. */
  call<C extends Channel>(channel: C, input: CallInput<C>): Promise<CallOutput<C>>;
  /** Every call the window sent through its door, in order (not the test's own `call`s). */
  sent: { channel: string; input: unknown }[];
}

/** The factories made and the Desks opened since the last `closeRealDesks`. */
const made: { factory: TestFactory; desk: Desk | null }[] = [];

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
  const clock = { startMs: Date.now() - CLOCK_START_BEFORE_NOW_MS, stepMs: CLOCK_STEP_MS };
  const factory = new TestFactory({ settings: options.settings, clock, prefix: 'layover-component-' });
  const entry: (typeof made)[number] = { factory, desk: null };
  made.push(entry);
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
