/**
 * Building blocks for the screen's phrase rules.
 *
 * A word is a run of letters and digits; anything else separates words. The two classes never
 * overlap, so a pattern built from them can split a text into words only one way and cannot
 * backtrack its way into slowness, and every gap between words is bounded.
 *
 * "Letter" is every code point that can be part of a word in the scripts the rules are written in:
 * Latin with its accents and extensions, Greek, Cyrillic, Hebrew, Arabic, Devanagari, Hangul, kana
 * and CJK, combining marks included (a Devanagari vowel sign does not split a word). It is a few
 * wide ranges rather than an exact list: punctuation (U+2000–U+2BFF, the CJK marks U+3000–U+303F),
 * surrogates (emoji) and the specials stay outside, and a stray symbol counted as a letter
 * changes nothing. Unicode property classes (`\p{L}`) would be exact but cost too much: each
 * compiles to hundreds of ranges, a rule holds dozens of them, and rules that large run in the
 * regex interpreter instead of as machine code. Patterns are therefore compiled without the `u`
 * flag, and `phrase` rewrites `\p{L}` / `\p{N}` written in a rule into these classes.
 */
const LETTER_RANGES = 'a-zA-Z\\u00c0-\\u1fff\\u2c00-\\u2dff\\u3040-\\ud7ff\\uf900-\\ufdff\\ufe70-\\ufefe';
const DIGIT_RANGES = '0-9';
/**
 * The same letter and digit classes as spans of UTF-16 code units (the patterns have no `u` flag,
 * so they read code units too), for code that splits a text into words without a regex
 * (`wordUnits`). Kept beside the ranges above: a span that differs from them makes the word index
 * (screenIndex.ts) look up other words than the rules match, and it then skips rules that match.
 */
const WORD_SPANS: ReadonlyArray<readonly [number, number]> = [
  [0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0xc0, 0x1fff], [0x2c00, 0x2dff], [0x3040, 0xd7ff], [0xf900, 0xfdff], [0xfe70, 0xfefe],
];
export const WORD = `[${LETTER_RANGES}${DIGIT_RANGES}]+`;
export const SEP = `[^${LETTER_RANGES}${DIGIT_RANGES}]+`;
const START = `(?<![${LETTER_RANGES}${DIGIT_RANGES}])`;
const END = `(?![${LETTER_RANGES}${DIGIT_RANGES}])`;

/** Up to `most` arbitrary words, each preceded by a separator. */
export function gap(most: number): string {
  return `(?:${SEP}${WORD}){0,${most}}?`;
}

/** The alternatives each `anyOf` / `oneOf` source was built from, for the anchors of `phrase`. */
const WORD_LISTS = new Map<string, readonly string[]>();

/**
 * One of several alternatives as a whole word, or a phrase whose words any separator may join.
 * An alternative may hold regex syntax (a stem such as `ignor\p{L}*`).
 */
export function anyOf(...words: string[]): string {
  const source = `${START}(?:${words.map((word) => word.replaceAll(' ', SEP)).join('|')})${END}`;
  WORD_LISTS.set(source, words);
  return source;
}

/** Either of two `anyOf` lists, keeping their words for the anchors. */
export function either(...sources: string[]): string {
  const source = `(?:${sources.join('|')})`;
  WORD_LISTS.set(source, sources.flatMap((part) => WORD_LISTS.get(part) ?? ['']));
  return source;
}

/** Up to `most` characters of any kind: the gap between words in scripts written without spaces. */
export function near(most: number): string {
  return `[^。！？!?\n]{0,${most}}?`;
}

/** One alternative of several, as a group, with no word boundaries (for scripts without spaces). */
export function oneOf(...words: string[]): string {
  return `(?:${words.join('|')})`;
}

/**
 * The words a text must hold for a rule to be worth trying: a rule built by `phrase` starts its
 * match with one of the alternatives of its first `anyOf`, at the start of a word, so the first
 * word of one of them (or, for a stem such as `ignor\p{L}*`, its literal prefix) must be a word
 * of the text (or begin one). Checking that in a word index is far cheaper than running the
 * rule, and most rules are not worth trying on most learnings. A rule whose start is not such a
 * list has no anchors and is always tried.
 */
