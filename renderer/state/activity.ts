/** What the Desk did and refused: the proposal log, refused event lines, sweeps, daily counts. */
import { createStore } from 'zustand/vanilla';
import { MAX_PAGE, type DayStats, type DeskApi, type RefusalGroup, type RefusedFile } from '../../shared/api.js';
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
  /** How many proposal log entries are shown: every read (a refresh too) asks for this many. */
  proposalsLimit: number;
  setOutcome(outcome: ProposalOutcome | ''): void;
  load(): Promise<void>;
  /** Shows a page more of the proposal log. */
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
    proposalsLimit: PAGE,
    setOutcome(outcome) {
      set({ outcome, proposalsLimit: PAGE });
      void get().load();
    },
    async load() {
      const outcome = get().outcome || undefined;
      const limit = get().proposalsLimit;
      try {
        const [proposals, refused, sweeps, daily, refusalsByRule, refusedFiles] = await Promise.all([
          api.call('activity.proposals', outcome ? { outcome, limit } : { limit }),
          api.call('activity.refused', { limit: 100 }),
          api.call('activity.sweeps', { limit: 50 }),
          api.call('stats.daily', { days: 30 }),
          api.call('activity.refusalsByRule', {}),
          api.call('activity.refusedFiles', {}),
        ]);
        if ((get().outcome || undefined) !== outcome || get().proposalsLimit !== limit) return;
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
    // More rows by a larger page, not by appending from an offset: the log grows at its head while
    // the watcher ingests, so offsets shift, and every refresh (each change pushed) reads the
    // first page again — the rows shown stay those asked for (as the runs listing does).
    async moreProposals() {
      set({ proposalsLimit: Math.min(MAX_PAGE, get().proposalsLimit + PAGE) });
      await get().load();
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
