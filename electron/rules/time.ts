/**
 * Times, in one place and with one meaning per name. The ledger stores every time as ISO 8601 in
 * UTC with milliseconds (`2026-01-02T03:04:05.000Z`), so text order is time order and a time's
 * first ten characters are its UTC day: the retention sweep and the day columns rely on both.
 * What a person reads (`humanTime`, `humanDay`) and what a file name may hold (`fileTime`) are
 * derived from that one form. Pure: no clock is read here, every instant is passed in.
 */

/** `at` as the ledger stores a time, or null when `at` is not a time. */
export function utcTime(at: string): string | null {
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
