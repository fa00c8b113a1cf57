import { describe, expect, it } from 'vitest';
import {
  fingerprint,
  isNegated,
  sameFingerprint,
  sameText,
  significantWords,
} from '../../electron/rules/sameness.js';

describe('sameness: the cases from the seed', () => {
  it('rewording and punctuation do not make a new insight', () => {
    expect(
      sameText(
        'The ADO token expires every 30 days; refresh it before publishing.',
        'the ADO token expires every 30 days, refresh it before publishing',
      ),
    ).toBe(true);
  });

  it('a sentence with one clause added is still the same insight', () => {
    expect(
      sameText(
        'the token expires every thirty days',
        'the token expires every thirty days, refresh before publishing',
      ),
    ).toBe(true);
  });

  it('a claim and its negation are different', () => {
    expect(
      sameText(
        'the migration is safe to run during business hours',
        'the migration is not safe to run during business hours',
      ),
    ).toBe(false);
    expect(
      sameText(
        'delete the old worktree before starting the next itinerary',
        'do not delete the old worktree before starting the next itinerary',
      ),
    ).toBe(false);
  });

  it('learnings that differ only in a number are different', () => {
    expect(sameText('the token expires every 30 days', 'the token expires every 90 days')).toBe(false);
  });

  it('two texts with nothing significant in them are different', () => {
    expect(sameText('use rg now', 'go to bed')).toBe(false);
    expect(sameText('', '')).toBe(false);
  });

  it('two claims sharing a sentence frame are different', () => {
    expect(
      sameText(
        'the workspace needs careful handling before publishing',
        'the manifest needs careful handling before publishing',
      ),
    ).toBe(false);
  });

  it('genuinely different insights are different', () => {
    expect(
      sameText('the ADO token expires every thirty days', 'prefer ripgrep over findstr when searching the tree'),
    ).toBe(false);
  });

  it('a long refinement is different from the short claim it refines', () => {
    expect(
      sameText(
        'exclude the assistant bot from new activity',
        'exclude the assistant bot and the build service account from new activity, but only ' +
          'when the commit tip is unchanged since the previous review cycle',
      ),
    ).toBe(false);
  });
});

describe('sameness: words', () => {
  it('words are lower-cased, short words dropped and duplicates kept once in order of first appearance', () => {
    expect(significantWords('Refresh the TOKEN, then refresh it again')).toEqual(['refresh', 'token', 'then', 'again']);
  });

  it('a short word holding a digit is kept', () => {
    expect(significantWords('use node v22 on port 80')).toEqual(['node', 'v22', 'port', '80']);
  });

  it('Cyrillic, CJK and accented letters are word characters, not separators', () => {
    expect(significantWords('токен истекает каждые тридцать дней')).toEqual([
      'токен',
      'истекает',
      'каждые',
      'тридцать',
      'дней',
    ]);
    expect(significantWords('データベース を 再起動')).toEqual(['データベース']);
    expect(significantWords('déjà über naïve façade')).toEqual(['déjà', 'über', 'naïve', 'façade']);
  });

  it('a combining accent belongs to its word, and composed and decomposed spellings are one word', () => {
    const decomposed = 'cafe\u0301 ouvert';
    expect(significantWords(decomposed)).toEqual(['café', 'ouvert']);
    expect(significantWords('CAFÉ ouvert')).toEqual(significantWords(decomposed));
  });

  it('every non-letter, non-digit character separates words', () => {
    expect(significantWords('path/to-file_name.json:42')).toEqual(['path', 'file', 'name', 'json', '42']);
  });
});

describe('sameness: the negation guard', () => {
  it('a contraction with a straight apostrophe is a negation', () => {
    expect(isNegated("don't run the migration at noon")).toBe(true);
  });

  it('a contraction with a curly apostrophe is a negation', () => {
    expect(isNegated('the cache isn\u2019t shared between jobs')).toBe(true);
  });

  it('every listed negation word negates, in any case', () => {
    for (const word of ['not', 'No', 'nor', 'NEVER', 'cannot', 'without', 'unless', 'neither', 'none']) {
      expect(isNegated(`the build ${word} passes`), word).toBe(true);
    }
  });

  it('a word that merely contains a negation does not negate', () => {
    expect(isNegated('note that nothing here is known to be slow')).toBe(false);
  });

  it('a claim and its contracted correction are different', () => {
    expect(sameText('the cache is shared between jobs', 'the cache isn\u2019t shared between jobs')).toBe(false);
  });

  it('two negated texts with the same words are the same', () => {
    expect(sameText('never publish from a dirty worktree', 'Never publish from a dirty worktree!')).toBe(true);
  });
});

describe('sameness: the containment bound', () => {
  const short = 'alpha bravo charlie';

  it('a text with exactly twice as many words that contains the shorter is the same', () => {
    expect(sameText(short, 'alpha bravo charlie delta echoes foxtrot')).toBe(true);
  });

  it('a text with more than twice as many words is a refinement and different', () => {
    expect(sameText(short, 'alpha bravo charlie delta echoes foxtrot hotel')).toBe(false);
  });

  it('containment needs at least three words in the shorter text', () => {
    expect(sameText('alpha bravo', 'alpha bravo charlie')).toBe(false);
  });

  it('one missing word breaks containment', () => {
    expect(sameText(short, 'alpha bravo delta echoes')).toBe(false);
  });

  it('sameness is symmetric', () => {
    const long = 'alpha bravo charlie delta echoes foxtrot';
    expect(sameText(long, short)).toBe(sameText(short, long));
  });
});

