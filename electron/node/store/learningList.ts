/**
 * The learnings list of the window: every filter, sort and search, with the state counts, over
 * all learnings, answered from memory.
 *
 * Why in memory. At 100,000 learnings any sort SQLite has no index for, and every count, reads
 * all the matching rows: tens to hundreds of milliseconds a page, and the window asks for a page
 * at every keystroke in the search box. The columns the list filters and sorts by are a few
 * numbers per learning (a few MB at 100,000), so the host keeps them in arrays and answers a page
 * by one pass over them; only the page's rows are read from the ledger. A search is answered by
 * the in-memory word index (`searchIndex.ts`, FTS5's own tokens), or by the ledger's FTS5 table
 * for the few searches the index leaves to it; either yields the matching slots, which the pass
 * then intersects.
 *
 * Staying current. Every write of a learning stamps it with a new `changed` number (the highest
 * in the ledger plus one, see `learningRows.ts`), in whichever process writes it (the ingest
 * thread, a person's decision, the CLI). Before each answer the list reads the highest stamp
 * (an index lookup) and reloads only the learnings stamped since, and drops those the deletion
 * log (`deletions.ts`) names. A deleted learning's slot is never used again, even when SQLite
 * gives its rowid to a new learning, so a slot's text (in the word index) never changes. So what
 * it answers is what SQL over the ledger answers at that moment, which a property test checks
 * against plain SQL.
 */
import type { Impact, LearningState } from '../../../shared/domain.js';
import type { LearningFilter, StateCounts } from '../../../shared/api.js';
import { LEARNING_SORTS } from '../../../shared/api.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { deletedSince, lastDeletion } from './deletions.js';
import { SearchIndex, addSlot, eachRowid, hasSlot, slotSet, type SlotSet } from './searchIndex.js';

export type LearningSort = (typeof LEARNING_SORTS)[number];

/**
 * Where each state and impact sorts in the list, ascending: provisional before confirmed before
 * lapsed before rejected (what needs a look first), and low before medium before high.
 */
const STATE_ORDER: Record<LearningState, number> = { provisional: 1, confirmed: 2, lapsed: 3, rejected: 4 };
const IMPACT_ORDER: Record<Impact, number> = { low: 1, medium: 2, high: 3 };
const STATES = Object.keys(STATE_ORDER) as LearningState[];

interface Row {
  rowid: number;
  agent: string;
  state: LearningState;
  impact: Impact;
  first_at: string;
  last_at: string;
  runs_left: number;
  rediscoveries: number;
  echoes: number;
  changed: number;
}

const ROW_COLUMNS = 'rowid, agent, state, impact, first_at, last_at, runs_left, rediscoveries, echoes, changed';

/** A page of the list, before its rows are read: the rowids in order, the total and the counts. */
export interface ListPage {
  rowids: number[];
  total: number;
  counts: StateCounts;
  agents: string[];
}

/**
 * Slots a new list has room for before its columns first grow (they double when full): small
 * enough that the property tests' few hundred learnings grow them too.
 */
const FIRST_SLOTS = 256;

/**
 * The list's columns, one typed array each, indexed by slot.
 *
 * Why typed arrays, every sort column the same kind. The pass over every learning and the page's
 * comparisons read these columns 100,000 times an answer. As JavaScript arrays they had two
 * element kinds (the times do not fit a small integer, the others do), so the comparison V8
 * compiled for one sort met a column of the other kind at the next and was thrown away (`wrong
 * map` in V8's deoptimisation trace), and `alive` was an array of boxed booleans for the collector
 * to walk. As one Float64Array per sort column (exact for times in ms and for rowids) the
 * comparison reads one kind whatever the sort. A warm answer costs about what it did (within the
 * noise of a loaded machine); what it removes is recompiling between sorts.
 */
