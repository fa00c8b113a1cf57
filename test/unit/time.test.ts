import { describe, expect, it } from 'vitest';
import { fileTime, humanDay, humanTime, utcDay, utcTime } from '../../electron/rules/time.js';

describe('times, one meaning per name', () => {
  it('stores a time as ISO 8601 in UTC with milliseconds, whatever offset it was written with', () => {
    expect(utcTime('2026-11-29T15:02:11+01:00')).toBe('2026-11-29T14:02:11.000Z');
    expect(utcTime('2026-11-29T14:02:11Z')).toBe('2026-11-29T14:02:11.000Z');
  });

  it('says a text that is not a time is no time', () => {
    expect(utcTime('yesterday')).toBeNull();
  });

  it('gives the same UTC day for an instant as a Date and as the time the ledger stores', () => {
    const at = new Date('2026-11-29T23:59:59.999Z');
    expect(utcDay(at)).toBe('2026-11-29');
    expect(utcDay(at.toISOString())).toBe('2026-11-29');
    expect(utcDay(utcTime('2026-11-30T00:30:00+01:00')!)).toBe('2026-11-29');
  });

  it('writes a time for a person in UTC to the minute, and a day as its UTC date', () => {
    expect(humanTime('2026-11-29T15:02:11+01:00')).toBe('2026-11-29 14:02 UTC');
    expect(humanDay('2026-11-29T23:30:00-01:00')).toBe('2026-11-30');
  });

  it('gives back for a person what is not a time, and names a missing day as unknown', () => {
    expect(humanTime('not a time')).toBe('not a time');
    expect(humanDay(null)).toBe('an unknown date');
  });

  it('writes an instant for a file name without colons or dots', () => {
    expect(fileTime(new Date('2026-11-29T20:33:37.123Z'))).toBe('2026-11-29T20-33-37-123Z');
  });
});
