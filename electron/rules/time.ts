/**
 * Times, in one place and with one meaning per name. The ledger stores every time as ISO 8601 in
 * UTC with milliseconds (`2026-01-02T03:04:05.000Z`), so text order is time order and a time's
 * first ten characters are its UTC day: the retention sweep and the day columns rely on both.
 * What a person reads (`humanTime`, `humanDay`) and what a file name may hold (`fileTime`) are
 * derived from that one form. Pure: no clock is read here, every instant is passed in.
 */

/** Days in a month of the proleptic Gregorian calendar (`month` 1–12); 0 for a month that is not one. */
export function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** The length of a time in the form the ledger stores (`utcTime`'s answers): `2026-01-02T03:04:05.000Z`. */
const STORED_LENGTH = 24;
/** Where that form has its separators, and which. */
const STORED_SEPARATORS: readonly [number, string][] = [[4, '-'], [7, '-'], [10, 'T'], [13, ':'], [16, ':'], [19, '.'], [23, 'Z']];
const DIGIT_ZERO = 48;

/** The number the ASCII digits `at[from .. from + count)` spell, or -1 when one of them is not a digit. */
function digitsAt(at: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const digit = at.charCodeAt(i) - DIGIT_ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * Whether `at` is already a time as the ledger stores it, and a real one: its fields in range,
 * no 30 February. Such a text is its own `utcTime`, so it needs no `Date` round trip. Nearly
 * every time an events file holds is written this way, and ingest reads several per line: the
 * round trip (`toISOString` above all) was a tenth of checking a line. Read character by
 * character rather than by a pattern with a group per field, which made an array and seven
 * strings at every check (1.6% of ingest's main thread); test/unit/time.test.ts holds it to the
 * round trip, shapes that are not times included.
 */
export function isStoredTime(at: string): boolean {
  if (at.length !== STORED_LENGTH) return false;
  for (const [i, separator] of STORED_SEPARATORS) if (at[i] !== separator) return false;
  const year = digitsAt(at, 0, 4);
  const month = digitsAt(at, 5, 2);
  const day = digitsAt(at, 8, 2);
  const hour = digitsAt(at, 11, 2);
  const minute = digitsAt(at, 14, 2);
  const second = digitsAt(at, 17, 2);
  return (
    year >= 0 && digitsAt(at, 20, 3) >= 0 &&
    day >= 1 && day <= daysIn(year, month) &&
    hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59
  );
}

/** `at` as the ledger stores a time, or null when `at` is not a time. */
export function utcTime(at: string): string | null {
  if (isStoredTime(at)) return at;
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * The UTC day (`YYYY-MM-DD`) of an instant: a Date, or a time as the ledger stores it
 * (`utcTime`); a time in another form must go through `utcTime` first.
 */
export function utcDay(at: Date | string): string {
  return (typeof at === 'string' ? at : at.toISOString()).slice(0, 10);
}

/** "2026-11-29 14:02 UTC", for messages a person reads; text that is not a time is given back. */
export function humanTime(at: string): string {
  const iso = utcTime(at);
  return iso === null ? at : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** "2026-11-29", the UTC day for messages a person reads; "an unknown date" when there is none. */
export function humanDay(at: string | null): string {
  if (!at) return 'an unknown date';
  const iso = utcTime(at);
  return iso === null ? at : utcDay(iso);
}

/** `2026-11-29T20-33-37-123Z`: an instant as part of a file name (no `:`, which Windows refuses). */
export function fileTime(at: Date): string {
  return at.toISOString().replace(/[:.]/g, '-');
}
