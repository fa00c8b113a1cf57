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

/** The form the ledger stores (`utcTime`'s answers): `2026-01-02T03:04:05.000Z`. */
const STORED_FORM = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{3}Z$/;

/**
 * Whether `at` is already a time as the ledger stores it, and a real one: its fields in range,
 * no 30 February. Such a text is its own `utcTime`, so it needs no `Date` round trip. Nearly
 * every time an events file holds is written this way, and ingest reads several per line: the
 * round trip (`toISOString` above all) was a tenth of checking a line.
 */
export function isStoredTime(at: string): boolean {
  const parts = STORED_FORM.exec(at);
  if (parts === null) return false;
  const month = Number(parts[2]);
  const day = Number(parts[3]);
  return (
    day >= 1 && day <= daysIn(Number(parts[1]), month) &&
    Number(parts[4]) <= 23 && Number(parts[5]) <= 59 && Number(parts[6]) <= 59
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
