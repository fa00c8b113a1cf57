import { describe, expect, it } from 'vitest';
import { EXCERPT_CHARS, excerptOf } from '../../electron/rules/excerpt.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the excerpt of a refused event line', () => {
  it('a line that fits is kept whole, without an ellipsis', () => {
    const line = '{"type": "learning.proposed", "agent": "builder", "text": "unterminated';
    expect(excerptOf(bytes(line))).toBe(line);
  });

  it('a long JSON line is cut after the last whole value that fits, never inside a string or a key, and ends with an ellipsis', () => {
    const line = JSON.stringify({
      type: 'help.requested',
      at: '2026-11-09T14:21:38.759Z',
      id: 'hlp_bad_category',
      agent: 'scout',
      run: 'run_x',
      chain: 'chn_x',
      category: 'urgent',
      question: 'May I publish the package now that the tests pass?',
    });
    const excerpt = excerptOf(bytes(line));
    expect(excerpt.endsWith('…')).toBe(true);
    const shown = excerpt.slice(0, -1);
    expect(shown.length).toBeLessThanOrEqual(EXCERPT_CHARS);
    expect(line.startsWith(shown)).toBe(true);
    expect(shown).toBe('{"type":"help.requested","at":"2026-11-09T14:21:38.759Z","id":"hlp_bad_category","agent":"scout","run":"run_x"');
  });

  it('a key is never the last thing shown: the cut falls after the value before it', () => {
    const line = `{"a":"${'x'.repeat(100)}","bb":"${'y'.repeat(40)}"}`;
    expect(excerptOf(bytes(line))).toBe(`{"a":"${'x'.repeat(100)}"…`);
  });

  it('a line that is not JSON is cut at its last space that fits', () => {
    const line = `${'word '.repeat(40)}end`;
    const excerpt = excerptOf(bytes(line));
    expect(excerpt).toBe(`${'word '.repeat(24).trimEnd()}…`);
  });

  it('a line with no place to cut is cut at the limit', () => {
    const line = 'x'.repeat(300);
    expect(excerptOf(bytes(line))).toBe(`${'x'.repeat(EXCERPT_CHARS)}…`);
  });

  it('control characters are shown as escapes and count toward the limit', () => {
    expect(excerptOf(bytes('a\u0007b\u202ec'))).toBe('a\\u{7}b\\u{202e}c');
  });
});
