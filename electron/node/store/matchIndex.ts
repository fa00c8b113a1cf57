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
import { containmentHolds, rewordingHolds, sameCounts, type Fingerprint } from '../../rules/sameness.js';

/**
 * Word ids start here, the rarest word at the bottom; words first seen after the index was built
 * count down from just below it. 2^24 each way keeps every id and every pair of ids exact in a
 * double (an id is below 2^26, so `first * 2^26 + second` is below 2^52).
 */
const ID_BASE = 2 ** 24;

/** How many ids there are, for packing a pair of them into one number (see {@link ID_BASE}). */
const ID_SPAN = 2 ** 26;

// ---------------------------------------------------------------------------------------------
// Bounds, all derived from the rule's door functions and memoised per size.

const rewordingNeedMemo = new Map<number, number>();

/**
 * The fewest shared words with which a set of `p` and one of `q` words are the same by
 * rewording, or -1 when no overlap makes them so (their sizes are too far apart).
 */
function rewordingNeed(p: number, q: number): number {
  const key = p * 65536 + q;
  const known = rewordingNeedMemo.get(key);
  if (known !== undefined) return known;
  let need = -1;
  for (let s = 1; s <= Math.min(p, q); s++) {
    if (rewordingHolds(p, q, s)) {
      need = s;
      break;
    }
  }
  rewordingNeedMemo.set(key, need);
  return need;
}

