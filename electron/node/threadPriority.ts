/**
 * Giving the CPU to the window first: the ingest thread asks the OS to run it after the threads
 * that want the CPU at the same moment (docs/development.md#architecture).
 *
 * Why. A catch-up keeps a core busy for minutes (the ingest thread, the screen's helper thread
 * it starts, and their collector). On a machine of two cores, the window's threads (the host's
 * event loop, the renderer) then wait for a core like any other: the host's event loop, timed
 * inside it every 5 ms, never paused more than 40 ms during a million-event catch-up, yet a call
 * to it was answered in 90–160 ms at worst, the time its answer waited to be run. A background
 * thread's lower priority makes the OS run the window's short bursts of work first; the catch-up
 * still gets every core nothing else wants, so alone it is as fast as before.
 *
 * How. On Linux a thread has its own nice value, set with `setpriority` on its thread id, and
 * the threads it starts (the screen's helper) inherit it. The id is read from
 * `/proc/thread-self`. Elsewhere (macOS, Windows), or where that fails, nothing changes: the
 * thread runs at the process's priority, as before.
 */
import fs from 'node:fs';
import os from 'node:os';

/**
 * How many nice steps below its own priority the ingest thread runs: at ten, a thread that wants
 * the CPU at the same time gets about nine tenths of a core against it. Relative, so a Desk
 * started with `nice` keeps its threads in the same order, and lowering needs no privilege.
 */
export const BACKGROUND_NICE_STEPS = 10;
/** The lowest priority there is (the highest nice value). */
const LOWEST_PRIORITY = 19;

/** The calling thread's id, where the OS gives one (Linux); null elsewhere. */
export function thisThreadId(): number | null {
  try {
    const id = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}

/** Lowers the calling thread's priority by `BACKGROUND_NICE_STEPS`, where the OS lets it (see above). */
export function runThisThreadInBackground(): void {
  const thread = thisThreadId();
  if (thread === null) return;
  try {
    os.setPriority(thread, Math.min(LOWEST_PRIORITY, os.getPriority(thread) + BACKGROUND_NICE_STEPS));
  } catch {
    // refused: the thread keeps the process's priority, as before
  }
}
