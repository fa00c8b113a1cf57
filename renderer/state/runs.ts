/** Runs and chains: what each run was given, what changed since the last one, chain links. */
import { createStore } from 'zustand/vanilla';
import type { CallOutput, DeskApi } from '../../shared/api.js';
import type { Chain, Run } from '../../shared/domain.js';
import { messageOf } from './errors.js';

export type RunDetail = CallOutput<'runs.detail'>;

export interface RunsState {
  agent: string;
  runs: Run[];
  runsTotal: number;
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
  setAgent(agent: string): void;
  load(): Promise<void>;
  openRun(run: string | null): Promise<void>;
  loadDetail(): Promise<void>;
}

export function createRunsStore(api: DeskApi) {
  let seq = 0;
  return createStore<RunsState>()((set, get) => ({
    agent: '',
    runs: [],
    runsTotal: 0,
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
    setAgent(agent) {
      set({ agent });
      void get().load();
    },
    async load() {
      const agent = get().agent || undefined;
      const { runsLimit, chainsLimit } = get();
      try {
        const [runs, chains] = await Promise.all([
          api.call('runs.list', agent ? { agent, limit: runsLimit } : { limit: runsLimit }),
          api.call('chains.list', agent ? { agent, limit: chainsLimit } : { limit: chainsLimit }),
        ]);
        if ((get().agent || undefined) !== agent) return;
        set({
          runs: runs.rows,
          runsTotal: runs.total,
          chains: chains.rows,
          chainsTotal: chains.total,
          error: null,
          loaded: true,
        });
      } catch (error) {
        set({ error: messageOf(error), loaded: true });
      }
      if (get().runId) await get().loadDetail();
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