class Columns {
  rowid: Float64Array;
  agent: Int32Array;
  alive: Uint8Array;
  state: Float64Array;
  impact: Float64Array;
  firstAt: Float64Array;
  lastAt: Float64Array;
  runsLeft: Float64Array;
  rediscoveries: Float64Array;
  echoes: Float64Array;

  constructor(room: number) {
    this.rowid = new Float64Array(room);
    this.agent = new Int32Array(room);
    this.alive = new Uint8Array(room);
    this.state = new Float64Array(room);
    this.impact = new Float64Array(room);
    this.firstAt = new Float64Array(room);
    this.lastAt = new Float64Array(room);
    this.runsLeft = new Float64Array(room);
    this.rediscoveries = new Float64Array(room);
    this.echoes = new Float64Array(room);
  }

  /** The same columns with room for `room` slots, the first `size` copied. */
  grown(room: number, size: number): Columns {
    const next = new Columns(room);
    next.rowid.set(this.rowid.subarray(0, size));
    next.agent.set(this.agent.subarray(0, size));
    next.alive.set(this.alive.subarray(0, size));
    next.state.set(this.state.subarray(0, size));
    next.impact.set(this.impact.subarray(0, size));
    next.firstAt.set(this.firstAt.subarray(0, size));
    next.lastAt.set(this.lastAt.subarray(0, size));
    next.runsLeft.set(this.runsLeft.subarray(0, size));
    next.rediscoveries.set(this.rediscoveries.subarray(0, size));
    next.echoes.set(this.echoes.subarray(0, size));
    return next;
  }
}

class List {
  readonly slotOf = new Map<number, number>();
  /** Slots made so far (live and dead): the columns' length in use. */
  size = 0;
  col = new Columns(FIRST_SLOTS);
  agents: string[] = [];
  private readonly agentIndex = new Map<string, number>();
  /** Rank of each agent index in name order, for the agent sort. */
  agentRank: number[] = [];
  /** Live learnings per agent index. */
  private readonly perAgent: number[] = [];
  /** Each slot's agent rank (the agent sort's column), made when first asked after a change. */
  private agentOrder: Float64Array | null = null;
  /** The highest `changed` stamp taken in, and the newest deletion (deletions.ts). */
  changed = 0;
  deletion = 0;
  maxRowid = 0;
  readonly searches = new Map<string, { slots: number; hits: Hits }>();
  readonly words: SearchIndex;
  private allSlots: SlotSet | null = null;
  /** Rowids of new slots whose text is still to be given to the word index ({@link readTexts}). */
  private textless: number[] = [];
  /**
   * The slots an answer chose, reused by every answer ({@link matchingSlots}): a list without a
   * filter chooses every learning, and a new array of 100,000 slots for each page was garbage
   * the collector then took out of a later page's time.
   */
  private chosenSlots = new Int32Array(0);

  /** Room for `count` chosen slots, the same buffer every time it is big enough. */
  chosenRoom(count: number): Int32Array {
    if (this.chosenSlots.length < count) this.chosenSlots = new Int32Array(Math.max(count, this.chosenSlots.length * 2));
    return this.chosenSlots;
  }

  constructor(db: Db) {
    this.words = new SearchIndex(db);
  }

  agentId(name: string): number {
    let id = this.agentIndex.get(name);
    if (id === undefined) {
      id = this.agents.length;
      this.agents.push(name);
      this.agentIndex.set(name, id);
      const byName = this.agents.map((_, i) => i).sort((a, b) => (this.agents[a]! < this.agents[b]! ? -1 : 1));
      this.agentRank = [];
      byName.forEach((agentId, rank) => (this.agentRank[agentId] = rank));
    }
    return id;
  }

