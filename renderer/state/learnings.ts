/**
 * The learnings ledger as the window sees it: a server-side filtered, sorted, paged window over
 * possibly 100,000 rows, the operator's selection (named ids, or "everything matching"), the
 * row under the keyboard cursor, and the bulk decisions with their undo.
 */
import { createStore } from 'zustand/vanilla';
import type { CallOutput, DeskApi, LearningFilter, LearningOrigin, LearningTarget, StateCounts } from '../../shared/api.js';
import { LEARNING_SORTS, LearningFilter as LearningFilterSchema } from '../../shared/api.js';
import { IMPACTS, LEARNING_STATES, type Impact, type Learning, type LearningState } from '../../shared/domain.js';
import { messageOf } from './errors.js';

export const PAGE_SIZE = 100;
export type LearningSort = (typeof LEARNING_SORTS)[number];
export type LearningDetail = CallOutput<'learnings.detail'>;

/** What the list shows: the filter and the order. It is what the address holds (docs/window.md#the-address). */
export interface LearningQuery {
  filter: LearningFilter;
  sort: LearningSort;
  dir: 'asc' | 'desc';
}

const DEFAULT_SORT: LearningSort = 'last_at';
const DEFAULT_DIR = 'desc';

/** The address parameters of a query; what is at its default is left out, so a plain view has a plain address. */
export function queryParams(query: LearningQuery): Record<string, string | undefined> {
  const filter = cleanFilter(query.filter);
  return {
    agent: filter.agent,
    state: filter.states?.join(','),
    impact: filter.impacts?.join(','),
    q: filter.search,
    sort: query.sort === DEFAULT_SORT ? undefined : query.sort,
    dir: query.dir === DEFAULT_DIR ? undefined : query.dir,
  };
}

export const QUERY_PARAMS = ['agent', 'state', 'impact', 'q', 'sort', 'dir'] as const;

/** The known words of a comma list, in their order, once each; anything else is dropped. */
function wordsOf<T extends string>(value: string | undefined, known: readonly T[]): T[] | undefined {
  if (value === undefined) return undefined;
  const words = value.split(',').filter((w): w is T => (known as readonly string[]).includes(w));
  return [...new Set(words)];
}

/**
 * The query an address states; what it leaves out is at its default. A value that does not fit
 * is ignored, as if absent: an address is typed, pasted or left over from an older version, and
 * a bad part must not keep the view from opening.
 */
export function queryFromParams(params: Record<string, string>): LearningQuery {
  const fits = (key: 'agent' | 'search', value: string | undefined) =>
    value !== undefined && LearningFilterSchema.shape[key].safeParse(value).success ? value : undefined;
  const filter = cleanFilter({
    agent: fits('agent', params.agent),
    states: wordsOf(params.state, LEARNING_STATES),
    impacts: wordsOf(params.impact, IMPACTS),
    search: fits('search', params.q),
  });
  const sort = (LEARNING_SORTS as readonly string[]).includes(params.sort ?? '') ? (params.sort as LearningSort) : DEFAULT_SORT;
  const dir = params.dir === 'asc' || params.dir === 'desc' ? params.dir : DEFAULT_DIR;
  return { filter, sort, dir };
}

function sameQuery(a: LearningQuery, b: LearningQuery): boolean {
  return JSON.stringify(queryParams(a)) === JSON.stringify(queryParams(b));
}

export interface Decision {
  kind: 'reject' | 'keep';
  ids: string[];
  at: number;
}

export interface LearningsState {
  filter: LearningFilter;
  sort: LearningSort;
  dir: 'asc' | 'desc';
  total: number;
  counts: StateCounts;
  agents: string[];
  /** Loaded pages by page index; a page missing here is fetched when it scrolls into view. */
  pages: Record<number, Learning[]>;
  loaded: boolean;
  error: string | null;
  /** The rows on screen (first, last), so a refresh re-reads exactly those. */
  visible: [number, number];
  cursor: number;
  anchor: number | null;
  selected: Set<string>;
  /** "Select all N matching": the target is the filter itself, not a list of ids. */
  allMatching: boolean;
  /**
   * The row an action falls back to when nothing is selected (`r` / `e` on the cursor row). It
   * is acted on without joining the selection: were it selected, the next action would include
   * it unasked. Cleared once the action is done or called off.
   */
  cursorAim: string | null;
  detailId: string | null;
  detail: LearningDetail | null;
  detailError: string | null;
  busy: boolean;
  actionError: string | null;
  lastDecision: Decision | null;
  /** Where the list was scrolled, so coming back to the view lands in the same place. */
  scrollTop: number;

