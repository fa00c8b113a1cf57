/**
 * An in-memory stand-in for the main process, for component tests only: it answers every
 * channel of the contract with contract-valid data (inputs and outputs are run through the
 * contract's own schemas) and lets a test push events. The real end-to-end tests run the host.
 */
import {
  ApiError,
  parseInput,
  parseOutput,
  type CallArgs,
  type CallInput,
  type CallOutput,
  type Channel,
  type DeskApi,
  type DeskInfo,
  type LearningFilter,
  type PushName,
  type PushPayload,
  type RefusalGroup,
} from '../../shared/api.js';
import type { Chain, HelpRequest, Learning, LearningState, Run, SweepReport } from '../../shared/domain.js';
import { testDeskInfo } from '../support/deskInfo.js';

const IMPACTS = ['low', 'medium', 'high'] as const;
const STATES: LearningState[] = ['provisional', 'confirmed', 'lapsed', 'rejected'];

export function makeLearning(i: number, patch: Partial<Learning> = {}): Learning {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + i * 60_000).toISOString();
  return {
    id: `lrn_${String(i).padStart(6, '0')}`,
    agent: i % 2 === 0 ? 'reviewer' : 'builder',
    text: `Learning number ${i}: run the linter before committing`,
    impact: IMPACTS[i % 3]!,
    state: STATES[i % 4 === 3 ? 2 : i % 4 === 2 ? 1 : 0]!,
    proposals: 1,
    rediscoveries: i % 3,
    echoes: i % 5,
    runs_left: 20 - (i % 20),
    first_at: at,
    last_at: at,
    live_since: at,
    lapsed_at: null,
    decided_by: null,
    decided_at: null,
    reason: null,
    ...patch,
  };
}

export function makeRequest(patch: Partial<HelpRequest> = {}): HelpRequest {
  return {
    id: 'help_1',
    agent: 'builder',
    run: 'run_1',
    chain: 'chain_1',
    fatal: true,
    category: 'access',
    question: 'The deploy key is missing. Where is it?',
    at: '2026-01-02T10:00:00.000Z',
    state: 'open',
    workflow: 'release',
    flags: { publish: true, tier: 'gold' },
    routes: ['main'],
    awaiting_human: true,
    answer: null,
    responder: null,
    answered_at: null,
    continued_as: null,
    flags_changed: null,
    ...patch,
  };
}

export function makeSweep(patch: Partial<SweepReport> = {}): SweepReport {
  return {
    at: '2026-01-02T03:00:00.000Z',
    help_requests: 2,
    runs: 5,
    proposals: 11,
    refused_lines: 7,
    event_files: 3,
    lapsed_learnings: 4,
    chains: 1,
    ...patch,
  };
}

export interface FakeOptions {
  learnings?: Learning[];
  requests?: HelpRequest[];
  /** Sweep reports, newest first; the first is the status bar's last sweep. Default: one. */
  sweeps?: SweepReport[];
  /** Refused proposals by rule, as the ledger groups them. Default: none. */
  refusals?: RefusalGroup[];
  osUser?: string;
  host?: 'electron' | 'browser';
}

type Listener = (payload: unknown) => void;

export class FakeDesk implements DeskApi {
  learnings: Learning[];
  requests: HelpRequest[];
  chains: Chain[] = [];
  runs: Run[] = [];
  sweeps: SweepReport[];
  refusals: RefusalGroup[];
  calls: { channel: Channel; input: unknown }[] = [];
  /** Folders `factory.open` answers `needs_confirmation` for unless `create` is given. */
  notFactories = new Set<string>();
  /** Errors to throw on the next call of a channel. */
  failNext = new Map<Channel, ApiError>();
  private undoStack = new Map<string, Learning>();
  private listeners = new Map<PushName, Set<Listener>>();
  private chainSeq = 100;
  info: DeskInfo;

