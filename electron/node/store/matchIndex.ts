/**
 * The matching index: which of one agent's learnings sameness could call the same as a proposal,
 * found without comparing the proposal with all of them (docs/rules.md#sameness, "It must stay
 * fast").
 *
 * Why it exists. An agent's learnings only grow, and every proposal is matched against all of
 * them. Comparing with each costs as much as the agent has learnings; looking candidates up
 * through the proposal's rarest words in SQL (the first version) still grew with them, because
 * containment lets a same text share as few as half of the proposal's words, so half of the
 * proposal's words had to be read, common ones included. This index answers in time that grows
 * far slower, and it is exact: it returns precisely the learnings `sameFingerprint` says are the
 * same, which a property test checks against comparing with every learning.
 *
 * How. A learning is kept as its fingerprint: its significant words interned to integer ids,
 * sorted, and its negation. Ids are handed out in order of rarity (the rarest word of the agent
 * gets the smallest id when the index is built; a word first seen later is rarer still, so it
 * gets an id below all others), which makes "the first words of a sorted set" its rarest words.
 * The low bit of an id says whether the word holds a digit (the numbers guard needs that).
 * Texts with and without a negation never match, so each kind has its own partition.
 *
 * Sameness opens through one of three doors (`electron/rules/sameness.ts`), and each gets the
 * filter from the set-similarity-join literature that fits it:
 *
 * - Rewording (shared / union ≥ 0.8): prefix filtering with size and positional filters, as in
 *   AllPairs and PPJoin. If two sets share at least α words, then, in any one global order, the
 *   first n − α + 1 words of the one and the first m − α + 1 of the other share a word. Every
 *   learning is indexed by its first m − α + 1 words (α the least overlap any partner size
 *   needs), and a proposal probes with its first n − α + 1 words; a hit at positions i and j
 *   prunes the candidate when even all the words after them could not lift the overlap to α.
 * - Containment of the learning in the proposal (the learning is the shorter): every word of the
 *   learning is among the proposal's, so its two rarest words are too. Learnings are indexed by
 *   that pair, and the proposal looks up only pairs of its own words that could begin a
 *   contained set of an allowed length. A candidate thus shares at least two of the proposal's
 *   words, and rare ones, instead of any single word.
 * - Containment of the proposal in the learning (the proposal is the shorter): every proposal
 *   word is in the learning, so the learnings holding the proposal's least frequent word are the
 *   only candidates; a proposal word no learning holds ends the search at once.
 *
 * Every candidate is then decided by `sameCounts`, the rule itself, on an exact count of the
 * shared words: the filters only ever leave out sets that provably cannot be the same. All their
 * bounds are derived from the rule's own door functions, so changing a sameness constant changes
 * the filters with it.
 *
 * The index is pure memory: building it from the ledger and keeping it in step with the ledger's
 * writes is `matching.ts`'s job.
 */
import { containmentHolds, holdsDigit, rewordingHolds, sameCounts, scanWords, type Fingerprint } from '../../rules/sameness.js';

/**
 * Word ids start here, the rarest word at the bottom; words first seen after the index was built
 * count down from just below it. 2^24 each way keeps every id (below 2^26) a small integer to V8,
 * so a map keyed by ids hashes it without making a number object for each lookup.
 */
const ID_BASE = 2 ** 24;

/**
 * The containment door for a longer learning stops intersecting word lists once this few
 * candidates are left: each is then decided on an exact count, which costs less than reading
 * the remaining lists of common words (docs/performance-log.md#session-11-matchings-p99).
 */
const FEW_CANDIDATES = 4;

// ---------------------------------------------------------------------------------------------
// Bounds, all derived from the rule's door functions and memoised per size.

/**
 * The fewest shared words with which a set of `p` and one of `q` words are the same by
 * rewording, or -1 when no overlap makes them so (their sizes are too far apart).
 */
function rewordingNeed(p: number, q: number): number {
  for (let s = 1; s <= Math.min(p, q); s++) if (rewordingHolds(p, q, s)) return s;
  return -1;
}