  setFilter(patch: Partial<LearningFilter>): void;
  toggleState(state: LearningState): void;
  toggleImpact(impact: Impact): void;
  setSort(sort: LearningSort, dir?: 'asc' | 'desc'): void;
  /** Shows `query` (from the address); nothing happens when it is what is shown already. */
  applyQuery(query: LearningQuery): void;
  reload(): Promise<void>;
  refresh(): Promise<void>;
  setVisible(first: number, last: number): void;
  ensure(first: number, last: number): Promise<void>;
  rowAt(index: number): Learning | undefined;
  isSelected(id: string): boolean;
  toggle(index: number): void;
  selectRange(index: number): Promise<void>;
  selectPage(): void;
  selectAllMatching(): void;
  clearSelection(): void;
  /** With nothing selected, aims the next action at the row under the cursor; true when there is something to act on. */
  aimAtCursor(): boolean;
  clearAim(): void;
  moveCursor(delta: number): void;
  setCursor(index: number): void;
  openDetail(id: string | null): Promise<void>;
  loadDetail(): Promise<void>;
  selectionCount(): number;
  target(): LearningTarget | null;
  /** Decide over `target`, by default the selection (`target()`); the detail names its one learning. */
  reject(by: string, reason?: string, target?: LearningTarget): Promise<string[] | null>;
  /** Rejects every learning an origin discovered (docs/rules.md#a-persons-decisions), whatever is selected. */
  rejectOrigin(origin: LearningOrigin, by: string, reason?: string): Promise<string[] | null>;
  keep(by: string, target?: LearningTarget): Promise<string[] | null>;
  undo(ids: string[], by: string): Promise<boolean>;
}

const NO_COUNTS: StateCounts = { provisional: 0, confirmed: 0, lapsed: 0, rejected: 0 };

function cleanFilter(filter: LearningFilter): LearningFilter {
  const out: LearningFilter = {};
  if (filter.agent) out.agent = filter.agent;
  if (filter.states && filter.states.length > 0) out.states = [...filter.states];
  if (filter.impacts && filter.impacts.length > 0) out.impacts = [...filter.impacts];
  if (filter.search && filter.search.trim()) out.search = filter.search.trim();
  return out;
}

function toggled<T>(list: readonly T[] | undefined, item: T): T[] {
  const current = list ?? [];
  return current.includes(item) ? current.filter((x) => x !== item) : [...current, item];
}

