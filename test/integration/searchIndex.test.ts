/**
 * The search box's word index (electron/node/store/searchIndex.ts) must find exactly what the
 * ledger's FTS5 query finds, for any text and any search: accents, other scripts, combining
 * marks, astral letters, punctuation, prefixes, several words. Texts and searches are seeded
 * random draws from pieces chosen for how unicode61 treats them.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Learning } from '../../shared/domain.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { openDb, type Db } from '../../electron/node/store/db.js';
import { insertLearning } from '../../electron/node/store/learnings.js';
import { ftsQuery, matchingRowidsOf, searchWords } from '../../electron/node/store/learningList.js';
import { SearchIndex, hasSlot } from '../../electron/node/store/searchIndex.js';
import { freshLedgerEachTest } from '../support/ledger.js';
import { provisionalLearning } from '../support/learnings.js';

let factory: string;
let db: Db;
freshLedgerEachTest('layover-search-', (ledger) => ({ factory, db } = ledger));

/** Word-like pieces: plain, upper case, accented (composed and combining), other scripts, astral, digits. */
const PIECES = [
  'cache', 'cached', 'Caches', 'CACHE', 'café', 'cafe\u0301', 'Café', 'naïve', 'naive', 'Ångström', 'résumé', 'Việt',
  'straße', 'STRASSE', 'İstanbul', 'ıstanbul', 'Σίσυφος', 'σίσυφοσ', 'Привет', 'привет', 'ёлка', 'елка', '東京都', '東京',
  'مرحبا', 'שלום', 'हिन्दी', 'ꙮ', '𝒳yz', '𐐀𐐨', 'ＡＢＣ', 'ａｂｃ', '٣٤', '²', 'x²', 'ǅemal', 'ﬁle', 'e\u0301\u0301', '\u0301abc',
  'a\u200db', 'a\u00adb', 'npm9', '404', 'v1', 'foo_bar', 'node_modules', 'ab\ue000cd', '\ufffd', '🚀', 'go🚀go', 'ΆΈΉ',
];
/** What goes between pieces: separators of every kind, and nothing (pieces then run together). */
const JOINS = [' ', ' ', ' ', '', '-', '_', '—', '.', '/', ': ', '…', '\u00a0', '\t', "'", '’', '"', '(', ')', '*', '+'];

function learning(i: number, text: string): Learning {
  return provisionalLearning({ id: `lrn_${i}`, text }, new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString());
}

function drawer(seed: number) {
  const next = seededRandom(seed);
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const text = (): string => {
    let out = pick(PIECES);
    for (let n = Math.floor(next() * 10); n > 0; n--) out += pick(JOINS) + pick(PIECES);
    return out;
  };
  /** A search: whole pieces, pieces cut short (by code point), changed case, FTS5 syntax. */
  const search = (): string => {
    const word = (): string => {
      const piece = [...pick(PIECES)];
      const cut = piece.slice(0, 1 + Math.floor(next() * piece.length)).join('');
      return pick([cut, cut, cut.toUpperCase(), cut.toLowerCase(), pick(PIECES), `${cut}*`, `"${cut}`, `NEAR(${cut}`, `${cut} AND`]);
    };
    return Array.from({ length: 1 + Math.floor(next() * 3) }, word).join(pick([' ', ' ', '  ', '-', '_']));
  };
  return { text, search };
}

/** Rowids FTS5 finds for the search, as the window's search means it. */
function byFts(search: string): number[] {
  const query = ftsQuery(search);
  if (query === null) return (db.prepare('SELECT rowid FROM learnings ORDER BY rowid').pluck().all() as number[]);
  return db.prepare('SELECT rowid FROM learnings_fts WHERE learnings_fts MATCH ? ORDER BY rowid').pluck().all(query) as number[];
}

describe('the search index', () => {
  it('finds exactly the learnings FTS5 finds, for seeded texts and searches in every script, case, accent and punctuation, whether it tokenised the texts or read FTS5\'s index', () => {
    const draw = drawer(21);
    const texts = Array.from({ length: 600 }, draw.text);
    db.transaction(() => texts.forEach((text, i) => insertLearning(db, learning(i, text))))();
    const rowids = db.prepare('SELECT rowid FROM learnings ORDER BY rowid').pluck().all() as number[];
    const tokenised = new SearchIndex(db);
    rowids.forEach((_, slot) => tokenised.add(slot, texts[slot]!));
    tokenised.settle();
    const read = new SearchIndex(db);
    const slotOf = new Int32Array(rowids[rowids.length - 1]! + 1).fill(-1);
    rowids.forEach((rowid, slot) => (slotOf[rowid] = slot));
    for (const _ of read.readFts(slotOf, rowids.length));
    read.settle();

    const searches = [...Array.from({ length: 1500 }, draw.search), ...PIECES];
    for (const index of [tokenised, read]) {
      let answered = 0;
      for (const search of searches) {
        const words = searchWords(search);
        if (words.length === 0) continue;
        const hits = index.hitsOf(words, rowids.length);
        if (hits === null) continue;
        answered++;
        const found = rowids.filter((_, slot) => hasSlot(hits, slot));
        expect({ search, found }).toEqual({ search, found: byFts(search) });
      }
      // Only searches FTS5 reads as phrases (a typed word of several tokens) are left to it.
      expect(answered).toBeGreaterThan(searches.length * 0.6);
    }
  });

  it('leaves to FTS5 a search whose typed word FTS5 reads as several tokens, and the list still answers it as FTS5 does', () => {
    const texts = ['read node_modules first', 'node modules', 'über_all läuft', 'all über'];
    db.transaction(() => texts.forEach((text, i) => insertLearning(db, learning(i, text))))();
    const index = new SearchIndex(db);
    texts.forEach((text, slot) => index.add(slot, text));
    index.settle();
    for (const search of ['node_modules', 'über_al']) {
      expect(index.hitsOf(searchWords(search), texts.length)).toBeNull();
      expect(matchingRowidsOf(db, { search })).toEqual(byFts(search));
    }
  });

  it('the list finds what FTS5 finds while learnings are added from another connection and deleted, their rowids given again', () => {
    const draw = drawer(5);
    const other = openDb(path.join(factory, '.layover', 'ledger.sqlite'));
    let id = 0;
    let compared = 0;
    for (let round = 0; round < 8; round++) {
      const writer = round % 2 === 0 ? db : other;
      // The first round's learnings are read from FTS5's index, the later ones tokenised.
      writer.transaction(() => {
        for (let i = 0; i < (round === 0 ? 400 : 40); i++) insertLearning(writer, learning(id++, draw.text()));
      })();
      // Deleting the newest learning makes SQLite give its rowid to the next one, with another text.
      other.prepare('DELETE FROM learnings WHERE rowid = (SELECT max(rowid) FROM learnings)').run();
      other.prepare('DELETE FROM learnings WHERE rowid IN (SELECT rowid FROM learnings ORDER BY random() LIMIT 3)').run();
      insertLearning(other, learning(id++, draw.text()));
      for (let n = 0; n < 40; n++) {
        const search = draw.search();
        expect({ search, found: matchingRowidsOf(db, { search }) }).toEqual({ search, found: byFts(search) });
        compared++;
      }
    }
    other.close();
    expect(compared).toBe(8 * 40);
  });
});