describe('sameness: fingerprints', () => {
  it('a fingerprint holds the significant words and the negation of its text', () => {
    expect(fingerprint("Don't cache the lockfile")).toEqual({ words: ['cache', 'lockfile'], negated: true });
  });

  it('comparing fingerprints gives the same answer as comparing texts', () => {
    const a = 'the token expires every thirty days';
    const b = 'the token expires every thirty days, refresh before publishing';
    expect(sameFingerprint(fingerprint(a), fingerprint(b))).toBe(sameText(a, b));
  });
});

describe('sameness: the numbers guard on rewording', () => {
  const thirty = 'the ADO token expires every 30 days, so refresh it before publishing the nightly release build';
  const ninety = 'the ADO token expires every 90 days, so refresh it before publishing the nightly release build';

  it('two long texts that differ only in one number are different, though they share 80% of their words', () => {
    const a = fingerprint(thirty).words;
    const b = new Set(fingerprint(ninety).words);
    const shared = a.filter((w) => b.has(w)).length;
    expect(shared / (a.length * 2 - shared)).toBeGreaterThanOrEqual(0.8);
    expect(sameText(thirty, ninety)).toBe(false);
  });

  it('a rewording with the same numbers is still the same', () => {
    expect(sameText(thirty, 'The ADO token expires every 30 days: so refresh it before publishing nightly release builds')).toBe(true);
  });

  it('containment needs no numbers guard: a restatement with a clause holding a number is the same', () => {
    expect(sameText('cache the docker digest before tests', 'cache the docker digest before tests for 30 minutes')).toBe(true);
  });
});

describe('sameness: the rule on counts', () => {
  it('sameCounts is what sameFingerprint decides, for every length, overlap and numbers agreement', async () => {
    const { sameCounts } = await import('../../electron/rules/sameness.js');
    for (let p = 1; p <= 24; p++) {
      for (let q = 1; q <= 24; q++) {
        for (let s = 0; s <= Math.min(p, q); s++) {
          for (const digits of [false, true]) {
            // p letter-only words, q sharing the first s of them; one word of a holds a digit when `digits`.
            const letters = (i: number): string => String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26));
            const a = Array.from({ length: p }, (_, i) => `wa${letters(i)}`);
            const b = Array.from({ length: q }, (_, i) => (i < s ? `wa${letters(i)}` : `wb${letters(i)}`));
            if (digits && s < p) a[p - 1] = `n${p}9`;
            const numbersAgree = !(digits && s < p);
            expect(sameFingerprint({ words: a, negated: false }, { words: b, negated: false })).toBe(sameCounts(p, q, s, numbersAgree));
          }
        }
      }
    }
  });
});

describe('sameness: words of plain ASCII text', () => {
  it('plain ASCII text gets the same words and negation by the fast path as by the Unicode path', async () => {
    const { seededRandom } = await import('../../electron/rules/seededRandom.js');
    const next = seededRandom(17);
    const pieces = [
      'Cache', 'the', "don't", 'E0382', 'v2.1', 'node_modules', 'x', 'NOT', 'rg', '30', 'days;', '(retry)', 'ts-2345', 'a/b', 'Nothing', '--flag',
      'NEVER', 'T', 'Nor', 'cannot', 'x9', 'ab1', 'abc', 'abcd', 'Unless', 'none.', 'cache', '7', 'zZz9', '@[`{', ':/9:', 'without\t', 'no\n',
      // Punctuation and spaces beyond ASCII keep a text on the fast path.
      'don’t', '—', 'wait…', '“quoted”', 'a\u00a0b', '\u2000', '«guillemets»', '¿que?',
    ];
    const joins = [' ', ',', '', '\t', '~', ' — ', '\u3000'];
    for (let i = 0; i < 3000; i++) {
      const join = joins[Math.floor(next() * joins.length)]!;
      const text = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]!).join(join);
      // One non-ASCII word of two letters sends the text down the Unicode path and adds no
      // significant word (too short, no digit) and no negation.
      expect(fingerprint(text)).toEqual(fingerprint(`${text} éé`));
    }
  });

  it('punctuation and spaces beyond ASCII only ever separate words, through NFC and lower-casing, next to anything', () => {
    // What lets a text whose only non-ASCII characters are punctuation and spaces take the ASCII
    // split (scanWords): each of them stays a separator, and no canonical composition can join
    // it, or an ASCII character, to what comes before it.
    const word = /[\p{L}\p{N}\p{M}]/u;
    const punctuation = /[\p{P}\p{Z}]/u;
    const wrong: string[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const parts = [...c.normalize('NFD')];
      if (parts.slice(1).some((part) => part.charCodeAt(0) < 0x80 || punctuation.test(part))) wrong.push(`U+${cp.toString(16)} composes`);
      if (punctuation.test(c) && word.test(c.normalize('NFC').toLowerCase())) wrong.push(`U+${cp.toString(16)} becomes a word character`);
    }
    expect(wrong).toEqual([]);
  });
});
