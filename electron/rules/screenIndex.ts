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
 * rules without anchors only when the text holds a letter of their script. A rule is run at all
 * only when the text also holds the word lists its match needs further on (`Rule.requires`),
 * looked up in the same pass over the words.
 */
import { wordUnits, type Anchors, type Rule } from './screenPatterns.js';

const NON_ASCII = /[^\x00-\x7F]/;

/** Scripts a rule without anchors can be written in; each is tested on a text only when needed. */
export const SCRIPTS: ReadonlyArray<RegExp> = [
  /[\u0400-\u052f]/, // Cyrillic
  /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/, // Han
  /[\u3040-\u30ff]/, // kana
  /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/, // Hangul
  /[\u0600-\u06ff]/, // Arabic
  /[\u0900-\u097f]/, // Devanagari
];

/** For one form of a text: which rules are worth trying, and where. */
export interface Candidates {
  /** The ids of the rules worth trying, ascending (ids follow the families' order). */
  ids: number[];
  /**
   * At the same index as `ids`: the positions of the words the rule's anchors matched,
   * ascending, or null for a rule without anchors, which scans the whole text.
   */
  at: Array<number[] | null>;
}

export interface RuleIndex {
  candidates(form: string): Candidates;
}

/** What one word of a form is an anchor of. */
interface WordEntry {
  /** The rules anchored on the word itself. */
  ids: number[] | undefined;
  /** Two-word anchors starting with the word, by their second word. */
  pairs: Map<string, number[]> | undefined;
}

/** A prefix key: the first two code units of a word as one number, so no string is cut to look it up. */
const pairKey = (first: number, second: number): number => first * 0x10000 + second;

class WordIndex implements RuleIndex {
  private readonly byWord = new Map<string, WordEntry>();
  /** Prefixes by their first two code units (`pairKey`), each with its rules: a word is checked against one bucket. */
  private readonly byPrefix = new Map<number, Array<{ prefix: string; ids: number[] }>>();
  /** One-letter prefixes, by their code unit. */
  private readonly byShortPrefix = new Map<number, number[]>();
  /** The rules without anchors, ascending, with the scripts they are written in (a bit per SCRIPTS entry; 0 for none). */
  private readonly unanchored: Array<{ id: number; scripts: number }> = [];
  /** The ids of the rules without anchors in no script: tried on every form, ascending. */
  private readonly everyForm: number[] = [];
  /**
   * By rule id (and required list id, see `ruleCount`), while one form is read: the positions its
   * anchors matched so far. Kept between forms and cleared after each through `touched`: allocated
   * and filled anew for every form, as long as the rule list, it was about a fifth of the index's
   * cost (1.5 of 7.8 µs a form on the corpus).
   */
  private readonly scratch: Array<number[] | undefined>;
  /** The ids set in `scratch` for the form being read, in the order first marked. */
  private readonly touched: number[] = [];

  /** How many rules there are; ids from here on stand for the word lists rules require (`Rule.requires`). */
  private readonly ruleCount: number;
  /** By rule id: the ids of the lists it requires, each of which must be marked in `scratch` for the rule to be tried. */
  private readonly required: number[][];

  constructor(rules: readonly Rule[]) {
    let count = 0;
    const add = <K>(map: Map<K, number[]>, key: K, id: number) => {
      const list = map.get(key);
      if (list) list.push(id);
      else map.set(key, [id]);
    };
    const entry = (word: string): WordEntry => {
      let found = this.byWord.get(word);
      if (found === undefined) {
        found = { ids: undefined, pairs: undefined };
        this.byWord.set(word, found);
      }
      return found;
    };
    const index = (anchors: Anchors, id: number) => {
      for (const word of anchors.words) {
        const [first = '', second] = word.split(' ');
        const at = entry(first);
        if (second === undefined) (at.ids ??= []).push(id);
        else add((at.pairs ??= new Map<string, number[]>()), second, id);
      }
      for (const prefix of anchors.prefixes) {
        if (prefix.length < 2) {
          add(this.byShortPrefix, prefix.charCodeAt(0), id);
          continue;
        }
        const key = pairKey(prefix.charCodeAt(0), prefix.charCodeAt(1));
        const bucket = this.byPrefix.get(key) ?? [];
        this.byPrefix.set(key, bucket);
        const known = bucket.find((item) => item.prefix === prefix);
        if (known) known.ids.push(id);
        else bucket.push({ prefix, ids: [id] });
      }
    };
    this.ruleCount = rules.length;
    /** Each required list once, by its words and prefixes: many rules require the same one. */
    const lists = new Map<string, number>();
    this.required = rules.map((rule) =>
      rule.requires.map((anchors) => {
        const key = `${anchors.words.join('|')}/${anchors.prefixes.join('|')}`;
        let id = lists.get(key);
        if (id === undefined) {
          id = this.ruleCount + lists.size;
          lists.set(key, id);
          index(anchors, id);
        }
        return id;
      }),
    );
    for (const rule of rules) {
      const id = count++;
      rule.id = id;
      if (rule.anchors) {
        index(rule.anchors, id);
        continue;
      }
      let scripts = 0;
      SCRIPTS.forEach((script, index) => {
        if (script.test(rule.text)) scripts |= 1 << index;
      });
      this.unanchored.push({ id, scripts });
      if (scripts === 0) this.everyForm.push(id);
    }
    // Filled to its full length: written sparsely (a rule id of 200 into an empty array) V8 keeps
    // an array as a dictionary, and every read of it is a hash lookup.
    this.scratch = new Array<number[] | undefined>(count + lists.size).fill(undefined);
  }

