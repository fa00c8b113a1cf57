/**
 * Keeps the address and the views in step (docs/window.md#the-address): what the Learnings list
 * shows (filter, sort, search, the open learning), what the Runs view is narrowed by (agent,
 * outcome, workflow, the id searched) and the request in view in Needs you are
 * written into the current history entry as they change; Learnings and Runs are read back from
 * it here on load, on a pasted link and on Back / Forward (Needs you reads its request itself,
 * from the route it is given). Without this a reload loses the view and a view cannot be
 * linked. The host's token never enters: these are hash parameters, written by `href` alone.
 */
import { QUERY_PARAMS, queryFromParams, queryParams, type LearningsState } from './learnings.js';
import { RUNS_PARAMS, runsFilterFromParams, runsParams } from './runs.js';
import type { Stores } from './stores.js';

/** The Learnings parameters: the query, and `id`, the learning open in the detail panel. */
const LEARNINGS_PARAMS: readonly string[] = [...QUERY_PARAMS, 'id'];

function learningsParams(state: LearningsState): Record<string, string | undefined> {
  return { ...queryParams(state), id: state.detailId ?? undefined };
}

export function wireAddress(stores: Stores): () => void {
  const { nav, learnings, help, runs } = stores;

  function toAddress(): void {
    const { view, params } = nav.getState().route;
    if (view === 'learnings') nav.getState().replace(learningsParams(learnings.getState()));
    else if (view === 'needs') nav.getState().replace({ request: help.getState().selectedId ?? undefined });
    // The run or chain in view is the address's own (links name them); the filters are the view's.
    else if (view === 'runs') nav.getState().replace({ run: params.run, chain: params.chain, ...runsParams(runs.getState()) });
  }

  function fromAddress(): void {
    const { view, params } = nav.getState().route;
    if (view === 'runs') {
      if (!RUNS_PARAMS.some((key) => params[key] !== undefined)) toAddress();
      else runs.getState().applyFilter(runsFilterFromParams(params));
      return;
    }
    if (view !== 'learnings') {
      if (view === 'needs' && !params.request) toAddress();
      return;
    }
    // A bare address (a view switch, the nav bar) keeps what the list shows and takes it in;
    // one that names any parameter states the whole view.
    if (!LEARNINGS_PARAMS.some((key) => params[key] !== undefined)) {
      toAddress();
      return;
    }
    const state = learnings.getState();
    state.applyQuery(queryFromParams(params));
    const id = params.id ?? null;
    if (id !== state.detailId) void state.openDetail(id);
  }

  fromAddress();
  const offs = [
    nav.subscribe((s, prev) => {
      if (s.route !== prev.route) fromAddress();
    }),
    learnings.subscribe((s, prev) => {
      if (s.filter !== prev.filter || s.sort !== prev.sort || s.dir !== prev.dir || s.detailId !== prev.detailId) toAddress();
    }),
    help.subscribe((s, prev) => {
      if (s.selectedId !== prev.selectedId) toAddress();
    }),
    runs.subscribe((s, prev) => {
      if (s.agent !== prev.agent || s.outcome !== prev.outcome || s.workflow !== prev.workflow || s.search !== prev.search) toAddress();
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
