/**
 * Help requests: the "Needs you" list, the request in view, and the operator's reply drafts.
 * Drafts live here, not in the form, so a refresh (live push, re-render) never loses what was typed.
 */
import { createStore } from 'zustand/vanilla';
import { MAX_PAGE, type CallOutput, type DeskApi } from '../../shared/api.js';
import type { HelpRequest } from '../../shared/domain.js';
import { parseFlagItems, parseFlagLines, type ParsedFlags } from '../../shared/flags.js';
import { parseRoutes } from '../lib/format.js';
import { messageOf } from './errors.js';

export interface Draft {
  answer: string;
  workflow: string;
  flags: string;
  /** The operator states that the workflow takes no flags at all (the CLI's `--no-flags`). */
  noFlags: boolean;
  routes: string;
  /**
   * Inherited flags the operator changes on purpose, through the form's own control ("Change a
   * flag…"): never filled by anything else, so a reply changes no flag unless a person asked.
   */
  flagChanges: FlagChange[];
}

/** One change to an inherited flag as typed: the flag's name and its new value. */
export interface FlagChange {
  key: string;
  value: string;
}

/** A copy of `record` without the entry under `key`. */
function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

export const EMPTY_DRAFT: Draft = { answer: '', workflow: '', flags: '', noFlags: false, routes: '', flagChanges: [] };

/**
 * The flag changes of a draft read by the one shared parser (shared/flags.ts), as `--set-flag
 * k=v` is: the same typed value means the same flag whichever side sent it. A name holding `=`
 * cannot be written as `k=v` and is refused rather than split somewhere else.
 */
export function parsedFlagChanges(draft: Draft): ParsedFlags {
  const items = draft.flagChanges.map((c, i) => ({ text: `${c.key}=${c.value}`, where: `change ${i + 1}` }));
  const parsed = parseFlagItems(items);
  draft.flagChanges.forEach((c, i) => {
    if (c.key.includes('=')) parsed.problems.push(`change ${i + 1}: a flag name cannot hold “=”`);
  });
  return parsed;
}

export type HelpDetail = CallOutput<'help.detail'>;

export interface HelpState {
  rows: HelpRequest[];
  total: number;
  /** Requests answered or resolved in this window, kept in view so the outcome stays visible. */
  handled: Record<string, HelpRequest>;
  selectedId: string | null;
  detail: HelpDetail | null;
  detailError: string | null;
  loadError: string | null;
  loaded: boolean;
  drafts: Record<string, Draft>;
  errors: Record<string, string>;
  pending: Record<string, 'reply' | 'resolve'>;
  load(): Promise<void>;
  select(id: string | null): Promise<void>;
  loadDetail(): Promise<void>;
  move(delta: number): void;
  listed(): HelpRequest[];
  setDraft(id: string, patch: Partial<Draft>): void;
  /** `by`: who the window acts as (the desk store's actor), recorded as the responder. */
  reply(id: string, by: string): Promise<boolean>;
  resolve(id: string, by: string): Promise<boolean>;
}

/** Why Send is refused right now, or null when the reply may go. */
export function replyProblem(request: HelpRequest, draft: Draft): string | null {
  if (request.state !== 'open') return `This request is already ${request.state}.`;
  if (!draft.answer.trim()) return 'Write an answer first.';
  if (request.flags !== null && draft.flagChanges.length > 0) {
    const changes = parsedFlagChanges(draft);
    if (changes.problems.length > 0) return `The flag changes cannot be read (${changes.problems.join('; ')}).`;
  }
  if (request.flags === null) {
    const missing: string[] = [];
    if (!draft.workflow.trim()) missing.push('the workflow');
    const parsed = parseFlagLines(draft.flags);
    const stated = Object.keys(parsed.flags).length > 0 || parsed.problems.length > 0;
    if (draft.noFlags && stated) {
      return 'You ticked “This workflow takes no flags” and also wrote flags: clear one of the two.';
    }
    if (parsed.problems.length > 0) return `The flags cannot be read (${parsed.problems.join('; ')}).`;
    if (!draft.noFlags && Object.keys(parsed.flags).length === 0) missing.push('its flags (or tick “This workflow takes no flags”)');
    if (missing.length > 0) {
      return `The asking run's flags are unknown, so the new chain cannot inherit them: state ${missing.join(' and ')} before sending.`;
    }
  }
  return null;
}

/**
 * The request to go to once `id` is handled: of `list` (the order the operator saw), the next one
 * still open, else the nearest one before. Handling a request is the end of looking at it; staying
 * put would leave the operator on a closed request, stepping off it by hand each time.
 */
export function nextOpenAfter(list: readonly HelpRequest[], id: string, open: ReadonlySet<string>): HelpRequest | undefined {
  const at = list.findIndex((r) => r.id === id);
  const candidate = (r: HelpRequest) => r.id !== id && open.has(r.id);
  return list.slice(at + 1).find(candidate) ?? list.slice(0, Math.max(0, at)).reverse().find(candidate);
}

