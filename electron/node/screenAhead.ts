/**
 * The screen, run ahead of ingest on a second thread.
 *
 * Why. Screening a proposal (rules/screen.ts) is pure CPU work: a fifth of ingesting a mixed
 * history, the largest single share (docs/performance-log.md#up-to-session-4-the-first-profiles).
 * Everything else ingest does writes to the ledger in order and has to stay on one connection; the
 * screen needs nothing but the text. So when a batch holds many proposals, their texts go to a
 * helper thread as the batch starts, and it screens them on the other core while ingest applies the
 * batch's lines in order. By the time ingest reaches a proposal its answer is usually there.
 *
 * Why it cannot change an answer. `screen(text, maxText)` is a pure function; the helper runs
 * the same code on the same arguments. Each text is claimed once, by whichever thread gets to it
 * first (an atomic compare-and-swap on a shared array): when ingest reaches a text the helper has
 * not claimed, ingest screens it itself; when the helper is working on it, ingest waits for that
 * one answer. A helper that is slow, crashed or never started only means ingest screens more
 * itself: after `HELPER_PATIENCE_MS` without an answer it screens the text in place too.
 *
 * A batch with few proposals (the watcher's usual trickle) is screened in place: starting the
 * thread costs more than a few dozen proposals.
 */
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { passedText, screen, type ScreenResult } from '../rules/screen.js';
import { workerEntry } from './workerEntry.js';

/** Fewer proposals than this in a batch are screened in place. */
export const MIN_PROPOSALS_AHEAD = 64;

/** How long ingest waits for the helper's answer to a text the helper has claimed, before screening it itself. */
const HELPER_PATIENCE_MS = 1_000;

/**
 * The state of one text in a job's shared array. The array's last slot counts answers given by
 * the helper. A text the helper lets through is answered in the array alone (`PASSED_BY_HELPER`:
 * the answer's text is `passedText` of the text ingest holds); only a refusal, with its rule and
 * reason, comes as a message. Posted one message per answer, the answers cost ingest's thread
 * more to take in (a message read and its object copied for every proposal) than the screen
 * left it to do.
 */
export const UNCLAIMED = 0;
export const CLAIMED_BY_INGEST = 1;
export const CLAIMED_BY_HELPER = 2;
export const PASSED_BY_HELPER = 3;
export const REFUSED_BY_HELPER = 4;

/** What the helper thread is sent: one batch's texts. */
export interface ScreenJob {
  job: number;
  texts: readonly string[];
  maxText: number;
  /** Int32Array over it: the state of each text, then the count of answers given. */
  claims: SharedArrayBuffer;
}

/** A refusal the helper posts, on the port it was started with, before it marks the text refused. */
export interface ScreenAnswer {
  job: number;
  index: number;
  result: ScreenResult & { ok: false };
}

export interface ScreenStart {
  port: MessagePort;
}

/** One batch's texts being screened: `result(i)` is `screen(texts[i], maxText)`, from whichever thread did it. */
export interface ScreenedBatch {
  result(index: number): ScreenResult;
  /** How many answers the helper thread has given so far. */
  posted(): number;
  /** How many of the answers given so far came from the helper thread. */
  byHelper(): number;
}

export class ScreenAhead {
  private worker: Worker | null = null;
  private answers: MessagePort | null = null;
  private failed = false;
  private jobs = 0;

  /** Starts screening `texts` ahead; in place when they are few or the helper cannot run. */
  screenAll(texts: readonly string[], maxText: number): ScreenedBatch {
    if (texts.length < MIN_PROPOSALS_AHEAD || !this.started()) return { result: (i) => screen(texts[i]!, maxText), posted: () => 0, byHelper: () => 0 };
    const job = ++this.jobs;
    const claims = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (texts.length + 1));
    const shared = new Int32Array(claims);
    const refusals = new Map<number, ScreenResult>();
    let helped = 0;
    const byHelper = (result: ScreenResult): ScreenResult => {
      helped++;
      return result;
    };
    this.worker!.postMessage({ job, texts, maxText, claims } satisfies ScreenJob);
    return {
      posted: () => Atomics.load(shared, texts.length),
      byHelper: () => helped,
      result: (index) => {
        const giveUpAt = Date.now() + HELPER_PATIENCE_MS;
        for (let state = Atomics.compareExchange(shared, index, UNCLAIMED, CLAIMED_BY_INGEST); ; state = Atomics.load(shared, index)) {
          if (state === UNCLAIMED) return screen(texts[index]!, maxText);
          if (state === PASSED_BY_HELPER) return byHelper({ ok: true, text: passedText(texts[index]!) });
          if (state === REFUSED_BY_HELPER) {
            // Posted before the text was marked, so it is on the port by now, unless `close`
            // closed the port with the helper: then the text is screened here. Waiting for a
            // message that can no longer come cost a second of spinning for every refusal the
            // helper had given before it was closed.
            for (let got = this.receive(); got !== undefined; got = this.receive()) if (got.job === job) refusals.set(got.index, got.result);
            const refusal = refusals.get(index);
            return refusal !== undefined ? byHelper(refusal) : screen(texts[index]!, maxText);
          }
          const left = giveUpAt - Date.now();
          if (left <= 0 || this.failed) return screen(texts[index]!, maxText);
          // The helper is screening it: wait for it to mark the text (or give up, see above).
          if (state === CLAIMED_BY_HELPER) Atomics.wait(shared, index, CLAIMED_BY_HELPER, left);
        }
      },
    };
  }

  /** Ends the helper thread (the batch answers already given stay valid); a later large batch starts another. */
  close(): void {
    void this.worker?.terminate();
    this.answers?.close();
    this.worker = null;
    this.answers = null;
  }

  private receive(): ScreenAnswer | undefined {
    const got = this.answers ? receiveMessageOnPort(this.answers) : undefined;
    return got?.message as ScreenAnswer | undefined;
  }

  private started(): boolean {
    if (this.worker) return true;
    if (this.failed) return false;
    try {
      const { port1, port2 } = new MessageChannel();
      const entry = workerEntry<ScreenStart>('screenWorker');
      const worker = new Worker(entry.url, { workerData: entry.workerData({ port: port2 }), transferList: [port2] });
      // Never keeps the process alive: the CLI ends when its ingest does.
      worker.unref();
      port1.unref();
      // A helper that fails or ends while in use is not started again: ingest screens in place.
      // One ended by `close` is not a failure, and a later batch may start another.
      worker.on('error', () => {
        if (this.worker === worker) this.failed = true;
      });
      worker.on('exit', () => {
        if (this.worker === worker) this.failed = true;
      });
      this.worker = worker;
      this.answers = port1;
      return true;
    } catch {
      this.failed = true;
      return false;
    }
  }
}
