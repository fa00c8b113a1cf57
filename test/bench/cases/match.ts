/**
 * Case 2: matching proposals against L learnings of one agent as ingest matches them, against the
 * fastest brute force we could write for the same answers.
 *
 * Ingest brings the matching index in step with the ledger once a batch (`syncMatchIndex`, two
 * reads) and then matches every proposal of the batch with `matchesInStep`: the timed side does the
 * same, its proposals in one transaction synced once, each call fingerprinting the text, probing
 * the index and loading the learnings it matched, on a connection with the wider page cache
 * ingest's connection keeps while it catches up (store/pageCache.ts); on SQLite's 2 MB default
 * instead, which ingest never matches with, session 10 measured a higher p99 and sessions 23 to 25
 * the same (docs/performance-log.md#sessions-25-and-26-the-page-caches-second-ab-and-more-full-runs).
 * The one-off form the agent-side `check` uses (`matchingLearnings`, a transaction and the
 * staleness reads on every call) is timed too, in a second pass against the same brute force, on
 * SQLite's own page cache as that command opens the ledger, and reported without a target: it is
 * not what a stream of proposals costs. So is the index's probe alone (`matchedRowids`: fingerprint
 * and filters, no row read), in a third pass: it tells what the filters cost from what reading the
 * matched learnings adds. And a computation of fixed length, timed in every turn of the first pass,
 * tells how far this machine alone spreads a call between its p50 and its p99; and the clock read
 * alone for half a second after the passes tells why: how often the host takes the CPU away from
 * this thread, for how long, and whether at one point of every millisecond (`hostPauses.ts`); and
 * walks of dependent reads through 8 and 64 MB after that, what one read at a scattered place cost
 * this thread then, which the other two cannot tell (`scatteredReads.ts`).
 *
 * The brute force holds every learning's fingerprint in memory as interned word ids in flat typed
 * arrays. For a proposal it marks its words in a table indexed by word id, then walks all the
 * agent's learnings and counts marked words: the negation guard and the rewording / containment
 * bounds of `sameFingerprint` decide on those counts alone, and the few that pass are confirmed
 * with `sameFingerprint` itself, so the brute force gives exactly the rule's answers whatever the
 * rule's finer guards (the numbers guard) are. That is the bar an index must clear: if it is not
 * far faster than a scan, it is not worth its upkeep.
 *
 * Both sides see every proposal in turn, so the p50 and p99 come from the same moments. Every
 * proposal's answers are compared too: a filter that drops a true match is a wrong ledger, not a
 * fast one, and the case says so.
 */
import path from 'node:path';
import { fingerprint, sameFingerprint, MIN_WORDS_TO_CONTAIN, MOST_ELABORATION, REWORDING_THRESHOLD, type Fingerprint } from '../../../electron/rules/sameness.js';
import { openDb, type Db } from '../../../electron/node/store/db.js';
import { matchedRowids, matchesInStep, matchingLearnings, matchStats, syncMatchIndex } from '../../../electron/node/store/matching.js';
import { widenPageCache } from '../../../electron/node/store/pageCache.js';
import type { Learning } from '../../../shared/domain.js';
import { ProposalTexts } from '../corpus.js';
import { ONE_AGENT, formatCount, measured, percentile, result, timed, type BenchCase } from '../harness.js';
import { hostPauses } from '../hostPauses.js';
import { scatteredReads } from '../scatteredReads.js';

/** How many times faster than the brute force matching must be, at p50 and at p99. */
const LEAST_SPEEDUP = 20;
const TIMED_SEED = 21;

/** The agent's fingerprints as word ids in flat typed arrays: the brute force's whole state. */
class FlatFingerprints {
  private readonly ids = new Map<string, number>();
  private readonly words: Int32Array;
  private readonly starts: Int32Array;
  private readonly negated: Uint8Array;
  private readonly marks: Uint8Array;

