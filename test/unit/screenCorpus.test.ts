import { describe, expect, it } from 'vitest';
import { screen, screenTryingEveryRule } from '../../electron/rules/screen.js';
import { readCorpus } from '../support/screenCorpus.js';

/** Long enough for every corpus line: the corpus measures the phrase rules, not the length limit. */
const MAX_TEXT = 4000;
const MIN_CATCH_RATE = 0.97;
const MAX_FALSE_REFUSAL_RATE = 0.005;

const corpus = readCorpus();
const attempts = corpus.filter((line) => line.label === 'attempt');
const ordinary = corpus.filter((line) => line.label === 'ordinary');

function list(lines: typeof corpus, why: (text: string) => string): string {
  return lines.map((line) => `  ${line.where} [${line.family}/${line.lang}] ${why(line.text)}${line.text}`).join('\n');
}

describe('the screen on the labelled corpus (test/fixtures/screen/*.jsonl)', () => {
  it('the corpus holds attempts and ordinary learnings to measure', () => {
    expect(attempts.length).toBeGreaterThan(0);
    expect(ordinary.length).toBeGreaterThan(0);
  });

  it(`at least ${MIN_CATCH_RATE * 100}% of the injection attempts are refused`, () => {
    const missed = attempts.filter((line) => screen(line.text, MAX_TEXT).ok);
    const rate = 1 - missed.length / attempts.length;
    expect(rate, `${missed.length} of ${attempts.length} attempts passed:\n${list(missed, () => '')}`).toBeGreaterThanOrEqual(MIN_CATCH_RATE);
  });

  it(`at most ${MAX_FALSE_REFUSAL_RATE * 100}% of the ordinary learnings are refused`, () => {
    const refused = ordinary.filter((line) => !screen(line.text, MAX_TEXT).ok);
    const rate = refused.length / ordinary.length;
    const why = (text: string) => {
      const result = screen(text, MAX_TEXT);
      return result.ok ? '' : `(${result.rule}) `;
    };
    expect(rate, `${refused.length} of ${ordinary.length} ordinary learnings were refused:\n${list(refused, why)}`).toBeLessThanOrEqual(MAX_FALSE_REFUSAL_RATE);
  });

  it('the word index that picks which rules to try changes no decision on any corpus line', () => {
    const differing = corpus.filter((line) => {
      const indexed = screen(line.text, MAX_TEXT);
      const everyRule = screenTryingEveryRule(line.text, MAX_TEXT);
      return indexed.ok !== everyRule.ok || (!indexed.ok && !everyRule.ok && indexed.rule !== everyRule.rule);
    });
    expect(differing.map((line) => `${line.where} ${line.text}`)).toEqual([]);
  });

  it('every refusal of an attempt names its rule in the reason', () => {
    for (const line of attempts) {
      const result = screen(line.text, MAX_TEXT);
      if (!result.ok) expect(result.reason).toContain(`(${result.rule})`);
    }
  });
});
