/** How the commands render for a terminal, one way for all of them. */

/** A one-line rendering of a text for a terminal listing, cut at `max` characters (code points). */
export function clip(text: string, max = 80): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  const points = [...flat];
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : flat;
}

/** "1 run", "2 runs". */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * At most `most` of `items`, joined, then how many more and where to see them all: a catch-up of
 * a long history finds thousands of fatal help requests, and a line of thousands of ids tells a
 * person nothing (the full list is one command away, and in `--json`).
 */
export function listedUpTo(items: readonly string[], most: number, seeAll: string): string {
  if (items.length <= most) return items.join(', ');
  return `${items.slice(0, most).join(', ')} … and ${items.length - most} more (${seeAll})`;
}

