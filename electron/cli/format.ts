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