  constructor(
    private readonly learning: readonly string[],
    private readonly prints: readonly Fingerprint[],
  ) {
    const total = prints.reduce((sum, p) => sum + p.words.length, 0);
    this.words = new Int32Array(total);
    this.starts = new Int32Array(prints.length + 1);
    this.negated = new Uint8Array(prints.length);
    let used = 0;
    prints.forEach((print, i) => {
      this.starts[i] = used;
      this.negated[i] = print.negated ? 1 : 0;
      for (const word of print.words) this.words[used++] = this.intern(word);
    });
    this.starts[prints.length] = used;
    this.marks = new Uint8Array(this.ids.size);
  }

  private intern(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) this.ids.set(word, (id = this.ids.size));
    return id;
  }

  /** The ids of the learnings `sameFingerprint` says are the same as `text`, in insertion order. */
  matching(text: string): string[] {
    const print = fingerprint(text);
    const p = print.words.length;
    if (p === 0) return [];
    const { words, starts, marks, negated } = this;
    const marked: number[] = [];
    for (const word of print.words) {
      const id = this.ids.get(word);
      if (id !== undefined) {
        marks[id] = 1;
        marked.push(id);
      }
    }
    const wantNegated = print.negated ? 1 : 0;
    const out: string[] = [];
    for (let i = 0; i < negated.length; i++) {
      if (negated[i] !== wantNegated) continue;
      const start = starts[i]!;
      const end = starts[i + 1]!;
      const q = end - start;
      let shared = 0;
      for (let k = start; k < end; k++) shared += marks[words[k]!]!;
      const shorter = p < q ? p : q;
      const rewording = shared / (p + q - shared) >= REWORDING_THRESHOLD;
      const containment = shared === shorter && shorter >= MIN_WORDS_TO_CONTAIN && (p < q ? q : p) <= shorter * MOST_ELABORATION;
      if ((rewording || containment) && sameFingerprint(print, this.prints[i]!)) out.push(this.learning[i]!);
    }
    for (const id of marked) marks[id] = 0;
    return out;
  }
}

function loadFlat(db: Db, agent: string): { flat: FlatFingerprints; idOfRowid: Map<number, string> } {
  const rows = db.prepare('SELECT rowid, id, text FROM learnings WHERE agent = ? ORDER BY rowid').all(agent) as { rowid: number; id: string; text: string }[];
  return {
    flat: new FlatFingerprints(
      rows.map((r) => r.id),
      rows.map((r) => fingerprint(r.text)),
    ),
    idOfRowid: new Map(rows.map((r) => [r.rowid, r.id])),
  };
}

