/**
 * Which of the screen's rules are worth trying on a text, looked up from the words it holds.
 *
 * There are a few hundred rules (each family in fifteen languages) and a proposal passes through
 * all of them, on up to two forms of its text. Running every one costs far more than ingest can
 * afford per proposal, while most rules cannot match most texts: a rule's match starts with one
 * of a short list of words (see `Anchors`). The index maps those words and prefixes to the rules,
 * so a text is split into words once and only the rules whose anchors it holds are run. Rules
 * without anchors are always run; the other scripts' rules without anchors only when the text
 * holds a letter of their script.
 */
import { WORD_SPLIT, type Rule } from './screenPatterns.js';

/** Scripts a rule without anchors can be written in; each is tested on a text only when needed. */
const SCRIPTS: ReadonlyArray<RegExp> = [
  /[\u0400-\u052f]/, // Cyrillic
  /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/, // Han
  /[\u3040-\u30ff]/, // kana
  /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/, // Hangul
  /[\u0600-\u06ff]/, // Arabic
  /[\u0900-\u097f]/, // Devanagari
];

export interface RuleIndex {
  /** For a form of a text: which rules (by the position `ruleId` gives them) are worth trying. */
  candidates(form: string): Uint8Array;
  ruleId(rule: Rule): number;
}

export function buildIndex(rules: readonly Rule[]): RuleIndex {
  const ids = new Map<Rule, number>();
  const byWord = new Map<string, number[]>();
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
    const id = ids.size;
    ids.set(rule, id);
    if (rule.anchors) {
      for (const word of rule.anchors.words) add(byWord, word, id);
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
    const scripts = SCRIPTS.flatMap((script, index) => (script.test(rule.regex.source) ? [index] : []));
    if (scripts.length === 0) unanchored.push(id);
    else for (const index of scripts) byScript[index]!.push(id);
  }

  return {
    ruleId: (rule) => ids.get(rule) ?? -1,
    candidates(form) {
      const marks = new Uint8Array(ids.size);
      for (const id of unanchored) marks[id] = 1;
      SCRIPTS.forEach((script, index) => {
        if (script.test(form)) for (const id of byScript[index]!) marks[id] = 1;
      });
      for (const word of form.split(WORD_SPLIT)) {
        if (word.length === 0) continue;
        for (const id of byWord.get(word) ?? []) marks[id] = 1;
        for (const id of byShortPrefix.get(word.charAt(0)) ?? []) marks[id] = 1;
        for (const { prefix, ids: matched } of byPrefix.get(word.slice(0, 2)) ?? []) {
          if (word.startsWith(prefix)) for (const id of matched) marks[id] = 1;
        }
      }
      return marks;
    },
  };
}