interface SizeBounds {
  /** Sizes of a set that can be the same as one of this size by rewording: [lo, hi], lo > hi when none. */
  rewordLo: number;
  rewordHi: number;
  /**
   * `rewordingNeed(n, q)` for every q up to `rewordHi`: read for every prefix entry a probe
   * meets, where a memo keyed by the pair was a hash lookup each.
   */
  rewordNeed: Int16Array;
  /** How many first words of a set of this size the rewording filter indexes (and probes with). */
  prefix: number;
  /** Sizes q ≤ p of a set that can be contained in one of this size p: [lo, p], none when lo > p. */
  containedLo: number;
  /** Sizes q > p of a set that can contain one of this size p: (p, hi], none when hi ≤ p. */
  containingHi: number;
  /** Whether a set of this size can be the contained one at all (then it is indexed by its pair). */
  containable: boolean;
}

const boundsMemo: SizeBounds[] = [];

function bounds(n: number): SizeBounds {
  const known = boundsMemo[n];
  if (known) return known;
  let rewordLo = Infinity;
  let rewordHi = -Infinity;
  let leastNeed = Infinity;
  // Rewording is only possible between sizes whose ratio reaches the threshold, so a partner
  // more than twice as large or small never qualifies; 2n + 2 is a safe end for the scan.
  const rewordNeed = new Int16Array(2 * n + 3).fill(-1);
  for (let m = 1; m <= 2 * n + 2; m++) {
    const need = rewordingNeed(n, m);
    rewordNeed[m] = need;
    if (need < 0) continue;
    rewordLo = Math.min(rewordLo, m);
    rewordHi = Math.max(rewordHi, m);
    leastNeed = Math.min(leastNeed, need);
  }
  let containedLo = n + 1;
  for (let q = n; q >= 1; q--) if (containmentHolds(n, q, q)) containedLo = q;
  let containingHi = n;
  for (let q = n + 1; q <= 4 * n + 4; q++) if (containmentHolds(n, q, n)) containingHi = q;
  let containable = false;
  for (let p = n; p <= 4 * n + 4 && !containable; p++) containable = containmentHolds(p, n, n);
  const b: SizeBounds = {
    rewordLo,
    rewordHi,
    rewordNeed,
    prefix: leastNeed === Infinity ? 0 : n - leastNeed + 1,
    containedLo,
    containingHi,
    containable,
  };
  boundsMemo[n] = b;
  return b;
}

/**
 * The pair filter needs every set that can be contained in another to have at least two words.
 * If the sameness constants ever allowed containment of a one-word set, this index would miss
 * those matches; refusing to load is better than matching wrongly without a sound.
 */
if (bounds(1).containable) {
  throw new Error('matchIndex: containment of one-word sets is allowed, which the pair filter cannot find');
}

// ---------------------------------------------------------------------------------------------

/** A proposal ready to probe: its word ids sorted (unknown words negative, so first), and counts. */
interface Probe {
  ids: Int32Array;
  digits: number;
  negated: boolean;
  /** Whether some word of the proposal is in no learning of the agent. */
  unknown: boolean;
}

/**
 * Lists keyed by word id, in two dense arrays instead of a hash map: ids of the words known when
 * the index was built count up from {@link ID_BASE}, those of words seen later count down from
 * it, so each side is a run of small integers. Building the index makes a list entry for every
 * word of every learning (over a million at 100,000 learnings), and a hash lookup for each was
 * most of what the build cost.
 */
class ByWord<T = number[]> {
  private readonly known: (T | undefined)[] = [];
  private readonly later: (T | undefined)[] = [];

  /** `empty` makes the value of a word that has none yet. */
  constructor(private readonly empty: () => T) {}

  get(id: number): T | undefined {
    if (id < 0) return undefined; // a proposal's word that no learning holds
    const rank = id >>> 1;
    const side = rank >= ID_BASE ? this.known : this.later;
    const at = rank >= ID_BASE ? rank - ID_BASE : ID_BASE - 1 - rank;
    // Checked rather than read past the end: a read past an array's end sends V8's optimised
    // code back to the interpreter the first time it happens, which landed in timed calls.
    return at < side.length ? side[at] : undefined;
  }

