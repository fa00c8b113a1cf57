/**
 * The search box's word index: every word of every learning's text, with the list slots
 * (`learningList.ts`) of the learnings that hold it, in memory (about 16 MB at 100,000 learnings).
 *
 * Why not FTS5 alone. A first search for a common word (in most learnings, typed as a prefix, as
 * the search box searches the last word) made FTS5 merge the position lists of every word with
 * that prefix and hand back tens of thousands of rowids: 40 ms at 100,000 learnings, twice the
 * list's budget. Here the same answer is one binary search over the sorted words and a pass over
 * their slots, under a millisecond once warm.
 *
 * Why the answers are FTS5's. The words are the tokens of the ledger's FTS5 table
 * (`unicode61 remove_diacritics 2`, schema.ts). When the list is read, they are read from that
 * table's own index (`fts5vocab`), so they are FTS5's by construction. A learning added later is
 * tokenised here: ASCII by unicode61's ASCII rule (letters and digits are word characters, folded
 * to lower case; checked against FTS5 once per connection), every other code point as FTS5 itself
 * showed it treats that code point ({@link probe}, in a temporary FTS5 table of the same
 * tokenizer), since unicode61 decides and folds each code point on its own. A search is
 * tokenised the same way; one whose words FTS5 would read as phrases (a typed word giving
 * several tokens, as `foo_bar` does) is not answered here: `hitsOf` returns null and the caller
 * asks FTS5. Property tests compare both ways of filling the index with the FTS5 query over
 * seeded texts in many scripts.
 *
 * Upkeep: a learning's text never changes (learningWrites.ts), so a text is added once, when its
 * slot is made, and a deleted learning's slot is never used again (the list filters dead slots),
 * so nothing is ever taken out.
 */
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** FTS5 cuts every token (indexed and searched) to this many bytes (FTS5_MAX_TOKEN_SIZE in sqlite3.c). */
const FTS5_MAX_TOKEN_BYTES = 32768;
/** A token this long (UTF-16 units) or shorter cannot pass that limit: a unit is at most 3 UTF-8 bytes. */
const SURELY_SHORT_TOKEN = Math.floor(FTS5_MAX_TOKEN_BYTES / 3);
/**
 * A word in more than one slot in this many is kept as a bit per slot instead of a list of slots:
 * then the bits take no more room than the list, and a search of it ORs 32 slots at a time.
 */
const DENSE_ONE_IN = 32;
/** Slots a word's list starts with room for; it doubles when full. */
const FIRST_ROOM = 4;
/** Words read from FTS5's index per step of {@link SearchIndex.readFts}: a few milliseconds each. */
const READ_STEP_WORDS = 250;

const ASCII_TOKEN = /[a-z0-9]+/g;
const NON_ASCII = /[\u0080-\u{10ffff}]/u;

/**
 * What unicode61 does with one non-ASCII code point, as FTS5 itself showed ({@link probe}):
 * null for a separator; else it adds `fold` (its lower-case, accent-free form, maybe nothing) to
 * the word it is in, and `starts` says whether it may begin a word (a letter or digit does; a
 * combining accent only continues one, and is a separator where a word would begin).
 */
type CharClass = { starts: boolean; fold: string } | null;

/** The temporary FTS5 table (and its fts5vocab view) through which FTS5 shows how it tokenises. */
const TOKENIZER_TABLE = 'layover_search_tokenizer';
const TOKENIZER_VOCAB = 'layover_search_tokens';
/** An fts5vocab view of the ledger's own FTS5 index: every word with the rowids holding it. */
const LEDGER_VOCAB = 'layover_ledger_words';
const ready = new WeakSet<Db>();

/**
 * Calls `each` with every rowid of a `group_concat` of rowids. Reading tens of thousands of rows
 * one by one into JavaScript costs far more than one text of them all.
 */
export function eachRowid(text: string | null, each: (rowid: number) => void): void {
  if (text === null || text === '') return;
  let value = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 44;
    if (code === 44) {
      each(value);
      value = 0;
    } else value = value * 10 + code - 48;
  }
}

