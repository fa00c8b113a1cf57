/**
 * Whether two learnings say the same thing.
 *
 * Everything in the ledger hangs on this answer: an echo, a rediscovery, a refusal because a
 * person already rejected the claim. And it fails silently in both directions. Too strict, and a
 * rediscovery worded a little differently is never recognised, so nothing is ever confirmed and
 * every learning lapses while the mechanism looks healthy. Too loose, and two different claims
 * merge, and one of them disappears without anybody seeing it. That is why the rule is fixed in
 * code and not a setting: there is no value of a knob here that an operator could tell was wrong.
 *
 * The measure is word containment rather than overall overlap, because real learnings share
 * sentence frames. "The workspace needs careful handling before publishing" and "the manifest
 * needs careful handling before publishing" share almost every word and are different facts; the
 * difference is the one word the frame does not supply. A restatement with a clause added, on
 * the other hand, holds every word of the original.
 */

/**
 * Shared / union at which two texts count as the same thing reworded.
 *
 * High on purpose: it only has to catch texts of about the same length that differ in
 * punctuation or a word. Anything looser starts merging claims that share a sentence frame.
 */
export const REWORDING_THRESHOLD = 0.8;

/**
 * Fewest significant words the shorter text needs before containment means anything.
 *
 * Without it a two-word scrap such as "use ripgrep" would be contained in every sentence that
 * happens to mention both words, and would swallow them all as echoes.
 */
export const MIN_WORDS_TO_CONTAIN = 3;

/**
 * How many times as many words the longer text may have and still be the shorter one restated.
 *
 * A text far longer than the one it contains is a narrower claim, a refinement, and must stay a
 * learning of its own; otherwise refining a learning would only ever count as an echo of it.
 */
export const MOST_ELABORATION = 2;

/**
 * Words that reverse a claim, whatever their length.
 *
 * Deliberately generous: counting a word that only sometimes negates costs, at worst, one missed
 * rediscovery. Missing a real negation merges a claim with its own correction, so the agent's
 * correction is filed as an echo and the wrong claim stays live. `t` is here because splitting on
 * apostrophes turns "don't" and "isn't" into "don" / "isn" and "t".
 */
const NEGATIONS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'nor',
  'never',
  't',
  'cannot',
  'without',
  'unless',
  'neither',
  'none',
]);

/**
 * Anything that is not a letter, a digit or a combining mark separates words.
 *
 * Unicode-aware so that Cyrillic, CJK and accented Latin are words and not gaps between words;
 * combining marks belong to the letter they decorate. Apostrophes (straight and curly) are
 * separators, which is what makes contractions yield `t`.
 */
const SEPARATOR = /[^\p{L}\p{N}\p{M}]+/u;

const DIGIT = /\p{N}/u;

/** Words of this many code points or fewer are dropped unless they hold a digit. */
const SHORT_WORD = 3;

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A character that only the Unicode split handles right: anything beyond ASCII but punctuation
 * and spaces. A text without one splits into the same words the ASCII way, because punctuation
 * and spaces beyond ASCII (dashes, curly quotes, ellipses, no-break spaces) only ever separate
 * words: each stays a separator through NFC and lower-casing, and none composes with what stands
 * next to it (a test checks every code point). Symbols are not in that set, because a few of
 * them become a symbol and a combining mark under NFC. A fifth of real learnings hold such
 * punctuation, and the Unicode split costs them several times the ASCII one.
 */
const NEEDS_UNICODE = /[^\x00-\x7f\p{P}\p{Z}]/u;

/**
 * Splits prose into lower-case tokens, the Unicode way.
 *
 * NFC first, so that "café" typed with a combining accent and "café" typed precomposed are one
 * word rather than two that never match.
 */
function tokens(text: string): string[] {
  return text
    .normalize('NFC')
    .toLowerCase()
    .split(SEPARATOR)
    .filter((token) => token.length > 0);
}

