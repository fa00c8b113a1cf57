/**
 * How long lists are shown to a person: the first few one by one, then how many more. A catch-up
 * of a long history finds thousands of refused lines or fatal requests, and a settings file with
 * 200,000 unknown keys would print 200,000 warnings on every command: the first ones say what is
 * wrong, the count says how much, and the full list is one command (or `--json`) away.
 */

/** The most items of one list that are shown one by one. */
export const MOST_LISTED = 20;

/** The items shown one by one, and how many are left unshown. */
export function firstListed<T>(items: readonly T[], most: number = MOST_LISTED): { listed: readonly T[]; more: number } {
  if (items.length <= most) return { listed: items, more: 0 };
  return { listed: items.slice(0, most), more: items.length - most };
}