/** After `id` was handled: re-read the list, then go on to the next open request, unless the operator already moved. */
async function moveOn(get: () => HelpState, id: string, seen: HelpRequest[]): Promise<void> {
  await get().load();
  const next = nextOpenAfter(seen, id, new Set(get().rows.map((r) => r.id)));
  if (next && get().selectedId === id) await get().select(next.id);
}

export function createHelpStore(api: DeskApi) {
  let detailSeq = 0;
  return createStore<HelpState>()((set, get) => ({
    rows: [],
    total: 0,
    handled: {},
    selectedId: null,
    detail: null,
    detailError: null,
    loadError: null,
    loaded: false,
    drafts: {},
    errors: {},
    pending: {},
    async load() {
      try {
        // The Desk's order (listHelp: requests holding their chain first, newest first), never a
        // second ranking here that could disagree with the CLI's listing of the same requests.
        const result = await api.call('help.list', { open: true, limit: MAX_PAGE });
        set({ rows: result.rows, total: result.total, loadError: null, loaded: true });
        if (get().selectedId) await get().loadDetail();
      } catch (error) {
        set({ loadError: messageOf(error), loaded: true });
      }
    },
    async select(id) {
      if (id === get().selectedId) return;
      set({ selectedId: id, detail: null, detailError: null });
      await get().loadDetail();
    },
    async loadDetail() {
      const id = get().selectedId;
      if (!id) return;
      const seq = ++detailSeq;
      try {
        const detail = await api.call('help.detail', { id });
        if (seq !== detailSeq || get().selectedId !== id) return;
        set({ detail, detailError: null });
      } catch (error) {
        if (seq !== detailSeq) return;
        set({ detailError: messageOf(error) });
      }
    },
    listed() {
      const { rows, handled } = get();
      const open = new Set(rows.map((r) => r.id));
      return [...rows, ...Object.values(handled).filter((r) => !open.has(r.id))];
    },
    move(delta) {
      const list = get().listed();
      if (list.length === 0) return;
      const index = list.findIndex((r) => r.id === get().selectedId);
      const next = index < 0 ? 0 : Math.max(0, Math.min(list.length - 1, index + delta));
      const target = list[next];
      if (target) void get().select(target.id);
    },
    setDraft(id, patch) {
      set((s) => ({ drafts: { ...s.drafts, [id]: { ...EMPTY_DRAFT, ...s.drafts[id], ...patch } } }));
    },
    async reply(id, byName) {
      const state = get();
      const request = state.detail?.request.id === id ? state.detail.request : state.rows.find((r) => r.id === id);
      if (!request || state.pending[id]) return false;
      const draft = { ...EMPTY_DRAFT, ...state.drafts[id] };
      const problem = replyProblem(request, draft);
      if (problem) {
        set((s) => ({ errors: { ...s.errors, [id]: problem } }));
        return false;
      }
      const by = byName.trim();
      const input: Parameters<typeof api.call<'help.reply'>>[1] = { id, answer: draft.answer.trim() };
      if (by) input.by = by;
      if (request.flags === null) {
        input.workflow = draft.workflow.trim();
        input.flags = draft.noFlags ? {} : parseFlagLines(draft.flags).flags;
        const routes = parseRoutes(draft.routes);
        if (routes.length > 0) input.routes = routes;
      } else if (draft.flagChanges.length > 0) {
        input.set_flags = parsedFlagChanges(draft).flags;
      }
      const seen = get().listed();
      set((s) => ({ pending: { ...s.pending, [id]: 'reply' } }));
      try {
        const answered = await api.call('help.reply', input);
        set((s) => ({
          drafts: withoutKey(s.drafts, id),
          errors: withoutKey(s.errors, id),
          pending: withoutKey(s.pending, id),
          handled: { ...s.handled, [id]: answered },
        }));
        await moveOn(get, id, seen);
        return true;
      } catch (error) {
        set((s) => ({ pending: withoutKey(s.pending, id), errors: { ...s.errors, [id]: messageOf(error) } }));
        return false;
      }
    },
    async resolve(id, by) {
      if (get().pending[id]) return false;
      const seen = get().listed();
      set((s) => ({ pending: { ...s.pending, [id]: 'resolve' } }));
      try {
        const resolved = await api.call('help.resolve', by.trim() ? { id, by: by.trim() } : { id });
        set((s) => ({
          errors: withoutKey(s.errors, id),
          pending: withoutKey(s.pending, id),
          handled: { ...s.handled, [id]: resolved },
        }));
        await moveOn(get, id, seen);
        return true;
      } catch (error) {
        set((s) => ({ pending: withoutKey(s.pending, id), errors: { ...s.errors, [id]: messageOf(error) } }));
        return false;
      }
    },
  }));
}
export type HelpStore = ReturnType<typeof createHelpStore>;