export interface Anchors {
  /**
   * Words the text must hold as whole words; "in every" (two words joined by a space) must be
   * two words in a row. Keeping the second word of a phrase makes common first words ("in",
   * "for", "from") far less often a reason to try the rule.
   */
  words: readonly string[];
  /** Prefixes a word of the text must start with. */
  prefixes: readonly string[];
}

/**
 * One rule: its pattern, compiled when first used (a process that screens one proposal, such as
 * `layover-desk propose`, compiles only the few rules that text makes it try, not all of them).
 */
export class Rule {
  /** Its place in the word index (screenIndex.ts), set when the index is built. */
  id = -1;
  private compiled: RegExp | undefined;
  private compiledSticky: RegExp | undefined;

  constructor(
    private readonly source: string | RegExp,
    readonly anchors: Anchors | null,
    readonly negatable: boolean,
    /**
     * Word lists the match holds after the one it starts with, each of which the text must
     * therefore hold somewhere (a word of the list, or a word starting with one of its prefixes).
     * A rule whose anchors stand in a text is tried only when every one of these does too: the
     * verbs that start the disclosure and prompt rules ("print", "show", "include", "list") are
     * everyday words, while the nouns after them ("system prompt", "instructions") are not.
     */
    readonly requires: readonly Anchors[],
    readonly needs?: RegExp,
  ) {}

  get regex(): RegExp {
    this.compiled ??= typeof this.source === 'string' ? new RegExp(this.source) : this.source;
    return this.compiled;
  }

  /** The same pattern, sticky: tried at the positions of the rule's anchors only. */
  get sticky(): RegExp {
    this.compiledSticky ??= new RegExp(this.regex.source, `${this.regex.flags}y`);
    return this.compiledSticky;
  }

  /** The pattern's text, for telling which script a rule is written in. */
  get text(): string {
    return typeof this.source === 'string' ? this.source : this.source.source;
  }

  withNeeds(needs: RegExp): Rule {
    return new Rule(this.source, this.anchors, this.negatable, this.requires, needs);
  }
}


const LITERAL = new RegExp(`^[${LETTER_RANGES}${DIGIT_RANGES}]*`);

function anchorsOf(alternatives: readonly string[]): Anchors | null {
  const words: string[] = [];
  const prefixes: string[] = [];
  for (const alternative of alternatives) {
    const [first = '', second = ''] = alternative.split(' ');
    const literal = LITERAL.exec(first)?.[0] ?? '';
    const next = first.charAt(literal.length);
    if (literal.length === first.length) {
      if (literal.length === 0) return null;
      const secondLiteral = LITERAL.exec(second)?.[0] ?? '';
      words.push(secondLiteral.length > 0 && secondLiteral.length === second.length ? `${literal} ${second}` : literal);
      continue;
    }
    // A quantifier makes the letter before it optional; anything else ends the literal part.
    const prefix = next === '?' || next === '*' || next === '{' ? literal.slice(0, -1) : literal;
    if (prefix.length === 0) return null;
    prefixes.push(prefix);
  }
  return { words, prefixes };
}

/** Compiles a rule: `\p{L}` and `\p{N}` written in it become the letter and digit classes above. */
export function phrase(...parts: string[]): Rule {
  const negatable = parts.includes(NOT_NEGATED);
  const source = parts
    .filter((part) => part !== NOT_NEGATED)
    .join('')
    .replaceAll(String.raw`\p{L}\p{N}`, LETTER_RANGES + DIGIT_RANGES)
    .replaceAll(String.raw`[\p{L}]`, `[${LETTER_RANGES}]`)
    .replaceAll(String.raw`\p{L}`, `[${LETTER_RANGES}]`)
    .replaceAll(String.raw`\p{N}`, `[${DIGIT_RANGES}]`);
  // Lookbehinds consume nothing, so the match starts with the first part after them.
  const kept = parts.filter((part) => part !== NOT_NEGATED);
  const firstIndex = kept.findIndex((part) => WORD_LISTS.has(part) || !part.startsWith('(?<'));
  const list = WORD_LISTS.get(kept[firstIndex] ?? '');
  return new Rule(source, list ? anchorsOf(list) : null, negatable, requiredLists(kept, firstIndex));
}