  put(row: Row): void {
    let slot = this.slotOf.get(row.rowid);
    if (slot === undefined) {
      if (this.size === this.col.rowid.length) this.col = this.col.grown(this.size * 2, this.size);
      slot = this.size++;
      this.slotOf.set(row.rowid, slot);
      this.col.rowid[slot] = row.rowid;
      if (row.rowid > this.maxRowid) this.maxRowid = row.rowid;
      this.textless.push(row.rowid);
    }
    const c = this.col;
    if (c.alive[slot] === 1) this.perAgent[c.agent[slot]!]!--;
    c.agent[slot] = this.agentId(row.agent);
    this.perAgent[c.agent[slot]!] = (this.perAgent[c.agent[slot]!] ?? 0) + 1;
    this.agentOrder = null;
    c.state[slot] = STATE_ORDER[row.state];
    c.impact[slot] = IMPACT_ORDER[row.impact];
    c.firstAt[slot] = Date.parse(row.first_at);
    c.lastAt[slot] = Date.parse(row.last_at);
    c.runsLeft[slot] = row.runs_left;
    c.rediscoveries[slot] = row.rediscoveries;
    c.echoes[slot] = row.echoes;
    c.alive[slot] = 1;
    if (row.changed > this.changed) this.changed = row.changed;
  }

  remove(rowid: number): void {
    const slot = this.slotOf.get(rowid);
    if (slot === undefined || this.col.alive[slot] !== 1) return;
    this.col.alive[slot] = 0;
    this.slotOf.delete(rowid);
    this.perAgent[this.col.agent[slot]!]!--;
  }

  /** The set of every slot, for a list without a search. */
  everySlot(): SlotSet {
    if (this.allSlots === null || this.allSlots.length !== (this.size + 31) >>> 5) this.allSlots = slotSet(this.size).fill(0xffffffff);
    return this.allSlots;
  }

  /** The slots made so far get their words from FTS5's own index instead ({@link readList}). */
  readWordsFromFts(): void {
    this.textless = [];
  }

  /** Gives the word index the texts of the slots made since the last call. */
  readTexts(db: Db): void {
    if (this.textless.length > 0) {
      const rows = stmt(db, 'SELECT rowid, text FROM learnings WHERE rowid IN (SELECT value FROM json_each(?))').all(JSON.stringify(this.textless)) as {
        rowid: number;
        text: string;
      }[];
      const textOf = new Map(rows.map((r) => [r.rowid, r.text]));
      // A learning deleted since its row was read has no text left; it is dead for the list.
      for (const rowid of this.textless) this.words.add(this.slotOf.get(rowid)!, textOf.get(rowid) ?? '');
      this.textless = [];
    }
    this.words.settle();
  }

  /** The agents with at least one learning, by name. */
  liveAgents(): string[] {
    return this.agents.filter((_, id) => (this.perAgent[id] ?? 0) > 0).sort();
  }

  /** Each slot's agent's rank in name order: the agent sort's column. */
  private agentRanks(): Float64Array {
    const ranks = new Float64Array(this.size);
    const { agent } = this.col;
    for (let slot = 0; slot < this.size; slot++) ranks[slot] = this.agentRank[agent[slot]!]!;
    return ranks;
  }

  /** The sort key's column for the given sort, for comparing slots. */
  column(sort: LearningSort): Float64Array {
    const c = this.col;
    switch (sort) {
      case 'last_at':
        return c.lastAt;
      case 'first_at':
        return c.firstAt;
      case 'impact':
        return c.impact;
      case 'runs_left':
        return c.runsLeft;
      case 'rediscoveries':
        return c.rediscoveries;
      case 'echoes':
        return c.echoes;
      case 'state':
        return c.state;
      case 'agent':
        return (this.agentOrder ??= this.agentRanks());
    }
  }
}

const lists = new WeakMap<Db, List>();

function highestStamp(db: Db): number {
  return (stmt(db, 'SELECT coalesce(max(changed), 0) AS m FROM learnings').get() as { m: number }).m;
}