export function createLearningsStore(api: DeskApi) {
  /** Bumped on every filter/sort change: answers for an older query are dropped. */
  let generation = 0;
  const inflight = new Map<number, Promise<void>>();
  let detailSeq = 0;

  return createStore<LearningsState>()((set, get) => {
    async function fetchPage(page: number, gen: number): Promise<void> {
      const key = page;
      const existing = inflight.get(key);
      if (existing) return existing;
      const { filter, sort, dir } = get();
      const promise = (async () => {
        try {
          const result = await api.call('learnings.query', {
            filter: cleanFilter(filter),
            sort,
            dir,
            offset: page * PAGE_SIZE,
            limit: PAGE_SIZE,
          });
          if (gen !== generation) return;
          set((s) => {
            const total = result.total;
            const maxIndex = Math.max(0, total - 1);
            const pages = { ...s.pages, [page]: result.rows };
            // Keep the cursor on the same learning when rows moved under it.
            const cursorRow = s.pages[Math.floor(s.cursor / PAGE_SIZE)]?.[s.cursor % PAGE_SIZE];
            let cursor = Math.min(s.cursor, maxIndex);
            if (cursorRow && Math.floor(s.cursor / PAGE_SIZE) === page) {
              const at = result.rows.findIndex((r) => r.id === cursorRow.id);
              if (at >= 0) cursor = page * PAGE_SIZE + at;
            }
            return { pages, total, counts: result.counts, agents: result.agents, loaded: true, error: null, cursor };
          });
        } catch (error) {
          if (gen === generation) set({ error: messageOf(error), loaded: true });
        } finally {
          inflight.delete(key);
        }
      })();
      inflight.set(key, promise);
      return promise;
    }

    function restart(patch: Partial<LearningsState>): void {
      generation += 1;
      inflight.clear();
      set({ ...patch, pages: {}, cursor: 0, anchor: null, allMatching: false, visible: [0, PAGE_SIZE - 1], scrollTop: 0 });
      void get().reload();
    }

    async function decide(
      kind: 'reject' | 'keep',
      by: string,
      reason: string | undefined,
      chosen: LearningTarget | undefined,
    ): Promise<string[] | null> {
      const target = chosen ?? get().target();
      if (!target) return null;
      set({ busy: true, actionError: null });
      try {
        const result =
          kind === 'reject'
            ? await api.call('learnings.reject', reason?.trim() ? { target, by, reason: reason.trim() } : { target, by })
            : await api.call('learnings.keep', { target, by });
        // "All matching" named the filter as it matched before the decision; what matches now is
        // another set (often none), so that selection ends here rather than claim "All 0 matching".
        set((s) => ({
          busy: false,
          lastDecision: { kind, ids: result.changed, at: Date.now() },
          ...(s.allMatching ? { allMatching: false, selected: new Set<string>(), anchor: null } : {}),
        }));
        await get().refresh();
        if (get().detailId) await get().loadDetail();
        return result.changed;
      } catch (error) {
        set({ busy: false, actionError: messageOf(error) });
        return null;
      } finally {
        set({ cursorAim: null });
      }
    }

    return {
      filter: {},
      sort: DEFAULT_SORT,
      dir: DEFAULT_DIR,
      total: 0,
      counts: NO_COUNTS,
      agents: [],
      pages: {},
      loaded: false,
      error: null,
      visible: [0, 0],
      cursor: 0,
      anchor: null,
      selected: new Set(),
      allMatching: false,
      cursorAim: null,
      detailId: null,
      detail: null,
      detailError: null,
      busy: false,
      actionError: null,
      lastDecision: null,
      scrollTop: 0,

      setFilter(patch) {
        restart({ filter: cleanFilter({ ...get().filter, ...patch }) });
      },
      toggleState(state) {
        get().setFilter({ states: toggled(get().filter.states, state) });
      },
      toggleImpact(impact) {
        get().setFilter({ impacts: toggled(get().filter.impacts, impact) });
      },
      setSort(sort, dir) {
        const same = get().sort === sort;
        restart({ sort, dir: dir ?? (same ? (get().dir === 'desc' ? 'asc' : 'desc') : 'desc') });
      },
      applyQuery(query) {
        if (!sameQuery(query, get())) restart({ filter: cleanFilter(query.filter), sort: query.sort, dir: query.dir });
      },
      async reload() {
        const [first, last] = get().visible;
        await get().ensure(first, last);
      },
      async refresh() {
        // Re-read the pages on screen, drop the others (they are fetched again when shown).
        const [first, last] = get().visible;
        const firstPage = Math.floor(first / PAGE_SIZE);
        const lastPage = Math.floor(Math.max(first, last) / PAGE_SIZE);
        const gen = generation;
        inflight.clear();
        const keep: Record<number, Learning[]> = {};
        for (let p = firstPage; p <= lastPage; p++) {
          const page = get().pages[p];
          if (page) keep[p] = page;
        }
        set({ pages: keep });
        const jobs: Promise<void>[] = [];
        for (let p = firstPage; p <= lastPage; p++) jobs.push(fetchPage(p, gen));
        await Promise.all(jobs);
      },
      setVisible(first, last) {
        const [a, b] = get().visible;
        if (a !== first || b !== last) set({ visible: [first, last] });
        void get().ensure(first, last);
      },
      async ensure(first, last) {
        const gen = generation;
        const firstPage = Math.floor(Math.max(0, first) / PAGE_SIZE);
        const lastPage = Math.floor(Math.max(first, last) / PAGE_SIZE);
        const jobs: Promise<void>[] = [];
        for (let p = firstPage; p <= lastPage; p++) {
          if (!get().pages[p]) jobs.push(fetchPage(p, gen));
        }
        if (!get().loaded && jobs.length === 0) jobs.push(fetchPage(0, gen));
        await Promise.all(jobs);
      },
      rowAt(index) {
        return get().pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
      },
      isSelected(id) {
        return get().allMatching || get().selected.has(id);
      },
      toggle(index) {
        const row = get().rowAt(index);
        if (!row) return;
        const selected = new Set(get().allMatching ? [] : get().selected);
        if (selected.has(row.id)) selected.delete(row.id);
        else selected.add(row.id);
        set({ selected, allMatching: false, anchor: index, cursor: index });
      },
      async selectRange(index) {
        const anchor = get().anchor ?? get().cursor;
        const from = Math.min(anchor, index);
        const to = Math.max(anchor, index);
        await get().ensure(from, to);
        const selected = new Set(get().allMatching ? [] : get().selected);
        for (let i = from; i <= to; i++) {
          const row = get().rowAt(i);
          if (row) selected.add(row.id);
        }
        set({ selected, allMatching: false, cursor: index });
      },
      selectPage() {
        const [first, last] = get().visible;
        const selected = new Set(get().allMatching ? [] : get().selected);
        for (let i = first; i <= last; i++) {
          const row = get().rowAt(i);
          if (row) selected.add(row.id);
        }
        set({ selected, allMatching: false });
      },
      selectAllMatching() {
        set({ allMatching: true });
      },
      clearSelection() {
        set({ selected: new Set(), allMatching: false, anchor: null });
      },
      aimAtCursor() {
        if (get().selectionCount() > 0) return true;
        const row = get().rowAt(get().cursor);
        set({ cursorAim: row?.id ?? null });
        return row !== undefined;
      },
      clearAim() {
        set({ cursorAim: null });
      },
      moveCursor(delta) {
        const total = get().total;
        if (total === 0) return;
        const cursor = Math.max(0, Math.min(total - 1, get().cursor + delta));
        set({ cursor });
        void get().ensure(cursor, cursor);
        if (get().detailId) {
          const row = get().rowAt(cursor);
          if (row) void get().openDetail(row.id);
        }
      },
      setCursor(index) {
        set({ cursor: index });
      },
      async openDetail(id) {
        set({ detailId: id, detail: id === get().detailId ? get().detail : null, detailError: null });
        if (id) await get().loadDetail();
      },
      async loadDetail() {
        const id = get().detailId;
        if (!id) return;
        const seq = ++detailSeq;
        try {
          const detail = await api.call('learnings.detail', { id });
          if (seq === detailSeq && get().detailId === id) set({ detail, detailError: null });
        } catch (error) {
          if (seq === detailSeq) set({ detailError: messageOf(error) });
        }
      },
      selectionCount() {
        return get().allMatching ? get().total : get().selected.size;
      },
      target() {
        if (get().allMatching) return { filter: cleanFilter(get().filter) };
        const ids = [...get().selected];
        if (ids.length > 0) return { ids };
        const aim = get().cursorAim;
        return aim ? { ids: [aim] } : null;
      },
      reject(by, reason, target) {
        return decide('reject', by, reason, target);
      },
      rejectOrigin(origin, by, reason) {
        return decide('reject', by, reason, { origin });
      },
      keep(by, target) {
        return decide('keep', by, undefined, target);
      },
      async undo(ids, by) {
        if (ids.length === 0) return true;
        set({ busy: true, actionError: null });
        try {
          await api.call('learnings.undo', { ids, by });
          set({ busy: false, lastDecision: null });
          await get().refresh();
          if (get().detailId) await get().loadDetail();
          return true;
        } catch (error) {
          set({ busy: false, actionError: messageOf(error) });
          return false;
        }
      },
    };
  });
}
export type LearningsStore = ReturnType<typeof createLearningsStore>;
