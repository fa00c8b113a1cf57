/**
 * Where the operator is: a view and its parameters, kept in the address hash so links between
 * requests, chains, runs and learnings are real links, a reload or a copied address opens the
 * same view, and Back works. Going to another view adds a history entry; refining the view in
 * place (a filter, the row in view) replaces the current one, so Back moves between views rather
 * than through every keystroke of a search (docs/window.md#the-address).
 */
import { createStore } from 'zustand/vanilla';

export const VIEWS = ['needs', 'learnings', 'runs', 'activity'] as const;
export type View = (typeof VIEWS)[number];

export const VIEW_TITLES: Record<View, string> = {
  needs: 'Needs you',
  learnings: 'Learnings',
  runs: 'Runs & chains',
  activity: 'Activity',
};

export interface Route {
  view: View;
  params: Record<string, string>;
}

export function parseHash(hash: string): Route {
  const body = hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = body.split('?', 2);
  const view = (VIEWS as readonly string[]).includes(path) ? (path as View) : 'needs';
  const params: Record<string, string> = {};
  new URLSearchParams(query).forEach((value, key) => {
    params[key] = value;
  });
  return { view, params };
}

export function href(view: View, params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, v);
  const q = search.toString();
  return `#/${view}${q ? `?${q}` : ''}`;
}

/** A route's address in its one written form, so two spellings of the same route compare equal. */
const addressOf = (route: Route): string => href(route.view, route.params);

export interface NavState {
  route: Route;
  go(view: View, params?: Record<string, string | undefined>): void;
  /** Rewrites the current view's parameters without a new history entry. */
  replace(params: Record<string, string | undefined>): void;
  /**
   * Re-reads the address (hashchange); an address naming the route already in use changes
   * nothing. Says whether the route changed.
   */
  sync(): boolean;
}

export function createNavStore() {
  return createStore<NavState>()((set, get) => ({
    route: parseHash(typeof window === 'undefined' ? '' : window.location.hash),
    go(view, params = {}) {
      const target = href(view, params);
      if (window.location.hash !== target) window.location.hash = target;
      set({ route: parseHash(target) });
    },
    replace(params) {
      // The address is read first: if it changed and its hashchange is not heard yet (a view
      // picked, a link followed, an address typed), that change wins. Writing this view's parameters over it would put
      // the window back on the view being left; a request list that finished loading just then
      // did so to a window opened on another view (docs/window.md#the-address).
      if (get().sync()) return;
      const { route } = get();
      const target = href(route.view, params);
      if (target === addressOf(route)) return;
      window.history.replaceState(window.history.state, '', target);
      set({ route: parseHash(target) });
    },
    sync() {
      const route = parseHash(window.location.hash);
      if (addressOf(route) === addressOf(get().route)) return false;
      set({ route });
      return true;
    },
  }));
}
export type NavStore = ReturnType<typeof createNavStore>;
