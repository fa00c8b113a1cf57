// @vitest-environment happy-dom
/**
 * The address and the route the window shows (renderer/state/nav.ts, docs/window.md#the-address).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { createNavStore } from '../../renderer/state/nav.js';

beforeEach(() => window.history.replaceState(null, '', '#/needs'));

describe('the address', () => {
  it('a view refining its address does not write over an address changed since the window last read it', () => {
    const nav = createNavStore();
    expect(nav.getState().route.view).toBe('needs');
    // A view picked (or a link followed): the address moves, its hashchange not yet heard.
    window.history.replaceState(null, '', '#/activity');
    // Meanwhile the request list finishes loading and refines Needs you's address.
    nav.getState().replace({ request: 'hlp_1' });
    expect(window.location.hash).toBe('#/activity');
    expect(nav.getState().route).toEqual({ view: 'activity', params: {} });
  });

  it('a view refining the address it is on rewrites it in place', () => {
    const nav = createNavStore();
    nav.getState().replace({ request: 'hlp_1' });
    expect(window.location.hash).toBe('#/needs?request=hlp_1');
    expect(nav.getState().route).toEqual({ view: 'needs', params: { request: 'hlp_1' } });
  });
});
