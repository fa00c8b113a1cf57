import { describe, expect, it } from 'vitest';
import { fileTime, humanDay, humanTime, isStoredTime, utcDay, utcTime } from '../../electron/rules/time.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';

/** What utcTime answered before its fast path: the Date round trip, for every text. */
function roundTrip(at: string): string | null {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

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

  it('takes a time already in the stored form as it is, exactly when the Date round trip gives it back unchanged', () => {
    const next = seededRandom(20261201);
    const digits = (n: number, most: number) => String(Math.floor(next() * (most + 1))).padStart(n, '0');
    const edges = ['2024-02-29T00:00:00.000Z', '2026-02-29T00:00:00.000Z', '2026-02-30T12:00:00.000Z', '2026-04-31T00:00:00.000Z',
      '2026-12-31T23:59:59.999Z', '2026-01-01T24:00:00.000Z', '2026-01-01T00:60:00.000Z', '2026-00-10T00:00:00.000Z',
      '2026-13-10T00:00:00.000Z', '2026-01-00T00:00:00.000Z', '0000-01-01T00:00:00.000Z', '1900-02-29T00:00:00.000Z', '2000-02-29T00:00:00.000Z'];
    const random = Array.from({ length: 5_000 }, () =>
      `${digits(4, 9999)}-${digits(2, 13)}-${digits(2, 32)}T${digits(2, 25)}:${digits(2, 61)}:${digits(2, 61)}.${digits(3, 999)}Z`);
    for (const at of [...edges, ...random]) {
      expect(utcTime(at), at).toBe(roundTrip(at));
      expect(isStoredTime(at), at).toBe(roundTrip(at) === at);
    }
  });

  it('takes nothing else as a stored time: a stored time with any one character changed, added or taken away is one only when the round trip gives it back', () => {
    const next = seededRandom(20261202);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const valid = ['2026-01-02T03:04:05.000Z', '2024-02-29T23:59:59.999Z', '1999-12-31T00:00:00.123Z'];
    const characters = ['0', '5', '9', '-', ':', '.', 'T', 'Z', 't', 'z', ' ', '\n', '+', '/', 'a', '٣', '０', '\u0000', ''];
    for (let i = 0; i < 20_000; i++) {
      const at = pick(valid);
      const place = Math.floor(next() * (at.length + 1));
      const change = pick(['replace', 'insert', 'delete'] as const);
      const changed =
        change === 'insert' ? at.slice(0, place) + pick(characters) + at.slice(place)
        : change === 'delete' ? at.slice(0, place) + at.slice(place + 1)
        : at.slice(0, place) + pick(characters) + at.slice(place + 1);
      expect(isStoredTime(changed), JSON.stringify(changed)).toBe(roundTrip(changed) === changed);
    }
  });
});