/** The `tokenize` option of the ledger's `learnings_fts` (schema.ts), so both tokenise alike. */
function ledgerTokenizer(db: Db): string {
  const sql = (stmt(db, "SELECT sql FROM sqlite_master WHERE name = 'learnings_fts'").get() as { sql: string } | undefined)?.sql ?? '';
  return /tokenize\s*=\s*'((?:[^']|'')*)'/iu.exec(sql)?.[1]?.replace(/''/g, "'") ?? 'unicode61';
}

/**
 * The tokens FTS5 makes of each text, in order, by the ledger's own tokenizer. The temporary
 * table lives in the connection's `temp` schema (never in the ledger file, so a read-only
 * connection can use it too) and is emptied after each call.
 */
function ftsTokens(db: Db, texts: readonly string[]): string[][] {
  if (!ready.has(db)) {
    const tokenize = ledgerTokenizer(db).replace(/'/g, "''");
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${TOKENIZER_TABLE} USING fts5 (text, content = '', tokenize = '${tokenize}')`);
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${TOKENIZER_VOCAB} USING fts5vocab (temp, ${TOKENIZER_TABLE}, instance)`);
    ready.add(db);
  }
  const out = texts.map(() => [] as string[]);
  const insert = stmt(db, `INSERT INTO temp.${TOKENIZER_TABLE} (rowid, text) VALUES (?, ?)`);
  texts.forEach((text, i) => insert.run(i + 1, text));
  for (const { term, doc, offset } of stmt(db, `SELECT term, doc, offset FROM temp.${TOKENIZER_VOCAB}`).all() as { term: string; doc: number; offset: number }[]) {
    out[doc - 1]![offset] = term;
  }
  stmt(db, `INSERT INTO temp.${TOKENIZER_TABLE} (${TOKENIZER_TABLE}) VALUES ('delete-all')`).run();
  return out;
}

/**
 * How FTS5 treats each code point: `ch` alone is a word when it may begin one, and `xchx` is one
 * word (`x`, its fold, `x`) when it is not a separator. unicode61 decides and folds every code
 * point on its own, so this is all of its rule beyond ASCII.
 */
function probe(db: Db, codes: readonly number[]): CharClass[] {
  const texts = codes.flatMap((code) => {
    const ch = String.fromCodePoint(code);
    return [ch, `x${ch}x`];
  });
  const tokens = ftsTokens(db, texts);
  return codes.map((_, i) => {
    const alone = tokens[2 * i]!;
    const between = tokens[2 * i + 1]!;
    if (between.length !== 1) return null;
    return { starts: alone.length > 0, fold: between[0]!.slice(1, -1) };
  });
}

/**
 * The tokens of `text` as the ledger's FTS5 makes them, or null when FTS5 would cut one (longer
 * than {@link FTS5_MAX_TOKEN_BYTES}, not all ASCII, so cut maybe inside a character).
 * `classOf` knows every non-ASCII code point of the text.
 */
function tokensOf(text: string, classOf: ReadonlyMap<number, CharClass>): string[] | null {
  const tokens = NON_ASCII.test(text) ? tokensBeyondAscii(text, classOf) : (text.toLowerCase().match(ASCII_TOKEN) ?? []);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.length <= SURELY_SHORT_TOKEN || Buffer.byteLength(token) <= FTS5_MAX_TOKEN_BYTES) continue;
    if (NON_ASCII.test(token)) return null;
    tokens[i] = token.slice(0, FTS5_MAX_TOKEN_BYTES);
  }
  return tokens;
}