/**
 * Gives each significant word of `text` to `onWord`, in order of appearance (a word that occurs
 * twice is given twice: the caller keeps one), and answers whether the text is negated.
 *
 * This is the one tokeniser: {@link fingerprint} and the matching index's build from the ledger
 * (which splits every learning of an agent when it first matches, 100,000 texts at a time) both
 * go through it, so they cannot disagree on a word. Most learnings' words are plain ASCII, where
 * NFC changes nothing, the Unicode classes reduce to a-z and 0-9 and a code point is a
 * character; that case (with punctuation beyond ASCII, see {@link NEEDS_UNICODE}) is one pass
 * over the character codes of the lower-cased text, which cuts out only the words it keeps (a
 * test holds it to the Unicode path's answers).
 */
export function scanWords(text: string, onWord: (word: string) => void): boolean {
  if (NEEDS_UNICODE.test(text)) {
    let negated = false;
    for (const token of tokens(text)) {
      if (NEGATIONS.has(token)) negated = true;
      if (codePoints(token) > SHORT_WORD || holdsDigit(token)) onWord(token);
    }
    return negated;
  }
  const lower = text.toLowerCase();
  let negated = false;
  let start = -1;
  let digit = false;
  for (let i = 0; i <= lower.length; i++) {
    const c = i < lower.length ? lower.charCodeAt(i) : 0;
    const isDigit = c >= CHAR_0 && c <= CHAR_9;
    if (isDigit || (c >= CHAR_A && c <= CHAR_Z)) {
      if (start < 0) {
        start = i;
        digit = false;
      }
      digit ||= isDigit;
      continue;
    }
    if (start < 0) continue;
    if (i - start > SHORT_WORD || digit) {
      const word = lower.slice(start, i);
      onWord(word);
      negated ||= NEGATIONS.has(word);
    } else {
      negated ||= negationAt(lower, start, i);
    }
    start = -1;
  }
  return negated;
}

/** {@link NEGATIONS} by length, for {@link negationAt}. */
const NEGATIONS_BY_LENGTH: readonly string[][] = (() => {
  const out: string[][] = [];
  for (const word of NEGATIONS) (out[word.length] ??= []).push(word);
  return out;
})();

/**
 * Whether `source.slice(start, end)` is one of {@link NEGATIONS}, compared in place: most tokens
 * are short words that are dropped ("the", "a", "to"), and cutting each out only to look it up
 * was a fair share of splitting a text.
 */
function negationAt(source: string, start: number, end: number): boolean {
  const same = NEGATIONS_BY_LENGTH[end - start];
  if (!same) return false;
  for (const word of same) {
    let k = 0;
    while (k < word.length && word.charCodeAt(k) === source.charCodeAt(start + k)) k++;
    if (k === word.length) return true;
  }
  return false;
}

const CHAR_0 = 0x30;
const CHAR_9 = 0x39;
const CHAR_A = 0x61;
const CHAR_Z = 0x7a;

/**
 * The words of a text worth comparing, in order of first appearance, without duplicates.
 *
 * Short words are dropped because they are mostly articles and prepositions, and counting them
 * makes every sentence resemble every other. Words holding a digit survive regardless: "30" and
 * "90" are short, numbers are most of what a learning says, and without this "expires every 30
 * days" and "expires every 90 days" would be one learning.
 */
export function significantWords(text: string): string[] {
  return fingerprint(text).words;
}

function codePoints(token: string): number {
  return NON_ASCII.test(token) ? [...token].length : token.length;
}

/**
 * Whether a text reverses the sense of what it says.
 *
 * Looks at every token, short ones included, since "not" and "no" are exactly the words that
 * `significantWords` drops. Only whole tokens count: "note", "nothing" and "know" merely contain
 * a negation.
 */
export function isNegated(text: string): boolean {
  return scanWords(text, () => {});
}