  /** The value of `id`, created empty when it has none. */
  list(id: number): T {
    const rank = id >>> 1;
    const side = rank >= ID_BASE ? this.known : this.later;
    const at = rank >= ID_BASE ? rank - ID_BASE : ID_BASE - 1 - rank;
    let list = side[at];
    if (!list) {
      // Filled up to `at` so the array stays dense (a far write would make it a dictionary).
      while (side.length < at) side.push(undefined);
      side[at] = list = this.empty();
    }
    return list;
  }
}

/** The containable sets that begin with one word: their second words, ascending, and for each the slots of the sets that begin with the two. */
interface PairList {
  seconds: number[];
  slots: number[][];
}

interface Partition {
  /** Word id → slots whose set holds it, in slot order. */
  postings: ByWord;
  /**
   * Word id → (slot, position, size) triples, flat, for the words in each set's rewording prefix.
   * The size is kept beside the slot because the size filter reads it for every entry a probe
   * meets, and reading it from the set's place was a read at a random place in memory each.
   */
  prefixes: ByWord;
  /**
   * Smallest id → the second smallest ids of the containable sets beginning with it, sorted, and
   * their slots. Two levels rather than one map of packed pairs: a pair of ids packed into one
   * number is beyond V8's small integers, so every one of the proposal's pairs looked up made a
   * number object and hashed it, and a proposal word that begins no containable set skips all
   * its pairs with one array read. Sorted second words rather than a map of them: the proposal's
   * ids are sorted too, so one merge of the two finds every pair, where a map lookup for each of
   * the proposal's pairs was a few reads at random places each (4 µs of a 50 µs probe at the
   * median, with the CPU caches cold as the benchmark leaves them).
   */
  pairs: ByWord<PairList>;
}

const newList = (): number[] => [];

function newPartition(): Partition {
  return { postings: new ByWord(newList), prefixes: new ByWord(newList), pairs: new ByWord((): PairList => ({ seconds: [], slots: [] })) };
}

/** What a probe cost: how many learnings were compared word by word. */
export interface ProbeStats {
  examined: number;
}

/**
 * Where a learning's rowid and words come from while the index is built: `scan` gives its words
 * to `onWord` and says whether the learning is negated.
 */
interface Source<T> {
  rowid: (learning: T) => number;
  scan: (learning: T, onWord: (word: string) => void) => boolean;
}

/** Learnings a new index makes room for before it first grows its arrays. */
const INITIAL_SLOTS = 64;

/** One agent's learnings, as fingerprints, with the three filters over them. */
export class AgentMatchIndex {
  private readonly wordIds = new Map<string, number>();
  private nextNewRank = ID_BASE - 1;
  /**
   * Every learning's word ids, sorted, one after another in one array: the learning in slot s
   * holds `words[starts[s] .. starts[s + 1])`. Flat typed arrays rather than an array per
   * learning, because a hundred thousand small arrays are what made building slow (allocation and
   * the collector), and a slot is all a filter needs to read a set.
   */
  private words = new Int32Array(INITIAL_SLOTS * 16);
  private starts = new Int32Array(INITIAL_SLOTS + 1);
  private rowids = new Float64Array(INITIAL_SLOTS);
  private digitCounts = new Int32Array(INITIAL_SLOTS);
  private alive = new Uint8Array(INITIAL_SLOTS);
  private slots = 0;
  private readonly slotOf = new Map<number, number>();
  private readonly partitions: [Partition, Partition] = [newPartition(), newPartition()];
  private deadSlots = 0;
  /**
   * Per-probe scratch, stamped with the probe's epoch instead of cleared: for slot s,
   * `[3s]` the epoch its overlap was last reset in, `[3s + 1]` that overlap (−1 once pruned),
   * `[3s + 2]` the epoch it was last decided in. One array, not three, so that a slot's three
   * are one read from memory instead of three.
   */
  private scratch = new Int32Array(3 * 1024);
  private epoch = 0;