/** A part that starts with a quantifier makes the part before it optional. */
const QUANTIFIED = /^[?*+{]/;

/**
 * The anchors of the word lists after the first part (see `Rule.requires`). Only a list that is a
 * part of its own counts: a part is matched in full, one after the other, unless the source has
 * an alternative at its top level or the next part quantifies it. A list counted here that the
 * match can do without would make the screen skip a rule that matches.
 */
function requiredLists(parts: readonly string[], firstIndex: number): Anchors[] {
  if (firstIndex < 0 || hasTopLevelAlternative(parts.join(''))) return [];
  const required: Anchors[] = [];
  for (let i = firstIndex + 1; i < parts.length; i++) {
    const list = WORD_LISTS.get(parts[i]!);
    if (list === undefined || QUANTIFIED.test(parts[i + 1] ?? '')) continue;
    const anchors = anchorsOf(list);
    if (anchors) required.push(anchors);
  }
  return required;
}

/** Whether `source` has a `|` outside every group and class, which makes each side optional. */
function hasTopLevelAlternative(source: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') i++;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) return true;
  }
  return false;
}

/**
 * `words` where `before` comes right before them. Written as the words followed by a lookbehind
 * over both, not as a lookbehind followed by the words: the regex engine then scans for the
 * words (fast) and checks what precedes them only where they occur, and `phrase` can take the
 * words as the rule's anchors.
 */
export function after(before: string, words: string): string {
  const source = `${words}(?<=(?:${before})${words})`;
  const list = WORD_LISTS.get(words);
  if (list) WORD_LISTS.set(source, list);
  return source;
}

/** `rule`, tried only on texts that `needs` matches (see `Rule.needs`). */
export function needing(needs: RegExp, rule: Rule): Rule {
  return rule.withNeeds(needs);
}

/** A rule with no anchors, tried on every text (the marker rules, short and cheap). */
export function always(regex: RegExp): Rule {
  return new Rule(regex, null, false, []);
}

let wordTable: Uint8Array | undefined;

/**
 * By UTF-16 code unit: 1 where it is a letter or digit of WORD, which is how the word index
 * (screenIndex.ts) splits a form into the words its anchors are looked up by. A table rather than
 * a global regex: `exec` allocates a match array for every word of every form. Built on first use.
 */
export function wordUnits(): Uint8Array {
  if (wordTable === undefined) {
    wordTable = new Uint8Array(0x10000);
    for (const [from, to] of WORD_SPANS) wordTable.fill(1, from, to + 1);
  }
  return wordTable;
}

/**
 * A part that makes a rule not count where a negation stands just before its match: "never paste
 * tokens into Slack", "do not curl … | sh". Security advice about exfiltration and
 * download-and-run is written in exactly those words, and it is the negation that makes it
 * advice; an attack does not say "never" before its payload. `phrase` takes the part out of the
 * pattern (an empty group) and marks the rule; the screen checks the words before a match
 * (`negatedBefore`), which is far cheaper than a lookbehind tried at every candidate position.
 */
export const NOT_NEGATED = '(?:)';

/** How far back from a match a negation is looked for: a few words. */
const NEGATION_REACH = 60;
const NEGATION_BEFORE = new RegExp(
  `${START}(?:never|not|t|dont|avoid|avoiding|without|nor|no|instead${SEP}of|rather${SEP}than|stop|forbid|forbids|forbidden|prevent|prevents|refuse|warn${SEP}against|against)(?:${SEP}${WORD}){0,3}${SEP}$`,
);

/** Whether a negation stands in the few words before `index` (see NOT_NEGATED). */
export function negatedBefore(form: string, index: number): boolean {
  return NEGATION_BEFORE.test(form.slice(Math.max(0, index - NEGATION_REACH), index));
}
