/** Runs and chains: finding runs, what each was given and did, chain links. */
import { createStore } from 'zustand/vanilla';
import { CALLS, RunOutcomeFilter, type CallInput, type CallOutput, type DeskApi } from '../../shared/api.js';
import type { Chain, Run } from '../../shared/domain.js';
import { messageOf } from './errors.js';

export type RunDetail = CallOutput<'runs.detail'>;

/** What the runs and chains listings are narrowed by; '' for no filter (docs/window.md#runs). */
export interface RunsFilter {
  agent: string;
  outcome: RunOutcomeFilter | '';
  workflow: string;
  /** A run, chain or help request id, or its first characters. */
  search: string;
}

const NO_FILTER: RunsFilter = { agent: '', outcome: '', workflow: '', search: '' };

/** What a runs listing can be narrowed to by outcome: one of the outcomes, or still running. */
export const OUTCOME_FILTERS: readonly RunOutcomeFilter[] = RunOutcomeFilter.options;

/** The address parameters of the Runs view's filters (docs/window.md#the-address). */
export const RUNS_PARAMS = ['agent', 'outcome', 'workflow', 'q'] as const;

/** A filter as address parameters: only the parts given. */
export function runsParams(f: RunsFilter): Record<(typeof RUNS_PARAMS)[number], string | undefined> {
  return { agent: f.agent || undefined, outcome: f.outcome || undefined, workflow: f.workflow || undefined, q: f.search || undefined };
}

/**
 * A filter read back from the address: each value checked as the `runs.list` call checks it (an
 * outcome that is not one, an agent name too long), and one that does not fit is ignored, not
 * fatal — a view opened from a bad link still opens.
 */
export function runsFilterFromParams(params: Record<string, string>): RunsFilter {
  const input = CALLS['runs.list'].input.shape;
  const fits = <T extends string>(schema: { safeParse(value: unknown): { success: boolean } }, value: string | undefined): T | '' =>
    value !== undefined && schema.safeParse(value).success ? (value as T) : '';
  return {
    agent: fits(input.agent, params.agent),
    outcome: fits<RunOutcomeFilter>(input.outcome, params.outcome),
    workflow: fits(input.workflow, params.workflow),
    search: fits(input.search, params.q),
  };
}

export interface RunsState extends RunsFilter {
  runs: Run[];
  runsTotal: number;
  /** Every workflow a run has, for the workflow filter's choices. */
  workflows: string[];
  chains: Chain[];
  chainsTotal: number;
  error: string | null;
  loaded: boolean;
  runId: string | null;
  detail: RunDetail | null;
  detailError: string | null;
  runsLimit: number;
  chainsLimit: number;
  more(which: 'runs' | 'chains'): void;
  setFilter(patch: Partial<RunsFilter>): void;
  /** Takes a whole filter (from the address), reading the listings again only when it differs. */
  applyFilter(filter: RunsFilter): void;
  /** Reads the listings for the filter and limits shown; the open run's detail is not read again. */
  load(): Promise<void>;
  /**
   * The view's first listing, unless one was already asked for: an address naming a filter asks
   * for it before the view mounts, and the view asking again sent the same two calls twice.
   */
  loadFirst(): void;
  /** Reads the workflow filter's choices: once when the view opens, and in `refresh`. */
  loadWorkflows(): Promise<void>;
  /** After the ledger changed: the listings, the workflows and the open run's detail, read again. */
  refresh(): Promise<void>;
  openRun(run: string | null): Promise<void>;
  loadDetail(): Promise<void>;
}

/** The listing inputs of a filter: only the parts given, so the Desk sees no empty conditions. */
function listInputs(f: RunsFilter, runsLimit: number, chainsLimit: number): [CallInput<'runs.list'>, CallInput<'chains.list'>] {
  const search = f.search.trim();
  const runs: CallInput<'runs.list'> = { limit: runsLimit };
  const chains: CallInput<'chains.list'> = { limit: chainsLimit };
  if (f.agent) runs.agent = chains.agent = f.agent;
  if (search) runs.search = chains.search = search;
  if (f.outcome) runs.outcome = f.outcome;
  if (f.workflow) runs.workflow = f.workflow;
  return [runs, chains];
}

export function createRunsStore(api: DeskApi) {
  let seq = 0;
  let listSeq = 0;
  return createStore<RunsState>()((set, get) => ({
    ...NO_FILTER,
    runs: [],
    runsTotal: 0,
    workflows: [],
    chains: [],
    chainsTotal: 0,
    error: null,
    loaded: false,
    runId: null,
    detail: null,
    detailError: null,
    runsLimit: 100,
    chainsLimit: 50,
    more(which) {
      if (which === 'runs') set({ runsLimit: Math.min(1000, get().runsLimit + 200) });
      else set({ chainsLimit: Math.min(1000, get().chainsLimit + 200) });
      void get().load();
    },
    setFilter(patch) {
      set(patch);
      void get().load();
    },
    applyFilter(filter) {
      const now = get();
      if (now.agent === filter.agent && now.outcome === filter.outcome && now.workflow === filter.workflow && now.search === filter.search) return;
      get().setFilter(filter);
    },
    async load() {
      const { runsLimit, chainsLimit } = get();
      const [runsInput, chainsInput] = listInputs(get(), runsLimit, chainsLimit);
      // Only the answer to the newest filter is shown: typing a search sends one call a key.
      const mine = ++listSeq;
      try {
        const [runs, chains] = await Promise.all([api.call('runs.list', runsInput), api.call('chains.list', chainsInput)]);
        if (mine !== listSeq) return;
        set({
          runs: runs.rows,
          runsTotal: runs.total,
          chains: chains.rows,
          chainsTotal: chains.total,
          error: null,
          loaded: true,
        });
      } catch (error) {
        if (mine === listSeq) set({ error: messageOf(error), loaded: true });
      }
    },
    loadFirst() {
      if (listSeq === 0) void get().load();
    },
    async loadWorkflows() {
      try {
        set({ workflows: (await api.call('runs.workflows', {})).workflows });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
    async refresh() {
      await Promise.all([get().load(), get().loadWorkflows(), get().loadDetail()]);
    },
    async openRun(run) {
      if (run === get().runId && get().detail) return;
      set({ runId: run, detail: null, detailError: null });
      if (run) await get().loadDetail();
    },
    async loadDetail() {
      const run = get().runId;
      if (!run) return;
      const mine = ++seq;
      try {
        const detail = await api.call('runs.detail', { run });
        if (mine === seq && get().runId === run) set({ detail, detailError: null });
      } catch (error) {
        if (mine === seq) set({ detailError: messageOf(error) });
      }
    },
  }));
}
export type RunsStore = ReturnType<typeof createRunsStore>;