  /**
   * Builds the index over `learnings` (rowid and fingerprint), giving the rarest words the
   * smallest ids, so that the prefix filters read the rarest words first.
   */
  constructor(learnings: Iterable<{ rowid: number; fp: Fingerprint }> = []) {
    this.build(learnings, {
      rowid: (l) => l.rowid,
      scan: (l, onWord) => {
        for (const word of l.fp.words) onWord(word);
        return l.fp.negated;
      },
    });
  }

  /**
   * The index over learnings read from the ledger as `[rowid, text]` rows, taken one at a time as
   * they are read (a statement's `iterate`). The texts are split straight into word ids
   * (`scanWords`), with no fingerprint object per learning on the way, and each text can be
   * collected as soon as it is split: read all at once, the 100,000 texts of a large agent lived
   * through the whole build, and the collector copied them from space to space, a third of what
   * the build took (docs/performance-log.md#session-13-the-three-figures-at-the-edge-taken-apart).
   */
  static fromTexts(rows: Iterable<readonly [number, string]>): AgentMatchIndex {
    const index = new AgentMatchIndex();
    index.build(rows, { rowid: (row) => row[0], scan: (row, onWord) => scanWords(row[1], onWord) });
    return index;
  }

  /**
   * Fills an empty index in two passes. The first interns every word to a provisional number, in
   * the flat array the sets will live in, and counts in how many learnings each word is; the
   * second renumbers the words by rarity, sorts each set and indexes it.
   */
  private build<T>(learnings: Iterable<T>, source: Source<T>): void {
    const provisional = new Map<string, number>();
    const spelled: string[] = [];
    let frequency = new Int32Array(1024);
    let lastIn = new Int32Array(1024);
    let words = new Int32Array(INITIAL_SLOTS * 16);
    let used = 0;
    let starts = new Int32Array(INITIAL_SLOTS + 1);
    let negated = new Uint8Array(INITIAL_SLOTS);
    let rowids = new Float64Array(INITIAL_SLOTS);
    let learning = 0;
    const intern = (word: string): void => {
      let n = provisional.get(word);
      if (n === undefined) {
        n = spelled.length;
        provisional.set(word, n);
        spelled.push(word);
        frequency = grown(frequency, n + 1);
        lastIn = grown(lastIn, n + 1);
      }
      if (lastIn[n] === learning + 1) return; // a word a text repeats counts once
      lastIn[n] = learning + 1;
      frequency[n]!++;
      if (used === words.length) words = grown(words, used + 1);
      words[used++] = n;
    };
    for (const one of learnings) {
      starts = grown(starts, learning + 2);
      negated = grown(negated, learning + 1);
      rowids = grown(rowids, learning + 1);
      starts[learning] = used;
      rowids[learning] = source.rowid(one);
      negated[learning] = source.scan(one, intern) ? 1 : 0;
      learning++;
    }
    const count = learning;
    if (count === 0) return;
    starts[count] = used;
    const byRarity = spelled.map((_, n) => n);
    byRarity.sort((a, b) => frequency[a]! - frequency[b]! || (spelled[a]! < spelled[b]! ? -1 : 1));
    const idOfProvisional = new Int32Array(spelled.length);
    byRarity.forEach((n, rank) => {
      const id = idOf(ID_BASE + rank, spelled[n]!);
      idOfProvisional[n] = id;
      this.wordIds.set(spelled[n]!, id);
    });
    for (let k = 0; k < used; k++) words[k] = idOfProvisional[words[k]!]!;
    this.words = words;
    this.starts = starts;
    this.rowids = rowids;
    this.digitCounts = grown(this.digitCounts, count);
    this.alive = grown(this.alive, count);
    for (let slot = 0; slot < count; slot++) {
      sortRange(words, starts[slot]!, starts[slot + 1]!);
      this.place(slot, rowids[slot]!, negated[slot] === 1);
    }
    this.slots = count;
  }

  /** Learnings in the index, removed ones not counted. */
  get size(): number {
    return this.slots - this.deadSlots;
  }

  /** Whether so much of the index is removed learnings that building it afresh pays. */
  get wantsRebuild(): boolean {
    return this.deadSlots > 1000 && this.deadSlots * 2 > this.slots;
  }

