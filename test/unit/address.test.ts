import { describe, expect, it } from 'vitest';
import type { HelpRequest } from '../../shared/domain.js';
import { nextOpenAfter } from '../../renderer/state/help.js';
import { queryFromParams, queryParams } from '../../renderer/state/learnings.js';

describe('the Learnings view in the address', () => {
  it('a query written into the address reads back as the same query', () => {
    const query = {
      filter: { agent: 'builder', states: ['provisional' as const, 'lapsed' as const], impacts: ['high' as const], search: 'npm token' },
      sort: 'echoes' as const,
      dir: 'asc' as const,
    };
    const params = Object.fromEntries(Object.entries(queryParams(query)).filter((e): e is [string, string] => e[1] !== undefined));
    expect(queryFromParams(params)).toEqual(query);
  });

  it('leaves defaults out of the address, so the plain view has a plain address', () => {
    expect(Object.values(queryParams({ filter: {}, sort: 'last_at', dir: 'desc' })).filter((v) => v !== undefined)).toEqual([]);
  });

  it('ignores each value that does not fit, keeping the ones that do', () => {
    const query = queryFromParams({
      state: 'bogus,confirmed,confirmed',
      impact: 'huge',
      sort: 'nope',
      dir: 'sideways',
      agent: 'a'.repeat(65),
      q: 'x'.repeat(401),
    });
    expect(query).toEqual({ filter: { states: ['confirmed'] }, sort: 'last_at', dir: 'desc' });
  });
});

describe('moving on after a request is handled', () => {
  const request = (id: string) => ({ id }) as HelpRequest;
  const list = ['a', 'b', 'c', 'd'].map(request);

  it('goes to the next request still open, skipping the ones handled meanwhile', () => {
    expect(nextOpenAfter(list, 'b', new Set(['a', 'd']))?.id).toBe('d');
  });

  it('goes back to the nearest open one when the handled request was the last open one', () => {
    expect(nextOpenAfter(list, 'd', new Set(['a', 'b']))?.id).toBe('b');
    expect(nextOpenAfter(list, 'b', new Set())).toBeUndefined();
  });
});