const sameSet = (a: string[], b: string[]): boolean => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * Rounds of {@link fixedComputation}: about 40 µs here, the order of matching's median. It is
 * timed in every turn beside the two sides, so that each run shows what this machine alone
 * spreads a call of fixed length over between its p50 and its p99 (a virtual machine's other
 * tenants and its interrupts), to read matching's own p99 against
 * (docs/performance-log.md#session-12-matchings-slowest-calls).
 */
const FIXED_ROUNDS = 24_000;

/**
 * The spans walked with dependent reads after the passes (`scatteredReads.ts`): 8 MB, as large as
 * the brute force's arrays, which the CPU's caches hold here (some 40 ns a read), and 64 MB, which
 * they do not (some 175 ns). A neighbour on the host taking the caches would show in the first,
 * one taking the memory's bandwidth in the second.
 */
const SCATTERED_SPANS_MB = [8, 64];

/** Arithmetic of a fixed length that reads no memory, so the CPU caches' state does not change its time. */
function fixedComputation(): number {
  let x = 1;
  for (let i = 0; i < FIXED_ROUNDS; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  return x;
}

/** Both sides' times for each proposal in turn, how many answers differ, and how many proposals matched something. */
interface Turns {
  indexed: number[];
  brute: number[];
  /** {@link fixedComputation}'s time in each turn. */
  fixed: number[];
  disagreements: number;
  matched: number;
}

/**
 * Times `match`, the brute force and the fixed computation on every proposal, one after the
 * other, and compares the first two's answers (`ids` turns what `match` gave into learning ids,
 * untimed).
 */
function inTurns<T>(flat: FlatFingerprints, proposals: readonly string[], match: (text: string) => T, ids: (value: T) => string[]): Turns {
  const turns: Turns = { indexed: [], brute: [], fixed: [], disagreements: 0, matched: 0 };
  for (const text of proposals) {
    const expected = measured(() => flat.matching(text));
    const got = measured(() => match(text));
    turns.fixed.push(measured(fixedComputation).ms);
    turns.brute.push(expected.ms);
    turns.indexed.push(got.ms);
    if (!sameSet(expected.value, ids(got.value))) turns.disagreements++;
    if (expected.value.length > 0) turns.matched++;
  }
  return turns;
}

/** Learnings examined per proposal at the smaller sizes the issue asks about (1,000 and 10,000). */
function examinedAt(work: Parameters<BenchCase['run']>[0]['work'], largest: number): string {
  const out: string[] = [];
  for (const size of [1_000, 10_000].filter((n) => n < largest)) {
    const ledger = work.oneAgentLedger(size);
    const db = openDb(path.resolve(ledger.file));
    try {
      const texts = new ProposalTexts(TIMED_SEED);
      for (const text of ledger.texts) texts.remember(ONE_AGENT, text);
      const before = matchStats.examined;
      const probes = 500;
      for (let i = 0; i < probes; i++) matchingLearnings(db, ONE_AGENT, texts.text(ONE_AGENT));
      out.push(`${((matchStats.examined - before) / probes).toFixed(1)} at ${formatCount(size)}`);
    } finally {
      db.close();
    }
  }
  return out.length > 0 ? `examined per proposal: ${out.join(', ')}` : '';
}

/** p50 and p99 of both sides' times, and the ratios the target is on. */
function percentiles({ indexed, brute }: Turns): { p50: number; p99: number; b50: number; b99: number } {
  return { p50: percentile(indexed, 50), p99: percentile(indexed, 99), b50: percentile(brute, 50), b99: percentile(brute, 99) };
}

export const matchCase: BenchCase = {
  id: 'match',
  about: 'matching fresh proposals (30% rewordings) against L learnings of one agent as ingest does (index in step once a batch) ÷ an in-memory brute force over flat word-id arrays; p50 and p99; the one-off matchingLearnings too',
  run({ sizes, work }) {
    const ledger = work.oneAgentLedger(sizes.oneAgentLearnings);
    const db = openDb(path.resolve(ledger.file));
    try {
      const { flat, idOfRowid } = loadFlat(db, ONE_AGENT);
      const texts = new ProposalTexts(TIMED_SEED);
      for (const text of ledger.texts) texts.remember(ONE_AGENT, text);
      const proposals = Array.from({ length: sizes.proposalsTimed }, () => texts.text(ONE_AGENT));
      // Ingest's connection keeps a wider page cache while it catches up (store/pageCache.ts):
      // so does this one while it matches as ingest does.
      const narrowPageCache = widenPageCache(db);
      // The first call pays for whatever the store builds once per agent (an in-memory index):
      // timed on its own, so the percentiles are of steady use.
      const firstCall = timed(() => matchingLearnings(db, ONE_AGENT, texts.text(ONE_AGENT)));
      const learningIds = (learnings: Learning[]): string[] => learnings.map((l) => l.id);
      const examinedBefore = matchStats.examined;
      const inStep = db.transaction(() => {
        syncMatchIndex(db);
        return inTurns(flat, proposals, (text) => matchesInStep(db, ONE_AGENT, fingerprint(text)), learningIds);
      })();
      const examined = (matchStats.examined - examinedBefore) / proposals.length;
      // The agent-side check opens the ledger with SQLite's own page cache.
      narrowPageCache();
      const oneOff = inTurns(flat, proposals, (text) => matchingLearnings(db, ONE_AGENT, text), learningIds);
      const probeAlone = db.transaction(() => {
        syncMatchIndex(db);
        return inTurns(
          flat,
          proposals,
          (text) => matchedRowids(db, ONE_AGENT, fingerprint(text)),
          (rowids) => rowids.map((rowid) => idOfRowid.get(rowid) ?? `rowid ${rowid}`),
        );
      })();
      const disagreements = inStep.disagreements + oneOff.disagreements + probeAlone.disagreements;
      const at = `${formatCount(ledger.learnings)} learnings of one agent`;
      const speedup = { on: 'ratio', most: 1 / LEAST_SPEEDUP } as const;
      const { p50, p99, b50, b99 } = percentiles(inStep);
      const once = percentiles(oneOff);
      const probe = percentiles(probeAlone);
      const fixed50 = percentile(inStep.fixed, 50);
      const fixed99 = percentile(inStep.fixed, 99);
      const pauses = hostPauses();
      const walks = SCATTERED_SPANS_MB.map(scatteredReads);
      return {
        results: [
          {
            result: result(`match: p50 of one proposal against ${at}`, p50, 'ms', b50, speedup),
            note: `brute force ÷ matching = ${(b50 / p50).toFixed(1)}× (target ≥ ${LEAST_SPEEDUP}×); ${formatCount(proposals.length)} proposals in one batch, ${formatCount(inStep.matched)} with a match`,
          },
          {
            result: result(`match: p99 of one proposal against ${at}`, p99, 'ms', b99, speedup),
            note: `brute force ÷ matching = ${(b99 / p99).toFixed(1)}× (target ≥ ${LEAST_SPEEDUP}×); first call ${firstCall.toFixed(1)} ms (builds any per-agent index)`,
          },
          {
            result: result(`match: p99 of one one-off matchingLearnings call against ${at}`, once.p99, 'ms', once.b99, null),
            note: `a transaction and the staleness reads per call, as the agent-side check makes it: brute force ÷ it = ${(once.b50 / once.p50).toFixed(1)}× at p50, ${(once.b99 / once.p99).toFixed(1)}× at p99`,
          },
          {
            result: result(`match: p99 of the index's probe alone (no row read) against ${at}`, probe.p99, 'ms', probe.b99, null),
            note: `fingerprint and filters, the matched learnings not read: brute force ÷ it = ${(probe.b50 / probe.p50).toFixed(1)}× at p50, ${(probe.b99 / probe.p99).toFixed(1)}× at p99`,
          },
          {
            result: result(`match: p99 of a fixed computation timed in the same turns (this machine's own spread)`, fixed99, 'ms', null, null),
            note: `arithmetic reading no memory, p50 ${fixed50.toFixed(3)} ms: p99 ÷ p50 = ${(fixed99 / fixed50).toFixed(2)}×, against ${(p99 / p50).toFixed(2)}× for matching as ingest does and ${(b99 / b50).toFixed(2)}× for the brute force; the host paused this thread ${formatCount(pauses.perSecond)} times a second, ${(pauses.medianMs * 1000).toFixed(0)} µs at the median, ${(pauses.share * 100).toFixed(1)} % of its time, at one point of the millisecond in ${(pauses.onePoint * 100).toFixed(0)} % of its milliseconds (the clock read for ${Math.round(pauses.watchedMs)} ms after the passes)`,
          },
          ...walks.map((walk) => ({
            result: result(`match: one read at a scattered place in ${walk.megabytes} MB, at the median (this machine's memory)`, walk.medianNs, 'ns', null, null),
            note: `walks of dependent reads after the passes, each read's place given by the one before: p99 ÷ p50 of a walk = ${walk.spread.toFixed(2)}× over ${formatCount(walk.walks)} walks`,
          })),
          {
            result: result(`match: learnings examined per proposal against ${at}`, examined, 'learnings', null, { on: 'value', most: ledger.learnings / 20 }),
            note: `compared word by word after the filters; ${examinedAt(work, sizes.oneAgentLearnings)}`,
          },
          {
            result: result(`match: proposals whose answer differs from brute force`, disagreements, 'proposals', null, { on: 'value', most: 0 }),
            note: 'every way of matching must give exactly the answers of comparing with every learning of the agent (docs/rules.md#sameness)',
          },
        ],
      };
    } finally {
      db.close();
    }
  },
};