  has(rowid: number): boolean {
    const slot = this.slotOf.get(rowid);
    return slot !== undefined && this.alive[slot] === 1;
  }

  /** Adds a learning (a new one, or one another process wrote). */
  add(rowid: number, fp: Fingerprint): void {
    if (this.has(rowid)) return;
    const slot = this.slots;
    const start = this.starts[slot]!;
    const end = start + fp.words.length;
    this.words = grown(this.words, end);
    fp.words.forEach((word, i) => {
      let id = this.wordIds.get(word);
      if (id === undefined) {
        id = idOf(this.nextNewRank--, word);
        this.wordIds.set(word, id);
      }
      this.words[start + i] = id;
    });
    sortRange(this.words, start, end);
    this.starts = grown(this.starts, slot + 2);
    this.starts[slot + 1] = end;
    this.rowids = grown(this.rowids, slot + 1);
    this.digitCounts = grown(this.digitCounts, slot + 1);
    this.alive = grown(this.alive, slot + 1);
    this.place(slot, rowid, fp.negated);
    this.slots = slot + 1;
  }

  /** Records the learning whose sorted ids are already in `slot`'s place and indexes it. */
  private place(slot: number, rowid: number, negated: boolean): void {
    const start = this.starts[slot]!;
    const n = this.starts[slot + 1]! - start;
    const ids = this.words;
    this.rowids[slot] = rowid;
    this.digitCounts[slot] = countDigits(ids, start, start + n);
    this.alive[slot] = 1;
    this.slotOf.set(rowid, slot);
    if (n === 0) return; // an empty set is the same as nothing
    const part = this.partitions[negated ? 1 : 0];
    for (let k = start; k < start + n; k++) part.postings.list(ids[k]!).push(slot);
    const b = bounds(n);
    for (let j = 0; j < b.prefix; j++) part.prefixes.list(ids[start + j]!).push(slot, j, n);
    if (b.containable) {
      const pairs = part.pairs.list(ids[start]!);
      const second = ids[start + 1]!;
      const at = lowerBound(pairs.seconds, second);
      if (pairs.seconds[at] === second) pairs.slots[at]!.push(slot);
      else {
        pairs.seconds.splice(at, 0, second);
        pairs.slots.splice(at, 0, [slot]);
      }
    }
  }

  /** Takes a learning out (a sweep deleted it); its entries stay behind, marked dead. */
  remove(rowid: number): void {
    const slot = this.slotOf.get(rowid);
    if (slot === undefined || this.alive[slot] !== 1) return;
    this.alive[slot] = 0;
    this.slotOf.delete(rowid);
    this.deadSlots++;
  }

  /** Rowids of the learnings sameness calls the same as `fp`, in the order they were added. */
  match(fp: Fingerprint, stats?: ProbeStats): number[] {
    const probe = this.probeOf(fp);
    const p = probe.ids.length;
    if (p === 0) return [];
    const part = this.partitions[probe.negated ? 1 : 0];
    this.nextEpoch();
    const found: number[] = [];
    const decide = (slot: number): void => {
      if (this.scratch[3 * slot + 2] === this.epoch || this.alive[slot] !== 1) return;
      this.scratch[3 * slot + 2] = this.epoch;
      if (stats) stats.examined++;
      if (this.sameAs(probe, slot)) found.push(slot);
    };
    this.rewordingCandidates(probe, part, decide);
    this.containedCandidates(probe, part, decide);
    this.containingCandidates(probe, part, decide);
    if (found.length > 1) found.sort((a, b) => a - b);
    const rowids: number[] = [];
    for (const slot of found) rowids.push(this.rowids[slot]!);
    return rowids;
  }

  private sizeOf(slot: number): number {
    return this.starts[slot + 1]! - this.starts[slot]!;
  }