  candidates(form: string): Candidates {
    this.markAnchors(form);
    const { touched, scratch } = this;
    // The rules marked whose required lists are all marked too (the lists' own ids are marked beside them).
    const marked: number[] = [];
    for (const id of touched) if (id < this.ruleCount && this.holdsRequired(id)) marked.push(id);
    // Insertion sort: a form marks a dozen rules or so, for which it beats Array.prototype.sort
    // (a comparator call per step); at most every anchored rule, a few hundred, on a long text.
    for (let i = 1; i < marked.length; i++) {
      const id = marked[i]!;
      let j = i - 1;
      while (j >= 0 && marked[j]! > id) {
        marked[j + 1] = marked[j]!;
        j--;
      }
      marked[j + 1] = id;
    }
    const whole = this.wholeForm(form);
    // Two ascending lists, merged: the anchored rules marked and the rules without anchors (never the same rule).
    const ids: number[] = [];
    const at: Array<number[] | null> = [];
    let w = 0;
    let m = 0;
    while (w < whole.length || m < marked.length) {
      if (m === marked.length || (w < whole.length && whole[w]! < marked[m]!)) {
        const id = whole[w++]!;
        if (!this.holdsRequired(id)) continue;
        ids.push(id);
        at.push(null);
      } else {
        const id = marked[m++]!;
        ids.push(id);
        at.push(scratch[id]!);
      }
    }
    for (const id of touched) scratch[id] = undefined;
    touched.length = 0;
    return { ids, at };
  }

  /** Whether every list rule `id` requires is marked in `scratch` for the form being read. */
  private holdsRequired(id: number): boolean {
    for (const list of this.required[id]!) if (this.scratch[list] === undefined) return false;
    return true;
  }

  /** The rules without anchors to try on `form`: those in no script, and those in a script it holds. */
  private wholeForm(form: string): readonly number[] {
    if (!NON_ASCII.test(form)) return this.everyForm;
    let present = 0;
    SCRIPTS.forEach((script, index) => {
      if (script.test(form)) present |= 1 << index;
    });
    if (present === 0) return this.everyForm;
    return this.unanchored.filter(({ scripts }) => scripts === 0 || (scripts & present) !== 0).map(({ id }) => id);
  }

  /** Notes in `scratch` where each rule's anchors stand among the words of `form`. */
  private markAnchors(form: string): void {
    const units = wordUnits();
    const length = form.length;
    let pairs: Map<string, number[]> | undefined;
    let previousPosition = 0;
    let end = 0;
    while (end < length) {
      if (units[form.charCodeAt(end)] === 0) {
        end++;
        continue;
      }
      const position = end;
      while (end < length && units[form.charCodeAt(end)] === 1) end++;
      const word = form.slice(position, end);
      const entry = this.byWord.get(word);
      if (pairs !== undefined) this.mark(pairs.get(word), previousPosition);
      pairs = entry?.pairs;
      previousPosition = position;
      this.mark(entry?.ids, position);
      const first = form.charCodeAt(position);
      this.mark(this.byShortPrefix.get(first), position);
      if (end - position < 2) continue;
      const bucket = this.byPrefix.get(pairKey(first, form.charCodeAt(position + 1)));
      if (bucket !== undefined) {
        for (const { prefix, ids } of bucket) if (word.startsWith(prefix)) this.mark(ids, position);
      }
    }
  }

  /** Notes `position` for each rule of `list` (a word's rules), once per position. */
  private mark(list: readonly number[] | undefined, position: number): void {
    if (list === undefined) return;
    for (const id of list) {
      const positions = this.scratch[id];
      if (positions === undefined) {
        this.scratch[id] = [position];
        this.touched.push(id);
      } else if (positions[positions.length - 1] !== position) positions.push(position);
    }
  }
}

export function buildIndex(rules: readonly Rule[]): RuleIndex {
  return new WordIndex(rules);
}