interface SizeBounds {
  /** Sizes of a set that can be the same as one of this size by rewording: [lo, hi], lo > hi when none. */
  rewordLo: number;
  rewordHi: number;
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
  for (let m = 1; m <= 2 * n + 2; m++) {
    const need = rewordingNeed(n, m);
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

interface Partition {
  /** Word id → slots whose set holds it. */
  postings: Map<number, number[]>;
  /** Word id → (slot, position) pairs, flat, for the words in each set's rewording prefix. */
  prefixes: Map<number, number[]>;
  /** Packed pair of the two smallest ids → slots whose set begins with them (containable sets only). */
  pairs: Map<number, number[]>;
}

function newPartition(): Partition {
  return { postings: new Map(), prefixes: new Map(), pairs: new Map() };
}

function push(map: Map<number, number[]>, key: number, ...values: number[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, values);
}

/** What a probe cost: how many learnings were compared word by word. */
export interface ProbeStats {
  examined: number;
}

/** One agent's learnings, as fingerprints, with the three filters over them. */
export class AgentMatchIndex {
  private readonly wordIds = new Map<string, number>();
  private nextNewRank = ID_BASE - 1;
  private readonly rowids: number[] = [];
  private readonly sets: Int32Array[] = [];
  private readonly digitCounts: number[] = [];
  private readonly alive: boolean[] = [];
  private readonly slotOf = new Map<number, number>();
  private readonly partitions: [Partition, Partition] = [newPartition(), newPartition()];
  private deadSlots = 0;
  // Per-probe scratch, stamped instead of cleared.
  private stamp = new Uint32Array(1024);
  private seen = new Uint32Array(1024);
  private overlap = new Int32Array(1024);
  private epoch = 0;

  /**
   * Builds the index over `learnings` (rowid and fingerprint), giving the rarest words the
   * smallest ids, so that the prefix filters read the rarest words first.
   */
  constructor(learnings: Iterable<{ rowid: number; fp: Fingerprint }> = []) {
    const all = [...learnings];
    const frequency = new Map<string, number>();
    for (const { fp } of all) for (const word of fp.words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    const byRarity = [...frequency.keys()].sort((a, b) => frequency.get(a)! - frequency.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
    byRarity.forEach((word, rank) => this.wordIds.set(word, idOf(ID_BASE + rank, word)));
    for (const { rowid, fp } of all) this.add(rowid, fp);
  }

  /** Learnings in the index, removed ones not counted. */
  get size(): number {
    return this.rowids.length - this.deadSlots;
  }

  /** Whether so much of the index is removed learnings that building it afresh pays. */
  get wantsRebuild(): boolean {
    return this.deadSlots > 1000 && this.deadSlots * 2 > this.rowids.length;
  }

  has(rowid: number): boolean {
    const slot = this.slotOf.get(rowid);
    return slot !== undefined && this.alive[slot]!;
  }

  /** Adds a learning (a new one, or one another process wrote). */
  add(rowid: number, fp: Fingerprint): void {
    if (this.has(rowid)) return;
    const ids = new Int32Array(fp.words.length);
    fp.words.forEach((word, i) => {
      let id = this.wordIds.get(word);
      if (id === undefined) {
        id = idOf(this.nextNewRank--, word);
        this.wordIds.set(word, id);
      }
      ids[i] = id;
    });
    ids.sort();
    const slot = this.rowids.length;
    this.rowids.push(rowid);
    this.sets.push(ids);
    this.digitCounts.push(countDigits(ids));
    this.alive.push(true);
    this.slotOf.set(rowid, slot);
    const part = this.partitions[fp.negated ? 1 : 0];
    const n = ids.length;
    if (n === 0) return; // an empty set is the same as nothing
    for (let i = 0; i < n; i++) push(part.postings, ids[i]!, slot);
    const b = bounds(n);
    for (let j = 0; j < b.prefix; j++) push(part.prefixes, ids[j]!, slot, j);
    if (b.containable) push(part.pairs, ids[0]! * ID_SPAN + ids[1]!, slot);
  }

  /** Takes a learning out (a sweep deleted it); its entries stay behind, marked dead. */
  remove(rowid: number): void {
    const slot = this.slotOf.get(rowid);
    if (slot === undefined || !this.alive[slot]) return;
    this.alive[slot] = false;
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
      if (this.seen[slot] === this.epoch || !this.alive[slot]) return;
      this.seen[slot] = this.epoch;
      if (stats) stats.examined++;
      if (this.sameAs(probe, slot)) found.push(slot);
    };
    this.rewordingCandidates(probe, part, decide);
    this.containedCandidates(probe, part, decide);
    this.containingCandidates(probe, part, decide);
    return found.sort((a, b) => a - b).map((slot) => this.rowids[slot]!);
  }

  /** Door 1: prefix, size and positional filters for rewording. */
  private rewordingCandidates(probe: Probe, part: Partition, decide: (slot: number) => void): void {
    const ids = probe.ids;
    const p = ids.length;
    const b = bounds(p);
    const touched: number[] = [];
    for (let i = 0; i < b.prefix; i++) {
      const entries = part.prefixes.get(ids[i]!);
      if (!entries) continue;
      for (let e = 0; e < entries.length; e += 2) {
        const slot = entries[e]!;
        const q = this.sets[slot]!.length;
        if (q < b.rewordLo || q > b.rewordHi) continue;
        if (this.stamp[slot] !== this.epoch) {
          this.stamp[slot] = this.epoch;
          this.overlap[slot] = 0;
          touched.push(slot);
        }
        const sofar = this.overlap[slot]!;
        if (sofar < 0) continue; // pruned: cannot reach the overlap rewording needs
        const j = entries[e + 1]!;
        const most = sofar + 1 + Math.min(p - i - 1, q - j - 1);
        this.overlap[slot] = most < rewordingNeed(p, q) ? -1 : sofar + 1;
      }
    }
    for (const slot of touched) if (this.overlap[slot]! > 0) decide(slot);
  }

  /** Door 2: a learning contained in the proposal begins with a pair of the proposal's words. */
  private containedCandidates(probe: Probe, part: Partition, decide: (slot: number) => void): void {
    const ids = probe.ids;
    const p = ids.length;
    const lo = bounds(p).containedLo;
    if (lo > p) return;
    // The contained set's first word is followed by at least lo − 1 more of the proposal's words.
    for (let i = 0; i + lo <= p; i++) {
      if (ids[i]! < 0) continue; // a word no learning holds
      for (let j = i + 1; j + lo - 1 <= p; j++) {
        const slots = part.pairs.get(ids[i]! * ID_SPAN + ids[j]!);
        if (!slots) continue;
        for (const slot of slots) {
          const q = this.sets[slot]!.length;
          // Its other q − 2 words all come after position j of the proposal.
          if (q >= lo && q <= p - j + 1) decide(slot);
        }
      }
    }
  }

  /** Door 3: a learning containing the proposal holds its least frequent word. */
  private containingCandidates(probe: Probe, part: Partition, decide: (slot: number) => void): void {
    const ids = probe.ids;
    const p = ids.length;
    const hi = bounds(p).containingHi;
    if (hi <= p || probe.unknown) return;
    let shortest: number[] | undefined;
    for (let i = 0; i < p; i++) {
      const list = part.postings.get(ids[i]!);
      if (!list) return; // no learning holds this word, so none holds them all
      if (!shortest || list.length < shortest.length) shortest = list;
    }
    for (const slot of shortest!) {
      const q = this.sets[slot]!.length;
      if (q > p && q <= hi) decide(slot);
    }
  }

  /** The rule itself, on an exact count of shared words (both sorted, so one merge). */
  private sameAs(probe: Probe, slot: number): boolean {
    const a = probe.ids;
    const b = this.sets[slot]!;
    let i = 0;
    let j = 0;
    let shared = 0;
    let digitsShared = 0;
    while (i < a.length && j < b.length) {
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
    return sameCounts(a.length, b.length, shared, numbersAgree);
  }

  private probeOf(fp: Fingerprint): Probe {
    const ids = new Int32Array(fp.words.length);
    let unknown = 0;
    fp.words.forEach((word, i) => {
      const id = this.wordIds.get(word);
      // A word no learning holds sorts first, as a word first seen now would be numbered.
      ids[i] = id ?? idOf(-1 - unknown++, word);
    });
    ids.sort();
    return { ids, digits: countDigits(ids), negated: fp.negated, unknown: unknown > 0 };
  }

  private nextEpoch(): void {
    const n = this.rowids.length;
    if (this.stamp.length < n) {
      const size = Math.max(n, this.stamp.length * 2);
      this.stamp = new Uint32Array(size);
      this.seen = new Uint32Array(size);
      this.overlap = new Int32Array(size);
      this.epoch = 0;
    }
    this.epoch++;
    if (this.epoch === 0xffffffff) {
      this.stamp.fill(0);
      this.seen.fill(0);
      this.epoch = 1;
    }
  }
}

/** An id from a rank: the rank in the high bits, whether the word holds a digit in the lowest. */
function idOf(rank: number, word: string): number {
  return rank * 2 + (/\p{N}/u.test(word) ? 1 : 0);
}

function countDigits(ids: Int32Array): number {
  let n = 0;
  for (let i = 0; i < ids.length; i++) n += ids[i]! & 1;
  return n;
}