  /** Door 1: prefix, size and positional filters for rewording. */
  private rewordingCandidates(probe: Probe, part: Partition, decide: (slot: number) => void): void {
    const ids = probe.ids;
    const p = ids.length;
    const b = bounds(p);
    const touched: number[] = [];
    const scratch = this.scratch;
    const epoch = this.epoch;
    for (let i = 0; i < b.prefix; i++) {
      const entries = part.prefixes.get(ids[i]!);
      if (!entries) continue;
      for (let e = 0; e < entries.length; e += 3) {
        const q = entries[e + 2]!;
        if (q < b.rewordLo || q > b.rewordHi) continue;
        const j = entries[e + 1]!;
        const need = b.rewordNeed[q]!;
        const after = Math.min(p - i - 1, q - j - 1);
        // Before the slot's scratch is read: the words the two share before positions i and j
        // are at most min(i, j), so this bound holds whatever earlier entries counted.
        if (Math.min(i, j) + 1 + after < need) continue;
        const slot = entries[e]!;
        const at = 3 * slot;
        if (scratch[at] !== epoch) {
          scratch[at] = epoch;
          scratch[at + 1] = 0;
          touched.push(slot);
        }
        const sofar = scratch[at + 1]!;
        if (sofar < 0) continue; // pruned: cannot reach the overlap rewording needs
        scratch[at + 1] = sofar + 1 + after < need ? -1 : sofar + 1;
      }
    }
    for (const slot of touched) if (scratch[3 * slot + 1]! > 0) decide(slot);
  }

  /** Door 2: a learning contained in the proposal begins with a pair of the proposal's words. */
  private containedCandidates(probe: Probe, part: Partition, decide: (slot: number) => void): void {
    const ids = probe.ids;
    const p = ids.length;
    const lo = bounds(p).containedLo;
    if (lo > p) return;
    // The contained set's first word is followed by at least lo − 1 more of the proposal's words.
    for (let i = 0; i + lo <= p; i++) {
      const pairs = part.pairs.get(ids[i]!); // none for a word no learning holds
      if (!pairs) continue;
      // The second word at position j, with j + lo − 1 ≤ p: merged with the sorted seconds.
      const seconds = pairs.seconds;
      let k = 0;
      for (let j = i + 1; j + lo - 1 <= p && k < seconds.length; ) {
        const x = ids[j]!;
        const y = seconds[k]!;
        if (x < y) j++;
        else if (x > y) k++;
        else {
          for (const slot of pairs.slots[k]!) {
            const q = this.sizeOf(slot);
            // Its other q − 2 words all come after position j of the proposal.
            if (q >= lo && q <= p - j + 1) decide(slot);
          }
          j++;
          k++;
        }
      }
    }
  }

  /**
   * Door 3: a learning containing the proposal holds every one of its words, so it is in the
   * slot list of each of them: the candidates are in the intersection of those lists. Taking only
   * the shortest list (the first version) let through every learning holding the proposal's least
   * frequent word; for a proposal made of common words that was hundreds of learnings.
   *
   * The lists are intersected in the order of the proposal's ids, rarest word first, so the
   * shortest lists usually come first without reading any list's length, and the intersection
   * stops once {@link FEW_CANDIDATES} are left: those few are decided on an exact count anyway,
   * and reading every list (one for each of the proposal's words, the common ones long) was the
   * slowest part of the slowest probes. Any subset of the lists holds every learning that
   * contains the proposal, so stopping early only leaves more to decide, never misses one.
   */
  private containingCandidates(probe: Probe, part: Partition, decide: (slot: number) => void): void {
    const ids = probe.ids;
    const p = ids.length;
    const hi = bounds(p).containingHi;
    if (hi <= p || probe.unknown) return;
    let candidates: readonly number[] = [];
    for (let i = 0; i < p; i++) {
      const list = part.postings.get(ids[i]!);
      if (!list) return; // no learning holds this word, so none holds them all
      candidates = i === 0 ? list : intersection(candidates, list);
      if (candidates.length <= FEW_CANDIDATES) break;
    }
    // Sizes are checked on what is left of the intersection, not on the first list: a size is
    // a read at a random place in memory for each slot, where the intersection reads its lists
    // in order, and for a short proposal of common words the first list can have thousands.
    for (const slot of candidates) {
      const q = this.sizeOf(slot);
      if (q > p && q <= hi) decide(slot);
    }
  }

