/**
 * Which of the screen's rules are worth trying on a text, looked up from the words it holds.
 *
 * There are a few hundred rules (each family in fifteen languages) and a proposal passes through
 * all of them, on up to two forms of its text. Running every one costs far more than ingest can
 * afford per proposal, while most rules cannot match most texts: a rule's match starts with one
 * of a short list of words (see `Anchors`). The index maps those words and prefixes to the rules,
 * so a text is split into words once and only the rules whose anchors it holds are run, and each
 * of those only at the words where its anchors stand (a sticky match at that position, instead of
 * a scan of the whole text). Rules without anchors are run on the whole text; the other scripts'
 * rules without anchors only when the text holds a letter of their script.
 */
import { WORD_PATTERN, type Rule } from './screenPatterns.js';

const NON_ASCII = /[^\x00-\x7F]/;

/** Scripts a rule without anchors can be written in; each is tested on a text only when needed. */
const SCRIPTS: ReadonlyArray<RegExp> = [
  /[\u0400-\u052f]/, // Cyrillic
  /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/, // Han
  /[\u3040-\u30ff]/, // kana
  /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/, // Hangul
  /[\u0600-\u06ff]/, // Arabic
  /[\u0900-\u097f]/, // Devanagari
];

/** For one form of a text: where each rule is worth trying. */
export interface Candidates {
  /** By rule id: the positions of the words its anchors matched, or undefined. */
  at: Array<number[] | undefined>;
  /** By rule id: 1 where the rule has no anchors and must scan the whole text. */
  whole: Uint8Array;
  /** The ids of the rules worth trying at all, ascending (ids follow the families' order). */
  ids: number[];
}

export interface RuleIndex {
  candidates(form: string): Candidates;
}

export function buildIndex(rules: readonly Rule[]): RuleIndex {
  let count = 0;
  const byWord = new Map<string, number[]>();
  /** Two-word anchors, by first word then second: looked up without building a string. */
  const byPair = new Map<string, Map<string, number[]>>();
  /** Prefixes by their first two letters, each with its rules: a word is checked against one bucket. */
  const byPrefix = new Map<string, Array<{ prefix: string; ids: number[] }>>();
  const byShortPrefix = new Map<string, number[]>();
  const unanchored: number[] = [];
  const byScript: number[][] = SCRIPTS.map(() => []);
  const add = (map: Map<string, number[]>, key: string, id: number) => {
    const list = map.get(key);
    if (list) list.push(id);
    else map.set(key, [id]);
  };
  for (const rule of rules) {
    const id = count++;
    rule.id = id;
    if (rule.anchors) {
      for (const word of rule.anchors.words) {
        const [first = '', second] = word.split(' ');
        if (second === undefined) add(byWord, word, id);
        else {
          const seconds = byPair.get(first) ?? new Map<string, number[]>();
          byPair.set(first, seconds);
          add(seconds, second, id);
        }
      }
      for (const prefix of rule.anchors.prefixes) {
        if (prefix.length < 2) {
          add(byShortPrefix, prefix, id);
          continue;
        }
        const bucket = byPrefix.get(prefix.slice(0, 2)) ?? [];
        byPrefix.set(prefix.slice(0, 2), bucket);
        const entry = bucket.find((item) => item.prefix === prefix);
        if (entry) entry.ids.push(id);
        else bucket.push({ prefix, ids: [id] });
      }
      continue;
    }
    const scripts = SCRIPTS.flatMap((script, index) => (script.test(rule.text) ? [index] : []));
    if (scripts.length === 0) unanchored.push(id);
    else for (const index of scripts) byScript[index]!.push(id);
  }

  return {
    candidates(form) {
      const whole = new Uint8Array(count);
      // Filled to its full length first: written sparsely (a rule id of 200 into an empty array)
      // V8 keeps an array as a dictionary, and every later read of it is a hash lookup. Filled, the
      // screen's corpus took 45 µs a text instead of 57 (CPU time, best of 30 rounds).
      const at: Array<number[] | undefined> = new Array<number[] | undefined>(count).fill(undefined);
      for (const id of unanchored) whole[id] = 1;
      if (NON_ASCII.test(form)) {
        SCRIPTS.forEach((script, index) => {
          if (!script.test(form)) return;
          for (const id of byScript[index]!) whole[id] = 1;
        });
      }
      let pairs: Map<string, number[]> | undefined;
      let previousPosition = 0;
      WORD_PATTERN.lastIndex = 0;
      for (let match = WORD_PATTERN.exec(form); match !== null; match = WORD_PATTERN.exec(form)) {
        const word = match[0];
        const position = match.index;
        if (pairs !== undefined) mark(at, pairs.get(word), previousPosition);
        pairs = byPair.get(word);
        previousPosition = position;
        mark(at, byWord.get(word), position);
        mark(at, byShortPrefix.get(word.charAt(0)), position);
        const bucket = byPrefix.get(word.slice(0, 2));
        if (bucket !== undefined) {
          for (const { prefix, ids: matched } of bucket) if (word.startsWith(prefix)) mark(at, matched, position);
        }
      }
      // Collected in one pass over the rules, already ascending: pushed as found and sorted, the
      // hundred-odd ids of a text (the unanchored rules are always among them) cost more than
      // the pass over every rule.
      const ids: number[] = [];
      for (let id = 0; id < count; id++) if (whole[id] === 1 || at[id] !== undefined) ids.push(id);
      return { at, whole, ids };
    },
  };
}

/** Notes `position` for each rule of `list` (a word's rules) in `at`, once per position. */
function mark(at: Array<number[] | undefined>, list: readonly number[] | undefined, position: number): void {
  if (list === undefined) return;
  for (const id of list) {
    const positions = at[id];
    if (positions === undefined) at[id] = [position];
    else if (positions[positions.length - 1] !== position) positions.push(position);
  }
}