/** The connection's list, brought in step with the ledger. */
function currentList(db: Db): List {
  let list = lists.get(db);
  const deleted = list ? deletedSince(db, list.deletion) : null;
  if (!list || deleted === null) {
    list = new List(db);
    for (const _ of readList(db, list));
    lists.set(db, list);
    return list;
  }
  for (const { rowid } of deleted) list.remove(rowid);
  if (deleted.length > 0) list.deletion = lastDeletion(db);
  if (highestStamp(db) > list.changed) {
    for (const row of stmt(db, `SELECT ${ROW_COLUMNS} FROM learnings WHERE changed > ?`).all(list.changed) as Row[]) list.put(row);
    list.readTexts(db);
  }
  return list;
}

/** Learnings read per step of {@link readList}: a few milliseconds of the host's time each. */
const READ_STEP_ROWS = 2000;

/**
 * Reads every learning into the new `list`, a step at a time (yielding between steps): the rows
 * by rowid, then the words of the search index from the ledger's FTS5 index (searchIndex.ts).
 * Rows written meanwhile carry stamps above the one it started from, and deletions are logged
 * after the one it started from, so the next answer takes them in.
 */
function* readList(db: Db, list: List): Generator<void, void> {
  const stamp = highestStamp(db);
  list.deletion = lastDeletion(db);
  const step = stmt(db, `SELECT ${ROW_COLUMNS} FROM learnings WHERE rowid > ? ORDER BY rowid LIMIT ${READ_STEP_ROWS}`);
  for (let after = 0; ; ) {
    const rows = step.all(after) as Row[];
    for (const row of rows) list.put(row);
    if (rows.length < READ_STEP_ROWS) break;
    after = rows[rows.length - 1]!.rowid;
    yield;
  }
  list.readWordsFromFts();
  const slotOf = new Int32Array(list.maxRowid + 1).fill(-1);
  for (let slot = 0; slot < list.size; slot++) slotOf[list.col.rowid[slot]!] = slot;
  yield* list.words.readFts(slotOf, list.size);
  list.words.settle();
  list.changed = stamp;
  yield* warmPasses(db, list);
}

/** Rows of each page the warm-up asks for: as many as the window's first page. */
const WARM_PAGE_ROWS = 100;

/**
 * Runs the list's passes once over the new list for every sort, both directions, without a
 * filter and with one of every kind (agent, states, impacts), a step a pass (yielding between).
 *
 * Why. A pass is one loop over every learning, about 3 ms at 100,000 once V8 has compiled it
 * for what it meets; before that, and each time it meets a sort column or a filter it had not
 * seen, it runs unoptimised while it is compiled. So the first pages of each kind the operator
 * asked for were the slowest of all: 18–40 ms the worst of them, against 3–8 ms the worst of the
 * second round, on a copy of the query benchmark's ledger (its worst p99 was its first round).
 * Run here, where the list is read anyway (in steps at a host's open, see {@link warmList}), those
 * compilations happen before the first click. Nothing is kept: a pass only reads the list.
 */
function* warmPasses(db: Db, list: List): Generator<void, void> {
  const some = list.agents[0];
  if (some === undefined) return;
  const filters: LearningFilter[] = [{}, { agent: some, states: ['provisional', 'lapsed'], impacts: ['low', 'high'] }];
  for (const sort of LEARNING_SORTS) {
    for (const dir of ['asc', 'desc'] as const) {
      for (const filter of filters) {
        pageOf(db, list, { filter, sort, dir, offset: 0, limit: WARM_PAGE_ROWS });
        yield;
      }
    }
  }
}

/**
 * Reads the connection's list in small steps that let the event loop run between them, so a host
 * opening a ledger of 100,000 learnings is never held up for the second one read takes. A list
 * asked for before this is done is read at once instead.
 */
export async function warmList(db: Db, pause: () => Promise<void> = () => new Promise((resolve) => setImmediate(resolve))): Promise<void> {
  if (lists.has(db)) return;
  const list = new List(db);
  for (const _ of readList(db, list)) {
    await pause();
    if (lists.has(db) || !db.open) return;
  }
  lists.set(db, list);
}

