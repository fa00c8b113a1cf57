import { describe, expect, it } from 'vitest';
import { parseFlagItems, parseFlagLines, parseFlagValue } from '../../shared/flags.js';
import { parseFlagOptions } from '../../electron/cli/flags.js';

describe('the one flag parser (docs/rules.md#help-requests-and-replies)', () => {
  it('reads true and false as booleans', () => {
    expect(parseFlagValue('true')).toBe(true);
    expect(parseFlagValue('false')).toBe(false);
  });

  it('reads a plain JSON number that writes back as the same text as a number', () => {
    expect(parseFlagValue('1.5')).toBe(1.5);
    expect(parseFlagValue('42')).toBe(42);
    expect(parseFlagValue('-3')).toBe(-3);
  });

  it('keeps 1.10 as the text "1.10" because a number would lose the trailing zero', () => {
    expect(parseFlagValue('1.10')).toBe('1.10');
  });

  it('keeps a 20-digit integer as text because a number would round it', () => {
    expect(parseFlagValue('12345678901234567890')).toBe('12345678901234567890');
  });

  it('keeps numbers written in other ways than JSON writes them as text', () => {
    expect(parseFlagValue('1e3')).toBe('1e3');
    expect(parseFlagValue('007')).toBe('007');
    expect(parseFlagValue('-0')).toBe('-0');
    expect(parseFlagValue('v2.1')).toBe('v2.1');
    expect(parseFlagValue('TRUE')).toBe('TRUE');
  });

  it('keeps everything after the first equals sign, trimmed, as the value', () => {
    expect(parseFlagItems([{ text: ' x = a=b ', where: 'here' }, { text: 'e=', where: 'there' }])).toEqual({
      flags: { x: 'a=b', e: '' },
      problems: [],
    });
  });

  it('refuses a key given twice, naming the key and where it was given again', () => {
    const parsed = parseFlagLines('publish=false\npublish=true');
    expect(parsed.problems).toEqual(['line 2: the flag "publish" is given more than once']);
    expect(parsed.flags).toEqual({ publish: false });
  });

  it('refuses an item without an equals sign or without a key, naming where it is', () => {
    expect(parseFlagLines('publish\n=1').problems).toEqual(['line 1: expected key=value', 'line 2: the key is empty']);
  });

  it('skips blank lines and # comments in the window\'s flag box', () => {
    expect(parseFlagLines('\n# why: asked to publish\npublish=true\n')).toEqual({ flags: { publish: true }, problems: [] });
  });

  it('makes the CLI refuse a repeated --flag with one line naming the key', () => {
    expect(() => parseFlagOptions(['a=1', 'a=2'])).toThrow('--flag a=2: the flag "a" is given more than once');
    expect(() => parseFlagOptions(['publish'])).toThrow('--flag publish: expected key=value');
  });
});