/** unicode61 over a text with non-ASCII code points: ASCII letters and digits, and `classOf`. */
function tokensBeyondAscii(text: string, classOf: ReadonlyMap<number, CharClass>): string[] {
  const tokens: string[] = [];
  let token: string | null = null;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    if (code < 0x80) {
      let end = i;
      while (end < text.length && isAsciiWordChar(text.charCodeAt(end))) end++;
      if (end > i) {
        token = (token ?? '') + text.slice(i, end).toLowerCase();
        i = end;
        continue;
      }
      i++;
      if (token !== null) tokens.push(token);
      token = null;
      continue;
    }
    i += code > 0xffff ? 2 : 1;
    const c = classOf.get(code)!;
    if (c !== null && (c.starts || token !== null)) token = (token ?? '') + c.fold;
    else if (token !== null) {
      tokens.push(token);
      token = null;
    }
  }
  if (token !== null) tokens.push(token);
  return tokens;
}

function isAsciiWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** The slot of each rowid, -1 where there is none: a typed array, as a map costs far more for millions of lookups. */
export type SlotOf = Int32Array;

/**
 * A set of slots, a bit each (bit `slot & 31` of word `slot >>> 5`). Why bits: a common word is in
 * most learnings, and setting, ORing and ANDing 32 slots at a time keeps even a first search
 * (before the JIT has compiled anything of it) to a few thousand steps at 100,000 learnings.
 */
export type SlotSet = Uint32Array;

/** An empty set with room for `slotCount` slots. */
export function slotSet(slotCount: number): SlotSet {
  return new Uint32Array((slotCount + 31) >>> 5);
}

export function hasSlot(set: SlotSet, slot: number): boolean {
  return ((set[slot >>> 5]! >>> (slot & 31)) & 1) === 1;
}

export function addSlot(set: SlotSet, slot: number): void {
  set[slot >>> 5]! |= 1 << (slot & 31);
}

export class SearchIndex {
  private readonly idOf = new Map<string, number>();
  private readonly words: string[] = [];
  /** Each word's slots, as a list (`counts` long) or, for a word in many, as bits (`dense`). */
  private readonly slots: Int32Array[] = [];
  private readonly counts: number[] = [];
  private readonly dense: (SlotSet | undefined)[] = [];
  /** Word ids in word order, for prefix searches; words added since are in `unsorted`. */
  private sorted: number[] = [];
  private unsorted: number[] = [];
  /** Texts waiting for FTS5 to show how it treats a code point of theirs, with their slots. */
  private pending: { slot: number; text: string }[] = [];
  /** Every non-ASCII code point seen, and what unicode61 does with it. */
  private readonly classOf = new Map<number, CharClass>();
  /**
   * Set for good when FTS5's tokens cannot be told here: a text with a token FTS5 cuts, or a
   * tokenizer that does not treat ASCII as unicode61 does. Then FTS5 answers every search.
   */
  private inexact = false;
  private asciiChecked = false;

  constructor(private readonly db: Db) {}

