/**
 * The matching index must answer exactly what comparing a proposal with every learning of its
 * agent answers (docs/rules.md#sameness). Its filters prune by bounds on overlap and size; a
 * bound off by one loses a match without a sound, so these tests compare it with brute force on
 * texts made to sit on every boundary: shared sentence frames, containment at exactly twice the
 * words and at the three-word minimum, rewording at the 0.8 edge, numbers swapped or added,
 * negations, non-Latin scripts, words first seen after the index was built, and removals.
 */
import { describe, expect, it } from 'vitest';
import { fingerprint, sameFingerprint, type Fingerprint } from '../../electron/rules/sameness.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { AgentMatchIndex } from '../../electron/node/store/matchIndex.js';

const LATIN = [
  'cache', 'docker', 'digest', 'before', 'tests', 'branch', 'release', 'staging', 'token', 'schema', 'retry', 'mirror',
  'workspace', 'manifest', 'publishing', 'careful', 'handling', 'nightly', 'lockfile', 'runner', 'timeout', 'flaky',
];
const OTHER_SCRIPTS = ['кэш', 'сборка', 'テスト', '缓存', 'δοκιμή', 'ビルド', 'ресурс', 'πύλη'];
const NUMBERS = ['30', '90', 'v2', 'e0382', '429', '2026', 'ts2345'];
const FRAME = ['needs', 'careful', 'handling', 'before', 'publishing', 'nightly', 'release'];

type Pick = <T>(list: readonly T[]) => T;

function picker(next: () => number): Pick {
  return (list) => list[Math.floor(next() * list.length)]!;
}

/** Some words from a skewed mix of the pools, so overlaps are common and rare words exist. */
function randomWords(next: () => number, pick: Pick, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const u = next();
    if (u < 0.6) out.push(LATIN[Math.floor(next() * next() * LATIN.length)]!);
    else if (u < 0.75) out.push(pick(OTHER_SCRIPTS));
    else if (u < 0.85) out.push(pick(NUMBERS));
    else out.push(`w${letters(Math.floor(next() * 400))}x`);
  }
  return out;
}

/** A variant of `base` on one of the boundaries sameness cares about. */
function variant(next: () => number, pick: Pick, base: string[]): string[] {
  const words = [...new Set(base)];
  switch (Math.floor(next() * 8)) {
    case 0: // containment at exactly twice as many words
      return [...words, ...randomWords(next, pick, words.length)];
    case 1: // one word more than twice as many
      return [...words, ...randomWords(next, pick, words.length + 1)];
    case 2: // drop one or two words (rewording near the 0.8 edge)
      return words.filter(() => next() > 2 / Math.max(words.length, 2));
    case 3: // swap a number
      return [...words.filter((w) => !/\d/.test(w)), pick(NUMBERS)];
    case 4: // a shared sentence frame with one different subject
      return [pick(LATIN), ...FRAME];
    case 5: // a three-word set, or a two-word one, that may be contained
      return words.slice(0, next() < 0.5 ? 3 : 2);
    case 6: // replace one word with a word no learning holds yet
      return [...words.slice(1), `neu${Math.floor(next() * 1e6)}`.replace(/\d/g, (d) => 'klmnopqrst'[Number(d)]!)];
    default:
      return randomWords(next, pick, 1 + Math.floor(next() * 14));
  }
}

function asText(next: () => number, words: string[]): string {
  const text = words.map((w) => (next() < 0.15 ? w.toUpperCase() : w)).join(next() < 0.5 ? ' ' : ', ');
  return next() < 0.12 ? `do not ${text}` : text;
}

/** A word-safe spelling of `n` in letters (digits would make the words numbers). */
function letters(n: number): string {
  return String(n).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
}

function bruteForce(all: Map<number, Fingerprint>, fp: Fingerprint): number[] {
  return [...all].filter(([, other]) => sameFingerprint(fp, other)).map(([rowid]) => rowid).sort((a, b) => a - b);
}

