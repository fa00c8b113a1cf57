/** What the Desk did and refused: the proposal log, refused event lines, sweeps, daily counts. */
import { createStore } from 'zustand/vanilla';
import type { DayStats, DeskApi, RefusalGroup } from '../../shared/api.js';
import type { ProposalLogEntry, ProposalOutcome, RefusedLine, SweepReport } from '../../shared/domain.js';
import { messageOf } from './errors.js';

export interface ActivityState {
  outcome: ProposalOutcome | '';
  proposals: ProposalLogEntry[];
  proposalsTotal: number;
  refused: RefusedLine[];
  refusedTotal: number;
  refusalsByRule: RefusalGroup[];
  sweeps: SweepReport[];
  daily: DayStats[];
  error: string | null;
  loaded: boolean;
  setOutcome(outcome: ProposalOutcome | ''): void;
  load(): Promise<void>;
}

export function createActivityStore(api: DeskApi) {
  return createStore<ActivityState>()((set, get) => ({
    outcome: '',
    proposals: [],
    proposalsTotal: 0,
    refused: [],
    refusedTotal: 0,
    refusalsByRule: [],
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
        const [proposals, refused, sweeps, daily, refusalsByRule] = await Promise.all([
          api.call('activity.proposals', outcome ? { outcome, limit: 100 } : { limit: 100 }),
          api.call('activity.refused', { limit: 100 }),
          api.call('activity.sweeps', { limit: 50 }),
          api.call('stats.daily', { days: 30 }),
          api.call('activity.refusalsByRule', {}),
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
          error: null,
          loaded: true,
        });
      } catch (error) {
        set({ error: messageOf(error), loaded: true });
      }
    },
  }));
}
export type ActivityStore = ReturnType<typeof createActivityStore>;