  /**
   * Reads the words of every slot in `slotOf` (by rowid, -1 for none) from the ledger's FTS5 index itself, a step of
   * words at a time (yielding between steps): how the index is first filled, several times
   * faster than tokenising every text here, and FTS5's words by construction. Every slot must
   * exist before it starts: a learning written meanwhile has no slot yet (it is skipped, and
   * added by its text when the list takes it in), and one deleted meanwhile is dead in the list.
   * For a new, empty index only.
   */
  *readFts(slotOf: SlotOf, slotCount: number): Generator<void, void> {
    // What tokenising learnings added later and searches needs, done now rather than at the first search.
    this.learn([]);
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${LEDGER_VOCAB} USING fts5vocab (main, learnings_fts, instance)`);
    const words = (from: '>=' | '>') =>
      stmt(
        this.db,
        `SELECT term, octet_length(term) AS bytes, group_concat(doc) AS docs FROM temp.${LEDGER_VOCAB}
         WHERE term ${from} ? GROUP BY term ORDER BY term LIMIT ${READ_STEP_WORDS}`,
      );
    const scratch = new Int32Array(slotCount);
    /** The last word each slot was put under: a word is in a text once however often it occurs. */
    const lastWord = new Int32Array(slotCount).fill(-1);
    let inOrder = true;
    let rows = words('>=').all('') as { term: string; bytes: number; docs: string }[];
    for (;;) {
      for (const { term, bytes, docs } of rows) {
        if (bytes >= FTS5_MAX_TOKEN_BYTES - 3 && NON_ASCII.test(term)) this.inexact = true;
        const id = this.words.length;
        let n = 0;
        eachRowid(docs, (rowid) => {
          const slot = rowid < slotOf.length ? slotOf[rowid]! : -1;
          if (slot < 0 || lastWord[slot] === id) return;
          lastWord[slot] = id;
          scratch[n++] = slot;
        });
        if (this.words.length > 0 && !(this.words[this.words.length - 1]! < term)) inOrder = false;
        this.idOf.set(term, id);
        this.words.push(term);
        if (n * DENSE_ONE_IN > slotCount) {
          const bits = slotSet(slotCount);
          for (let i = 0; i < n; i++) addSlot(bits, scratch[i]!);
          this.dense.push(bits);
          this.slots.push(new Int32Array(0));
        } else {
          this.dense.push(undefined);
          this.slots.push(scratch.slice(0, Math.max(n, 1)));
        }
        this.counts.push(n);
        this.unsorted.push(id);
      }
      if (rows.length < READ_STEP_WORDS) break;
      const after = rows[rows.length - 1]!.term;
      yield;
      rows = words('>').all(after) as typeof rows;
    }
    // FTS5 orders words by their UTF-8 bytes; that is UTF-16 order unless a word holds a
    // character past U+FFFF, and then they are sorted again.
    if (inOrder && this.sorted.length === 0) {
      this.sorted = this.unsorted;
      this.unsorted = [];
    }
  }

  /** Adds the text of a new slot. */
  add(slot: number, text: string): void {
    if (!this.asciiChecked) this.learn([]);
    if (this.knows(text)) this.addTokens(slot, tokensOf(text, this.classOf));
    else this.pending.push({ slot, text });
  }

  /** Adds the waiting texts, once FTS5 has shown how it treats their new code points (one call). */
  private takeInPending(): void {
    if (this.pending.length === 0) return;
    const pending = this.pending;
    this.pending = [];
    this.learn(pending.map((p) => p.text));
    for (const p of pending) this.addTokens(p.slot, tokensOf(p.text, this.classOf));
  }

  /**
   * Takes in the waiting texts and puts the new words in order: call after adding, so a search
   * does not pay for it. Sorting every word once is cheaper than inserting many one by one.
   */
  settle(): void {
    this.takeInPending();
    if (this.unsorted.length === 0) return;
    const byWord = (a: number, b: number): number => (this.words[a]! < this.words[b]! ? -1 : 1);
    if (this.unsorted.length > this.sorted.length / 8) {
      this.sorted = this.sorted.concat(this.unsorted).sort(byWord);
    } else {
      for (const id of this.unsorted) this.sorted.splice(this.lowerBound(this.words[id]!), 0, id);
    }
    this.unsorted = [];
  }

  /**
   * The slots whose text holds every one of `words` (the last as a prefix), as FTS5's
   * `"w1" "w2" … "wn"*` finds them. Null when FTS5 must answer: a word that is not exactly one
   * token, or a text FTS5 may cut.
   */
  hitsOf(words: readonly string[], slotCount: number): SlotSet | null {
    if (words.length === 0) return null;
    this.settle();
    const tokens = this.tokensOf(words);
    if (tokens === null || this.inexact) return null;
    let hits: SlotSet | null = null;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      const ids = i === tokens.length - 1 ? this.withPrefix(token) : this.idOf.has(token) ? [this.idOf.get(token)!] : [];
      const set = slotSet(slotCount);
      for (const id of ids) this.addTo(set, id);
      if (hits === null) hits = set;
      else for (let w = 0; w < set.length; w++) hits[w]! &= set[w]!;
    }
    return hits;
  }

  /** Adds the slots of word `id` to `set`. */
  private addTo(set: SlotSet, id: number): void {
    const bits = this.dense[id];
    if (bits !== undefined) {
      for (let w = 0, n = Math.min(bits.length, set.length); w < n; w++) set[w]! |= bits[w]!;
      return;
    }
    const slots = this.slots[id]!;
    for (let i = 0, n = this.counts[id]!; i < n; i++) addSlot(set, slots[i]!);
  }

  /** Each searched word's one token, or null when one of them is not exactly one token. */
  private tokensOf(words: readonly string[]): string[] | null {
    if (!this.asciiChecked || !words.every((w) => this.knows(w))) this.learn(words);
    const tokens: string[] = [];
    for (const word of words) {
      const its = tokensOf(word, this.classOf);
      if (its === null || its.length !== 1) return null;
      tokens.push(its[0]!);
    }
    return tokens;
  }

  /** Whether every code point of `text` has its class here already. */
  private knows(text: string): boolean {
    if (!NON_ASCII.test(text)) return true;
    for (const ch of text) if (ch.charCodeAt(0) >= 0x80 && !this.classOf.has(ch.codePointAt(0)!)) return false;
    return true;
  }

  /** Has FTS5 show how it treats the code points of `texts` not seen yet (and ASCII, the first time). */
  private learn(texts: readonly string[]): void {
    if (!this.asciiChecked) {
      this.asciiChecked = true;
      const codes = Array.from({ length: 127 }, (_, i) => i + 1);
      probe(this.db, codes).forEach((c, i) => {
        const ch = String.fromCharCode(codes[i]!);
        const expected = isAsciiWordChar(codes[i]!) ? ch.toLowerCase() : null;
        if ((c === null ? null : c.starts ? c.fold : '') !== expected) this.inexact = true;
      });
    }
    const unseen = new Set<number>();
    for (const text of texts) {
      if (!NON_ASCII.test(text)) continue;
      for (const ch of text) {
        const code = ch.codePointAt(0)!;
        if (code >= 0x80 && !this.classOf.has(code)) unseen.add(code);
      }
    }
    const codes = [...unseen];
    if (codes.length > 0) probe(this.db, codes).forEach((c, i) => this.classOf.set(codes[i]!, c));
  }

  private addTokens(slot: number, tokens: readonly string[] | null): void {
    if (tokens === null) {
      this.inexact = true;
      return;
    }
    for (const token of tokens) {
      let id = this.idOf.get(token);
      if (id === undefined) {
        id = this.words.length;
        this.idOf.set(token, id);
        this.words.push(token);
        this.slots.push(new Int32Array(FIRST_ROOM));
        this.counts.push(0);
        this.dense.push(undefined);
        this.unsorted.push(id);
      }
      const bits = this.dense[id];
      if (bits !== undefined) {
        if (slot >>> 5 >= bits.length) {
          const grown = new Uint32Array(Math.max((slot >>> 5) + 1, Math.ceil(bits.length * 1.25)));
          grown.set(bits);
          this.dense[id] = grown;
        }
        addSlot(this.dense[id]!, slot);
        continue;
      }
      const n = this.counts[id]!;
      let slots = this.slots[id]!;
      if (n > 0 && slots[n - 1] === slot) continue; // the word again in the same text
      if (n === slots.length) {
        const grown = new Int32Array(n * 2);
        grown.set(slots);
        this.slots[id] = slots = grown;
      }
      slots[n] = slot;
      this.counts[id] = n + 1;
    }
  }

  /** Position in `sorted` of the first word not before `word`. */
  private lowerBound(word: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.words[this.sorted[mid]!]! < word) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Ids of the words that start with `prefix`. They follow each other in UTF-16 order, and a
   * prefix of whole characters is a UTF-16 prefix exactly when it is a UTF-8 one (FTS5's).
   */
  private withPrefix(prefix: string): number[] {
    const ids: number[] = [];
    for (let i = this.lowerBound(prefix); i < this.sorted.length && this.words[this.sorted[i]!]!.startsWith(prefix); i++) ids.push(this.sorted[i]!);
    return ids;
  }
}