  constructor(options: FakeOptions = {}) {
    this.learnings = options.learnings ?? Array.from({ length: 50 }, (_, i) => makeLearning(i));
    this.requests = options.requests ?? [makeRequest()];
    this.sweeps = options.sweeps ?? [makeSweep()];
    this.refusals = options.refusals ?? [];
    this.info = testDeskInfo({
      host: options.host ?? 'browser',
      os_user: options.osUser ?? 'osuser',
      last_sweep: this.sweeps[0] ?? null,
    });
  }

  emit<P extends PushName>(name: P, payload: PushPayload<P>): void {
    for (const l of this.listeners.get(name) ?? []) l(payload);
  }

  on<P extends PushName>(name: P, listener: (payload: PushPayload<P>) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  async call<C extends Channel>(channel: C, input: CallInput<C>): Promise<CallOutput<C>> {
    this.calls.push({ channel, input });
    const args = parseInput(channel, input);
    await Promise.resolve();
    const failure = this.failNext.get(channel);
    if (failure) {
      this.failNext.delete(channel);
      throw failure;
    }
    return parseOutput(channel, this.handle(channel, args));
  }

  private matches(l: Learning, f: LearningFilter, ignoreStates = false): boolean {
    if (f.agent && l.agent !== f.agent) return false;
    if (!ignoreStates && f.states && f.states.length > 0 && !f.states.includes(l.state)) return false;
    if (f.impacts && f.impacts.length > 0 && !f.impacts.includes(l.impact)) return false;
    if (f.search && !l.text.toLowerCase().includes(f.search.toLowerCase())) return false;
    return true;
  }

  private targetIds(target: CallArgs<'learnings.reject'>['target']): string[] {
    if ('ids' in target) return target.ids;
    return this.learnings.filter((l) => this.matches(l, target.filter)).map((l) => l.id);
  }

  private decide(ids: string[], by: string, next: (l: Learning) => Partial<Learning> | null): string[] {
    const changed: string[] = [];
    this.learnings = this.learnings.map((l) => {
      if (!ids.includes(l.id)) return l;
      const patch = next(l);
      if (!patch) return l;
      this.undoStack.set(l.id, l);
      changed.push(l.id);
      return { ...l, ...patch, decided_by: by, decided_at: new Date().toISOString() };
    });
    return changed;
  }

  private handle(channel: Channel, args: unknown): unknown {
    switch (channel) {
      case 'factory.open': {
        const a = args as CallArgs<'factory.open'>;
        if (a.path !== undefined && this.notFactories.has(a.path) && !a.create) {
          throw new ApiError('needs_confirmation', `${a.path} is not a factory yet. Make it a new factory?`);
        }
        return this.info;
      }
      case 'desk.info':
      case 'ledger.restore':
        return this.info;
      case 'learnings.query': {
        const a = args as CallArgs<'learnings.query'>;
        const rows = this.learnings
          .filter((l) => this.matches(l, a.filter))
          .sort((x, y) => (x.last_at < y.last_at ? 1 : x.last_at > y.last_at ? -1 : 0));
        if (a.dir === 'asc') rows.reverse();
        const counts = { provisional: 0, confirmed: 0, lapsed: 0, rejected: 0 };
        for (const l of this.learnings) if (this.matches(l, a.filter, true)) counts[l.state] += 1;
        return {
          total: rows.length,
          rows: rows.slice(a.offset, a.offset + a.limit),
          counts,
          agents: [...new Set(this.learnings.map((l) => l.agent))].sort(),
        };
      }
      case 'learnings.detail': {
        const a = args as CallArgs<'learnings.detail'>;
        const learning = this.learnings.find((l) => l.id === a.id);
        if (!learning) throw new ApiError('not_found', `no learning ${a.id}`);
        return {
          learning,
          history: [{ at: learning.first_at, kind: 'proposed', by: null, reason: null, run: null, state_before: null, state_after: 'provisional' }],
          given: { runs: 14, succeeded: 9, wilson_lower: 0.39 },
          agent_overall: { runs: 120, succeeded: 90, wilson_lower: 0.67 },
          runs: [],
        };
      }
      case 'learnings.reject': {
        const a = args as CallArgs<'learnings.reject'>;
        const ids = this.targetIds(a.target);
        return { changed: this.decide(ids, a.by, (l) => (l.state === 'rejected' ? null : { state: 'rejected', reason: a.reason ?? null })) };
      }
      case 'learnings.keep': {
        const a = args as CallArgs<'learnings.keep'>;
        const ids = this.targetIds(a.target);
        return {
          changed: this.decide(ids, a.by, (l) => (l.state === 'provisional' || l.state === 'lapsed' ? { state: 'confirmed' } : null)),
        };
      }
      case 'learnings.undo': {
        const a = args as CallArgs<'learnings.undo'>;
        const changed: string[] = [];
        this.learnings = this.learnings.map((l) => {
          const before = this.undoStack.get(l.id);
          if (!a.ids.includes(l.id) || !before) return l;
          this.undoStack.delete(l.id);
          changed.push(l.id);
          return before;
        });
        return { changed };
      }
      case 'help.list': {
        const a = args as CallArgs<'help.list'>;
        const rows = this.requests.filter((r) => (a.open === undefined ? true : (r.state === 'open') === a.open));
        return { total: rows.length, rows: rows.slice(a.offset, a.offset + a.limit) };
      }
      case 'help.detail': {
        const a = args as CallArgs<'help.detail'>;
        const request = this.requests.find((r) => r.id === a.id);
        if (!request) throw new ApiError('not_found', `no request ${a.id}`);
        return { request, chain: null, runs: [], continued: null };
      }
      case 'help.reply': {
        const a = args as CallArgs<'help.reply'>;
        const request = this.requests.find((r) => r.id === a.id);
        if (!request) throw new ApiError('not_found', `no request ${a.id}`);
        if (request.state !== 'open') {
          throw new ApiError('refused', `already answered by ${request.responder} at ${request.answered_at}`);
        }
        if (request.flags === null && (!a.workflow || !a.flags)) {
          throw new ApiError('refused', 'the asking run’s flags are unknown: state the workflow and its flags');
        }
        const answered: HelpRequest = {
          ...request,
          state: 'answered',
          answer: a.answer,
          responder: a.by ?? this.info.os_user,
          answered_at: '2026-01-02T11:00:00.000Z',
          continued_as: `chain_${this.chainSeq++}`,
          awaiting_human: false,
        };
        this.requests = this.requests.map((r) => (r.id === a.id ? answered : r));
        return answered;
      }
      case 'help.resolve': {
        const a = args as CallArgs<'help.resolve'>;
        const request = this.requests.find((r) => r.id === a.id);
        if (!request) throw new ApiError('not_found', `no request ${a.id}`);
        const resolved: HelpRequest = { ...request, state: 'resolved', responder: a.by ?? this.info.os_user, answered_at: '2026-01-02T11:00:00.000Z', awaiting_human: false };
        this.requests = this.requests.map((r) => (r.id === a.id ? resolved : r));
        return resolved;
      }
      case 'runs.list':
        return { total: this.runs.length, rows: this.runs };
      case 'runs.detail': {
        const a = args as CallArgs<'runs.detail'>;
        const run = this.runs.find((r) => r.run === a.run);
        if (!run) throw new ApiError('not_found', `no run ${a.run}`);
        return { run, given: [], previous: null, added: [], removed: [] };
      }
      case 'chains.list':
        return { total: this.chains.length, rows: this.chains };
      case 'activity.proposals':
        return { total: 0, rows: [] };
      case 'activity.refused':
        return { total: 0, rows: [] };
      case 'activity.refusalsByRule':
        return this.refusals;
      case 'activity.refusedFiles':
        return [];
      case 'events.reread':
        return { file: (args as CallArgs<'events.reread'>).file };
      case 'activity.sweeps': {
        const a = args as CallArgs<'activity.sweeps'>;
        return { rows: this.sweeps.slice(a.offset, a.offset + a.limit) };
      }
      case 'stats.daily':
        return [
          { day: '2026-01-01', proposals: 4, lapses: 1, help_requests: 2 },
          { day: '2026-01-02', proposals: 7, lapses: 0, help_requests: 1 },
        ];
    }
  }
}
