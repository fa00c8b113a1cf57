import { describe, expect, it } from 'vitest';
import { MOST_LISTED, firstListed } from '../../electron/rules/listing.js';
import { listedUpTo } from '../../electron/cli/format.js';

describe('long lists', () => {
  it('a list of at most the most listed is shown whole, with nothing more to count', () => {
    const items = Array.from({ length: MOST_LISTED }, (_, i) => `r${i}`);
    expect(firstListed(items)).toEqual({ listed: items, more: 0 });
    expect(listedUpTo(items, 'see all')).toBe(items.join(', '));
  });

  it('a longer list shows the first ones and counts the rest, saying where to see them all', () => {
    const items = Array.from({ length: MOST_LISTED + 3 }, (_, i) => `r${i}`);
    const { listed, more } = firstListed(items);
    expect(listed).toEqual(items.slice(0, MOST_LISTED));
    expect(more).toBe(3);
    expect(listedUpTo(items, '--json lists them all')).toBe(`${items.slice(0, MOST_LISTED).join(', ')} … and 3 more (--json lists them all)`);
  });
});
