/** What the Desk did and refused: the proposal log, refused event lines, sweeps, daily counts. */
import { createStore } from 'zustand/vanilla';
import type { DayStats, DeskApi, RefusalGroup, RefusedFile } from '../../shared/api.js';
import type { ProposalLogEntry, ProposalOutcome, RefusedLine, SweepReport } from '../../shared/domain.js';
import { messageOf } from './errors.js';

export interface ActivityState {
  outcome: ProposalOutcome | '';
  proposals: ProposalLogEntry[];
  proposalsTotal: number;
  refused: RefusedLine[];
  refusedTotal: number;
  refusalsByRule: RefusalGroup[];
  /** Events files refused as a whole until they are read again. */
  refusedFiles: RefusedFile[];
  sweeps: SweepReport[];
  daily: DayStats[];
  error: string | null;
  loaded: boolean;
  setOutcome(outcome: ProposalOutcome | ''): void;
  load(): Promise<void>;
  /** The next page of the proposal log, after the entries shown. */
  moreProposals(): Promise<void>;
  /** Has an events file read again from its first line. */
  reread(file: string): Promise<void>;
}

/** Proposal log entries fetched at a time. */
const PAGE = 100;

export function createActivityStore(api: DeskApi) {
  return createStore<ActivityState>()((set, get) => ({
    outcome: '',
    proposals: [],
    proposalsTotal: 0,
    refused: [],
    refusedTotal: 0,
    refusalsByRule: [],
    refusedFiles: [],
    sweeps: [],
    daily: [],
    error: null,
    loaded: false,
    setOutcome(outcome) {
      set({ outcome });
      void get().load();
    },
    async load() {
      const outcome = get().outcome || undefined;
      try {
        const [proposals, refused, sweeps, daily, refusalsByRule, refusedFiles] = await Promise.all([
          api.call('activity.proposals', outcome ? { outcome, limit: PAGE } : { limit: PAGE }),
          api.call('activity.refused', { limit: 100 }),
          api.call('activity.sweeps', { limit: 50 }),
          api.call('stats.daily', { days: 30 }),
          api.call('activity.refusalsByRule', {}),
          api.call('activity.refusedFiles', {}),
        ]);
        if ((get().outcome || undefined) !== outcome) return;
        set({
          proposals: proposals.rows,
          proposalsTotal: proposals.total,
          refused: refused.rows,
          refusedTotal: refused.total,
          sweeps: sweeps.rows,
          daily,
          refusalsByRule,
          refusedFiles,
          error: null,
          loaded: true,
        });
      } catch (error) {
        set({ error: messageOf(error), loaded: true });
      }
    },
    async moreProposals() {
      const { outcome, proposals } = get();
      const page = { offset: proposals.length, limit: PAGE };
      try {
        const next = await api.call('activity.proposals', outcome ? { outcome, ...page } : page);
        if (get().outcome !== outcome || get().proposals !== proposals) return;
        set({ proposals: [...proposals, ...next.rows], proposalsTotal: next.total, error: null });
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
    async reread(file) {
      try {
        await api.call('events.reread', { file: file.replace(/^events\//, '') });
        await get().load();
      } catch (error) {
        set({ error: messageOf(error) });
      }
    },
  }));
}
export type ActivityStore = ReturnType<typeof createActivityStore>;