describe('the matching index', () => {
  it('finds exactly what comparing with every learning finds, on seeded random and adversarial texts', () => {
    let probes = 0;
    let withMatches = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const next = seededRandom(seed);
      const pick = picker(next);
      const texts: string[][] = [];
      const initial = new Map<number, Fingerprint>();
      let rowid = 0;
      for (let i = 0; i < 150; i++) {
        const words = texts.length > 0 && next() < 0.5 ? variant(next, pick, pick(texts)) : randomWords(next, pick, 1 + Math.floor(next() * 16));
        texts.push(words);
        initial.set(++rowid, fingerprint(asText(next, words)));
      }
      const index = new AgentMatchIndex([...initial].map(([r, fp]) => ({ rowid: r, fp })));
      const all = new Map(initial);
      for (let round = 0; round < 200; round++) {
        const action = next();
        if (action < 0.15) {
          // A learning added after the index was built, often with words it has never seen.
          const words = variant(next, pick, pick(texts));
          texts.push(words);
          const fp = fingerprint(asText(next, words));
          index.add(++rowid, fp);
          all.set(rowid, fp);
        } else if (action < 0.2 && all.size > 0) {
          const gone = pick([...all.keys()]);
          index.remove(gone);
          all.delete(gone);
        } else {
          const fp = fingerprint(asText(next, variant(next, pick, pick(texts))));
          const expected = bruteForce(all, fp);
          const found = index.match(fp);
          if (found.join() !== expected.join()) expect({ seed, round, fp, found }).toEqual({ seed, round, fp, found: expected });
          probes++;
          if (expected.length > 0) withMatches++;
        }
      }
    }
    // The comparison proves something only when matches and misses are both common.
    expect(withMatches).toBeGreaterThan(probes / 5);
    expect(withMatches).toBeLessThan(probes * 0.9);
  });

  it('a text contained in one exactly twice its length is found, and one more word is not', () => {
    const short = fingerprint('cache docker digest before tests');
    const twice = fingerprint('cache docker digest before tests runner timeout flaky mirror schema');
    const more = fingerprint('cache docker digest before tests runner timeout flaky mirror schema nightly');
    const index = new AgentMatchIndex([
      { rowid: 1, fp: twice },
      { rowid: 2, fp: more },
    ]);
    expect(index.match(short)).toEqual([1]);
    expect(new AgentMatchIndex([{ rowid: 1, fp: short }]).match(twice)).toEqual([1]);
    expect(new AgentMatchIndex([{ rowid: 1, fp: short }]).match(more)).toEqual([]);
  });

  it('a three-word learning is contained in a longer proposal, a two-word one is not', () => {
    const index = new AgentMatchIndex([
      { rowid: 1, fp: fingerprint('docker digest cache') },
      { rowid: 2, fp: fingerprint('docker digest') },
    ]);
    expect(index.match(fingerprint('cache the docker digest before tests'))).toEqual([1]);
  });

  it('a claim and its negation are never matched, in either direction', () => {
    const index = new AgentMatchIndex([{ rowid: 1, fp: fingerprint('cache the docker digest before tests') }]);
    expect(index.match(fingerprint('do not cache the docker digest before tests'))).toEqual([]);
    expect(index.match(fingerprint('cache the docker digest before tests'))).toEqual([1]);
  });

  it('two long texts that differ only in one number are never matched, in either direction, whether the index was built from fingerprints or from the ledger\'s texts', () => {
    const thirty = 'the ADO token expires every 30 days, so refresh it before publishing the nightly release build';
    const ninety = 'the ADO token expires every 90 days, so refresh it before publishing the nightly release build';
    const same = 'The ADO token expires every 30 days: so refresh it before publishing nightly release builds';
    for (const index of [new AgentMatchIndex([{ rowid: 1, fp: fingerprint(thirty) }]), AgentMatchIndex.fromTexts([[1, thirty]])]) {
      expect(index.match(fingerprint(ninety))).toEqual([]);
      expect(index.match(fingerprint(same))).toEqual([1]);
    }
    expect(AgentMatchIndex.fromTexts([[1, ninety]]).match(fingerprint(thirty))).toEqual([]);
  });

  it('a learning is compared with a proposal it may contain only when it holds every one of the proposal\'s words', () => {
    // Four common words, each missing from a quarter of 200 longer learnings, so every word is in
    // 150 of them and no learning but one holds all four: the least frequent word alone would let
    // 150 through to be compared.
    const proposal = ['alpha', 'bravo', 'charlie', 'delta'];
    const learnings = Array.from({ length: 200 }, (_, i) => ({
      rowid: i + 1,
      fp: fingerprint([...proposal.filter((_, w) => w !== i % 4), `fill${letters(i)}`, `more${letters(i)}`, `last${letters(i)}`].join(' ')),
    }));
    learnings.push({ rowid: 201, fp: fingerprint(`${proposal.join(' ')} fillzz morezz lastzz`) });
    const index = new AgentMatchIndex(learnings);
    const stats = { examined: 0 };
    expect(index.match(fingerprint(proposal.join(' ')), stats)).toEqual([201]);
    expect(stats.examined).toBe(1);
  });

  it('a removed learning is never matched again', () => {
    const index = new AgentMatchIndex([{ rowid: 7, fp: fingerprint('cache the docker digest before tests') }]);
    index.remove(7);
    expect(index.match(fingerprint('cache the docker digest before tests'))).toEqual([]);
    expect(index.size).toBe(0);
  });
});
