/** How the commands render for a terminal, one way for all of them. */
import { firstListed } from '../rules/listing.js';

/** A one-line rendering of a text for a terminal listing, cut at `max` characters (code points). */
export function clip(text: string, max = 80): string {
  const flat = text.replace(/\s+/gu, ' ').trim();
  const points = [...flat];
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : flat;
}


/** The first of `items`, joined, then how many more and where to see them all (rules/listing.ts). */
export function listedUpTo(items: readonly string[], seeAll: string): string {
  const { listed, more } = firstListed(items);
  return more === 0 ? items.join(', ') : `${listed.join(', ')} … and ${more} more (${seeAll})`;
}