  /** The rule itself, on an exact count of shared words (both sorted, so one merge). */
  private sameAs(probe: Probe, slot: number): boolean {
    const a = probe.ids;
    const b = this.words;
    let i = 0;
    let j = this.starts[slot]!;
    const end = this.starts[slot + 1]!;
    let shared = 0;
    let digitsShared = 0;
    while (i < a.length && j < end) {
      const x = a[i]!;
      const y = b[j]!;
      if (x === y) {
        shared++;
        digitsShared += x & 1;
        i++;
        j++;
      } else if (x < y) i++;
      else j++;
    }
    const numbersAgree = probe.digits === digitsShared && this.digitCounts[slot] === digitsShared;
    return sameCounts(a.length, end - this.starts[slot]!, shared, numbersAgree);
  }

  private probeOf(fp: Fingerprint): Probe {
    const words = fp.words;
    const ids = new Int32Array(words.length);
    let unknown = 0;
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      // A word no learning holds sorts first, as a word first seen now would be numbered.
      ids[i] = this.wordIds.get(word) ?? idOf(-1 - unknown++, word);
    }
    sortRange(ids, 0, ids.length);
    return { ids, digits: countDigits(ids), negated: fp.negated, unknown: unknown > 0 };
  }

  private nextEpoch(): void {
    const n = this.slots;
    if (this.scratch.length < 3 * n) {
      // Written through once, here: a new typed array's memory is only mapped by the system page by
      // page as it is first touched, and each such page fault (10 µs or so on these virtual
      // machines) then landed in whichever probe first stamped a slot on it, a few hundred of the
      // first thousand probes at 100,000 learnings
      // (docs/performance-log.md#session-12-matchings-slowest-calls).
      this.scratch = new Int32Array(3 * Math.max(n, (this.scratch.length / 3) * 2)).fill(0);
      this.epoch = 0;
    }
    this.epoch++;
    if (this.epoch === 0x7fffffff) {
      this.scratch.fill(0);
      this.epoch = 1;
    }
  }
}

/** The slots of `few` that are also in `many`; both ascending. Gallops through `many`, so the cost follows the shorter list. */
function intersection(few: readonly number[], many: readonly number[]): number[] {
  const out: number[] = [];
  let lo = 0;
  for (const slot of few) {
    // Everything in many[0 .. lo) is below `slot`: step ahead in doubling strides, then bisect.
    let hi = lo;
    for (let stride = 1; hi < many.length && many[hi]! < slot; stride *= 2) {
      lo = hi + 1;
      hi += stride;
    }
    lo = lowerBound(many, slot, lo, Math.min(hi, many.length));
    if (lo === many.length) break;
    if (many[lo] === slot) out.push(slot);
  }
  return out;
}

/** The first index in `[lo, hi)` of the ascending `list` whose item is not below `item` (`hi` when none is). */
function lowerBound(list: readonly number[], item: number, lo = 0, hi = list.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < item) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Sorts `a[from .. to)` in place, ascending. A set is a few dozen ids at most, where insertion
 * sort beats making a typed-array view per learning to call the built-in sort on.
 */
function sortRange(a: Int32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= from && a[j]! > x) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
}

type TypedArray = Int32Array | Float64Array | Uint8Array;

/** `array` if it holds `length` items, else a copy with room for at least that many (doubling, so appends stay cheap). */
function grown<A extends TypedArray>(array: A, length: number): A {
  if (array.length >= length) return array;
  const bigger = new (array.constructor as new (n: number) => A)(Math.max(length, array.length * 2));
  bigger.set(array as never);
  return bigger;
}

/** An id from a rank: the rank in the high bits, whether the word holds a digit in the lowest. */
function idOf(rank: number, word: string): number {
  return rank * 2 + (holdsDigit(word) ? 1 : 0);
}

/** How many of the word ids from `from` to `to` are words holding a digit (their lowest bit). */
function countDigits(ids: Int32Array, from = 0, to = ids.length): number {
  let n = 0;
  for (let i = from; i < to; i++) n += ids[i]! & 1;
  return n;
}