/**
 * Whether a word holds a digit. Such words carry the numbers a learning states, and the
 * rewording rule demands they agree exactly (the numbers guard, docs/rules.md#sameness).
 */
export function holdsDigit(word: string): boolean {
  return DIGIT.test(word);
}

/** What sameness compares: the significant words of a text and whether it is negated. */
export interface Fingerprint {
  words: string[];
  negated: boolean;
}

/** Reduces a text to what sameness compares, so a ledger can keep it instead of re-deriving it. */
export function fingerprint(text: string): Fingerprint {
  const words = new Set<string>();
  const negated = scanWords(text, (word) => words.add(word));
  return { words: [...words], negated };
}

/**
 * The rewording door: two word sets of `p` and `q` words sharing `s` are the same claim reworded
 * when shared / union reaches {@link REWORDING_THRESHOLD}. The numbers guard is applied apart
 * (see {@link sameCounts}) because it looks at which words are shared, not how many.
 */
export function rewordingHolds(p: number, q: number, s: number): boolean {
  return s / (p + q - s) >= REWORDING_THRESHOLD;
}

/**
 * The containment door: every word of the shorter set is in the longer, the shorter has at least
 * {@link MIN_WORDS_TO_CONTAIN} words and the longer at most {@link MOST_ELABORATION} times as many.
 */
export function containmentHolds(p: number, q: number, s: number): boolean {
  const shorter = Math.min(p, q);
  return s === shorter && shorter >= MIN_WORDS_TO_CONTAIN && Math.max(p, q) <= shorter * MOST_ELABORATION;
}

/**
 * Sameness decided from counts alone, for two texts that already agree on negation: `p` and `q`
 * significant words, `s` of them shared, and whether both hold exactly the same words with a
 * digit (`numbersAgree`).
 *
 * This is the one statement of the rule. `sameFingerprint` counts and calls it; the matching
 * index (`electron/node/store/matchIndex.ts`) derives every bound it prunes with from the two
 * door functions above, so the two can never drift apart.
 *
 * The numbers guard applies to rewording only: without it "the token expires every 30 days, so
 * refresh it before publishing the nightly release" and the same with "90 days" share 10 of 12
 * words and would merge, which is the very failure keeping digit words exists to prevent.
 * Containment needs no guard of its own: the shorter text's numbers are all in the longer one.
 */
export function sameCounts(p: number, q: number, s: number, numbersAgree: boolean): boolean {
  if (p === 0 || q === 0) return false;
  return (numbersAgree && rewordingHolds(p, q, s)) || containmentHolds(p, q, s);
}

/**
 * Whether two fingerprints say the same thing.
 *
 * Order matters. The negation guard comes first because it must not be outvoted: adding "not" to
 * an eight-word sentence changes no significant word at all, so by words alone a claim and its
 * correction are identical. Two empty word sets come next and are different, because two scraps
 * with nothing substantive in them are no evidence of one insight ("use rg now" and "go to bed"
 * would otherwise match). Then rewording (with the numbers guard), then containment.
 */
export function sameFingerprint(a: Fingerprint, b: Fingerprint): boolean {
  if (a.negated !== b.negated) return false;
  const inB = new Set(b.words);
  let shared = 0;
  let digitsA = 0;
  let digitsShared = 0;
  for (const word of a.words) {
    const digit = holdsDigit(word);
    if (digit) digitsA++;
    if (inB.has(word)) {
      shared++;
      if (digit) digitsShared++;
    }
  }
  const digitsB = b.words.reduce((n, word) => n + (holdsDigit(word) ? 1 : 0), 0);
  const numbersAgree = digitsA === digitsShared && digitsB === digitsShared;
  return sameCounts(a.words.length, b.words.length, shared, numbersAgree);
}

/** Whether two texts say the same thing; see {@link sameFingerprint}. */
export function sameText(a: string, b: string): boolean {
  return sameFingerprint(fingerprint(a), fingerprint(b));
}