/** The user's search as words: split at anything but letters, digits and `_`, none empty. */
export function searchWords(search: string): string[] {
  return search
    .split(/\s+/u)
    .map((w) => w.replace(/[^\p{L}\p{N}_]+/gu, ' ').trim())
    .flatMap((w) => w.split(' '))
    .filter((w) => w.length > 0);
}

/**
 * The FTS5 query of the user's search: each word quoted so no operator or syntax of theirs is
 * interpreted, the last one a prefix (it may still be being typed). What a search means.
 */
export function ftsQuery(search: string): string | null {
  const words = searchWords(search);
  if (words.length === 0) return null;
  return words.map((w, i) => `"${w.replace(/"/g, '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/** Which slots a search matches. */
type Hits = SlotSet;

/**
 * Slots the search matches, or null when there is nothing to search for: from the word index,
 * or from FTS5 for a search the index leaves to it (`searchIndex.ts`).
 *
 * The last few searches are kept while no slot is added (a slot's text never changes, and dead
 * slots are filtered anyway), which is what sorting and paging through one search ask again
 * and again, and what a search FTS5 answers needs.
 */
function searchHits(db: Db, list: List, search: string | undefined): Hits | null {
  if (search === undefined) return null;
  const query = ftsQuery(search);
  if (query === null) return null;
  const slots = list.size;
  const cached = list.searches.get(query);
  if (cached && cached.slots === slots) return cached.hits;
  const hits = list.words.hitsOf(searchWords(search), slots) ?? ftsHits(db, list, query);
  if (list.searches.size >= SEARCHES_KEPT) list.searches.delete(list.searches.keys().next().value!);
  list.searches.set(query, { slots, hits });
  return hits;
}

/**
 * Slots FTS5 matches. A search of a common word matches most learnings, and reading tens of
 * thousands of rows one by one into JavaScript cost far more than the search itself, so the
 * rowids come back as one comma-separated text, parsed into a byte map by rowid, then into slots.
 */
function ftsHits(db: Db, list: List, query: string): Hits {
  const text = stmt(db, 'SELECT group_concat(rowid) AS r FROM learnings_fts WHERE learnings_fts MATCH ?').get(query) as { r: string | null };
  const byRowid = new Uint8Array(list.maxRowid + 1);
  eachRowid(text.r, (rowid) => {
    if (rowid < byRowid.length) byRowid[rowid] = 1;
  });
  const hits = slotSet(list.size);
  for (let slot = 0; slot < list.size; slot++) if (byRowid[list.col.rowid[slot]!] === 1) addSlot(hits, slot);
  return hits;
}

/** Every order number's bit: a filter that chooses no impacts (or no states) takes them all. */
const ANY = 0xffffffff;

function orderBits(orders: readonly number[]): number {
  return orders.reduce((bits, order) => bits | (1 << order), 0);
}

/** How many searches the list keeps the hits of. */
const SEARCHES_KEPT = 8;

/**
 * The live slots matching `filter` (in slot order) that its states take, and the per-state
 * counts of those matching it without its states: what a page and "all matching" both need.
 */
function matchingSlots(db: Db, list: List, filter: LearningFilter): { chosen: Int32Array; count: number; counts: StateCounts } {
  // Without a search every slot is a hit: the pass then has one shape whatever the filter, and
  // the JIT's code for it does not have to be thrown away at the first search.
  const hits = searchHits(db, list, filter.search) ?? list.everySlot();
  const agent = filter.agent !== undefined && filter.agent !== '' ? list.agents.indexOf(filter.agent) : null;
  // The chosen impacts and states as bits by their order numbers (at most 4): a bit test per
  // slot instead of a set lookup, in the pass over every learning.
  const impacts = filter.impacts && filter.impacts.length > 0 ? orderBits(filter.impacts.map((i) => IMPACT_ORDER[i])) : ANY;
  const states = filter.states && filter.states.length > 0 ? orderBits(filter.states.map((s) => STATE_ORDER[s])) : ANY;
  const perState = [0, 0, 0, 0, 0];
  const chosen = list.chosenRoom(list.size);
  const { alive, agent: agentOf, impact: impactOf, state: stateOf } = list.col;
  let count = 0;
  for (let slot = 0; slot < list.size; slot++) {
    if (
      alive[slot] !== 1 ||
      (agent !== null && agentOf[slot] !== agent) ||
      ((impacts >>> impactOf[slot]!) & 1) === 0 ||
      !hasSlot(hits, slot)
    ) {
      continue;
    }
    const state = stateOf[slot]!;
    perState[state]!++;
    if (((states >>> state) & 1) === 1) chosen[count++] = slot;
  }
  const counts = Object.fromEntries(STATES.map((s) => [s, perState[STATE_ORDER[s]]!])) as StateCounts;
  return { chosen, count, counts };
}

/**
 * One page of learnings matching `filter`, in `sort` order (ties: newest `last_at`, then rowid,
 * in the same direction), with the total and the per-state counts of the filter without its
 * states, as the list shows them.
 */
export function listPage(db: Db, query: PageQuery): ListPage {
  return pageOf(db, currentList(db), query);
}

interface PageQuery {
  filter: LearningFilter;
  sort: LearningSort;
  dir: 'asc' | 'desc';
  offset: number;
  limit: number;
}

function pageOf(db: Db, list: List, query: PageQuery): ListPage {
  const { chosen, count, counts } = matchingSlots(db, list, query.filter);
  const key = list.column(query.sort);
  const { lastAt, rowid } = list.col;
  const sign = query.dir === 'asc' ? 1 : -1;
  const compare = (a: number, b: number): number => sign * (key[a]! - key[b]! || lastAt[a]! - lastAt[b]! || rowid[a]! - rowid[b]!);
  const page = topK(chosen, count, query.offset + query.limit, compare, query.dir === 'desc').slice(query.offset);
  return { rowids: page.map((slot) => rowid[slot]!), total: count, counts, agents: list.liveAgents() };
}

/** Rowids of every learning matching `filter` (states included), oldest first: what "all matching" means. */
export function matchingRowidsOf(db: Db, filter: LearningFilter): number[] {
  const list = currentList(db);
  const { chosen, count } = matchingSlots(db, list, filter);
  return Array.from(chosen.subarray(0, count), (slot) => list.col.rowid[slot]!).sort((a, b) => a - b);
}

/**
 * The first `k` of the `count` slots in `items` (ascending) in `compare` order: a full sort when
 * `k` is a large part of them, else one pass keeping the best `k` in a sorted buffer (pages near
 * the top are the common case).
 *
 * Why the pass runs newest slot first for a descending sort (`newestFirst`), oldest first for an
 * ascending one. Slots are in rowid order, the order learnings were made, and every sort breaks
 * its ties by `last_at` then rowid in its own direction; the time sorts follow rowid almost
 * exactly. Read oldest first, a descending sort found each slot better than the worst kept one,
 * so nearly every slot of the list was inserted into the buffer and pushed another out: with
 * 100,000 learnings, the slowest pages of the list. Read in the sort's direction, the buffer
 * fills with good slots at once, and most slots after are turned away by one comparison. The
 * result is the same either way: `compare` is a total order.
 */
function topK(items: Int32Array, count: number, k: number, compare: (a: number, b: number) => number, newestFirst: boolean): number[] {
  if (k >= count / 4) return Array.from(items.slice(0, count).sort(compare).subarray(0, k));
  const best: number[] = [];
  for (let n = 0; n < count; n++) {
    const item = items[newestFirst ? count - 1 - n : n]!;
    if (best.length === k && compare(item, best[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(best[mid]!, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, item);
    if (best.length > k) best.pop();
  }
  return best;
}
