/**
 * The ledger of learnings in SQLite: proposals, run counting's effect on learnings, and a
 * person's decisions. The rules themselves live in `rules/ledger.ts`; this module finds the rows
 * they are about and writes back what they decided, with a history line for every state change
 * and a proposal-log line for every proposal.
 *
 * Candidates for sameness come from the word index `learning_words`: only learnings sharing
 * enough significant words with the proposal to possibly match are loaded, never all of an
 * agent's learnings. The final say is always `sameFingerprint`, so the index can only narrow.
 *
 * Every function here runs inside the caller's transaction when there is one; the ones a person
 * triggers open their own.
 */
import { ulid } from 'ulid';
import type { HistoryKind, Impact, Learning, LearningState, ProposalOutcome } from '../../../shared/domain.js';
import type { LearningFilter, LearningTarget } from '../../../shared/api.js';
import { journalDecision, type JournaledLearning, type Replaying } from './journal.js';
import {
  decideProposal,
  isActive,
  isDecisionSnapshot,
  keep,
  reject,
  snapshotOf,
  undo,
  type LedgerSettings,
  type ScreenedProposal,
} from '../../rules/ledger.js';
import { MIN_WORDS_TO_CONTAIN, MOST_ELABORATION, fingerprint, sameFingerprint } from '../../rules/sameness.js';
import { screen } from '../../rules/screen.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** A line of an events file the ledger cannot take: becomes a refused line, not a crash. */
export class EventRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EventRefused';
  }
}

/** Canonical form of an event time, so times compare as text: `2026-01-02T03:04:05.000Z`. */
export function normTime(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) throw new EventRefused(`"${at}" is not a valid time`);
  return date.toISOString();
}

export function dayOf(at: string): string {
  return at.slice(0, 10);
}

export const LEARNING_COLUMNS =
  'id, agent, text, impact, state, proposals, rediscoveries, echoes, runs_left, first_at, last_at, live_since, lapsed_at, decided_by, decided_at, reason';

/** Selects learnings with the SPEC field names, optionally prefixed by a table alias. */
export function learningColumns(alias?: string): string {
  if (!alias) return LEARNING_COLUMNS;
  return LEARNING_COLUMNS.split(', ')
    .map((c) => `${alias}.${c}`)
    .join(', ');
}

/** A row read with `LEARNING_COLUMNS` already has the shape of `Learning`. */
export function toLearning(row: unknown): Learning {
  return row as Learning;
}

export function getLearning(db: Db, id: string): Learning | undefined {
  const row = stmt(db, `SELECT ${LEARNING_COLUMNS} FROM learnings WHERE id = ?`).get(id);
  return row === undefined ? undefined : toLearning(row);
}

interface HistoryLine {
  learning_id: string;
  at: string;
  kind: HistoryKind;
  by?: string | null;
  reason?: string | null;
  run?: string | null;
  state_before: LearningState | null;
  state_after: LearningState;
  undo?: string | null;
}

export function addHistory(db: Db, h: HistoryLine): void {
  stmt(
    db,
    `INSERT INTO learning_history (learning_id, at, day, kind, by, reason, run, state_before, state_after, undo)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    h.learning_id,
    h.at,
    dayOf(h.at),
    h.kind,
    h.by ?? null,
    h.reason ?? null,
    h.run ?? null,
    h.state_before,
    h.state_after,
    h.undo ?? null,
  );
}

/** Writes back the mutable fields of a learning (text, agent and id never change). */
export function saveLearning(db: Db, l: Learning): void {
  stmt(
    db,
    `UPDATE learnings SET state = ?, proposals = ?, rediscoveries = ?, echoes = ?, runs_left = ?, last_at = ?,
       live_since = ?, lapsed_at = ?, decided_by = ?, decided_at = ?, reason = ?
     WHERE id = ?`,
  ).run(
    l.state,
    l.proposals,
    l.rediscoveries,
    l.echoes,
    l.runs_left,
    l.last_at,
    l.live_since,
    l.lapsed_at,
    l.decided_by,
    l.decided_at,
    l.reason,
    l.id,
  );
}

/** Inserts a new learning with its word index entries (exported for the matching tests). */
export function insertLearning(db: Db, l: Learning): void {
  const fp = fingerprint(l.text);
  const info = stmt(
      db,
      `INSERT INTO learnings (id, agent, text, impact, state, proposals, rediscoveries, echoes, runs_left, first_at,
         last_at, live_since, lapsed_at, decided_by, decided_at, reason, negated, word_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      l.id,
      l.agent,
      l.text,
      l.impact,
      l.state,
      l.proposals,
      l.rediscoveries,
      l.echoes,
      l.runs_left,
      l.first_at,
      l.last_at,
      l.live_since,
      l.lapsed_at,
      l.decided_by,
      l.decided_at,
      l.reason,
      fp.negated ? 1 : 0,
      fp.words.length,
    );
  // All the words in one statement: a statement per word was a visible share of ingest.
  stmt(
    db,
    'INSERT OR IGNORE INTO learning_words (agent, word, word_count, learning_rowid) SELECT ?, value, ?, ? FROM json_each(?)',
  ).run(l.agent, fp.words.length, info.lastInsertRowid, JSON.stringify(fp.words));
}

/**
 * The fewest of a proposal's `p` significant words that a text of `q` significant words must
 * share with it for `sameFingerprint` to call the two the same, or null when no text of that
 * length can be (whatever the words).
 *
 * Why this is exact. Let P be the proposal's word set, Q a learning's, s = |P ∩ Q|.
 * `sameFingerprint` looks at nothing but p, q, s and the two negation flags (which must be
 * equal), and says "same" only through one of two doors:
 *
 * - Rewording: s / (p + q − s) ≥ 4/5, i.e. 9s ≥ 4(p + q), i.e. s ≥ ⌈4(p + q) / 9⌉; possible
 *   only when that is at most min(p, q). (The code compares in floating point, but a quotient of
 *   two small integers lands on the same side of 0.8 as the exact fraction: division rounds
 *   correctly and a fraction s/u other than 4/5 is at least 1/(5u) away from it.)
 * - Containment: the shorter set lies inside the longer (s = min(p, q)), the shorter has at least
 *   3 words and the longer at most twice as many.
 *
 * Both doors open wider as s grows, so "same" holds exactly when s reaches the smaller of the
 * two doors' thresholds. The unit tests check this against `sameFingerprint` itself for every
 * p, q and s up to well past real text lengths.
 */
export function sharedNeeded(p: number, q: number): number | null {
  if (p <= 0 || q <= 0) return null;
  const shorter = Math.min(p, q);
  const longer = Math.max(p, q);
  let needed: number | null = null;
  const rewording = Math.ceil((4 * (p + q)) / 9); // REWORDING_THRESHOLD 0.8: s/(p+q−s) ≥ 4/5
  if (rewording <= shorter) needed = rewording;
  if (shorter >= MIN_WORDS_TO_CONTAIN && longer <= shorter * MOST_ELABORATION) {
    needed = needed === null ? shorter : Math.min(needed, shorter);
  }
  return needed;
}

/**
 * Over all lengths: a same text has between `minWords` and `maxWords` significant words and
 * shares at least `minShared` with the proposal.
 *
 * Worked out from {@link sharedNeeded}: for p ≤ 2 only rewording is possible and it needs
 * q = s = p. For p ≥ 3, containment with the learning the shorter gives the least, s = q ≥
 * max(3, ⌈p/2⌉); rewording needs s ≥ ⌈4p/5⌉, never less; and containment with the proposal the
 * shorter allows q up to 2p. So minShared = minWords = max(3, ⌈p/2⌉) and maxWords = 2p. That is
 * a little tighter than the bare ⌈p/2⌉ (a 4-word proposal needs 3 shared words, not 2) because
 * containment needs 3 words in the shorter text.
 */
export function sameCandidateBounds(p: number): { minShared: number; minWords: number; maxWords: number } {
  let minShared = Infinity;
  let minWords = Infinity;
  let maxWords = 0;
  for (let q = 1; q <= 2 * p + 1; q++) {
    const needed = sharedNeeded(p, q);
    if (needed === null) continue;
    minShared = Math.min(minShared, needed);
    minWords = Math.min(minWords, q);
    maxWords = q;
  }
  return { minShared, minWords, maxWords };
}

/**
 * How many words beyond the minimum the lookup reads per length: one more word's index entries
 * (cheap, a range of a covering index) lets it demand one more hit from every candidate, which
 * spares loading and comparing most of the learnings that merely share one rare word.
 */
const EXTRA_PROBES = 1;

interface LookupPlan {
  /** For the word at each position of the rarest-first order: the word counts it is read for. */
  ranges: [number, number][][];
  /** For each word count q: the fewest hits among the words read for q a same text must have. */
  hits: (number | null)[];
}

const plans = new Map<number, LookupPlan>();

/**
 * The lookup for a proposal of `p` words, the same for every proposal of that length.
 *
 * Prefix filtering, per length. A same text of q words shares at least n = sharedNeeded(p, q)
 * words, so it lacks at most p − n of the proposal's words. Reading the index entries of the
 * m = p − n + 1 + EXTRA_PROBES rarest words (all p when fewer) restricted to texts of q words,
 * a same text must turn up in at least m − (p − n) = min(n, 1 + EXTRA_PROBES) of them: it
 * cannot lack more than p − n of any m words. So keeping only learnings with that many hits
 * never loses a match. Which words are the rarest does not matter for exactness, only for speed.
 */
function lookupPlan(p: number): LookupPlan {
  const known = plans.get(p);
  if (known) return known;
  const perWord: number[][] = Array.from({ length: p }, () => []);
  const hits: (number | null)[] = [];
  for (let q = 0; q <= 2 * p + 1; q++) {
    const needed = q === 0 ? null : sharedNeeded(p, q);
    hits.push(needed === null ? null : Math.min(needed, 1 + EXTRA_PROBES));
    if (needed === null) continue;
    const m = Math.min(p, p - needed + 1 + EXTRA_PROBES);
    for (let i = 0; i < m; i++) perWord[i]!.push(q);
  }
  const ranges = perWord.map((qs) => {
    const out: [number, number][] = [];
    for (const q of qs) {
      const last = out[out.length - 1];
      if (last && last[1] === q - 1) last[1] = q;
      else out.push([q, q]);
    }
    return out;
  });
  const plan = { ranges, hits };
  plans.set(p, plan);
  return plan;
}

const WORD_COUNTS_SQL = `SELECT word, learnings FROM learning_word_counts
   WHERE agent = ? AND word IN (SELECT value FROM json_each(?))`;

const CANDIDATES_SQL = `SELECT ${learningColumns('l')}
   FROM (SELECT w.learning_rowid AS learning_rowid
         FROM json_each(@probes) j
         CROSS JOIN learning_words w -- CROSS: read the probes first, each a range of the index
           ON w.agent = @agent AND w.word = j.value ->> 0 AND w.word_count BETWEEN j.value ->> 1 AND j.value ->> 2
         GROUP BY w.learning_rowid, w.word_count
         HAVING count(*) >= @hits ->> w.word_count) c
   JOIN learnings l ON l.rowid = c.learning_rowid
   WHERE l.negated = @negated`;

/**
 * The agent's learnings that sameness says are the same claim as `text`.
 *
 * Candidates come from the word index, never from comparing with every learning of the agent,
 * and never through a proposal's common words ("cache", "before", "tests"), which nearly every
 * learning holds: the proposal's words are taken rarest first (per-agent counts kept by triggers
 * in `learning_word_counts`), and only as many as {@link lookupPlan} proves necessary for each
 * possible length. A word no learning of the agent holds is rarest of all and costs nothing.
 *
 * The index only narrows: `sameFingerprint` on the full texts has the final say, so SPEC 4
 * sameness is exactly what it was.
 */
export function matchingLearnings(db: Db, agent: string, text: string): Learning[] {
  const fp = fingerprint(text);
  const p = fp.words.length;
  if (p === 0) return [];
  const plan = lookupPlan(p);
  const counts = new Map<string, number>();
  for (const row of stmt(db, WORD_COUNTS_SQL).all(agent, JSON.stringify(fp.words)) as { word: string; learnings: number }[]) {
    counts.set(row.word, row.learnings);
  }
  const rarest = [...fp.words].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  const probes: [string, number, number][] = [];
  rarest.forEach((word, i) => {
    if (!counts.has(word)) return; // no learning of the agent holds it: no index entries to read
    for (const [from, to] of plan.ranges[i]!) probes.push([word, from, to]);
  });
  if (probes.length === 0) return [];
  const rows = stmt(db, CANDIDATES_SQL).all({
    agent,
    probes: JSON.stringify(probes),
    hits: JSON.stringify(plan.hits),
    negated: fp.negated ? 1 : 0,
  });
  return rows.map(toLearning).filter((l) => sameFingerprint(fp, fingerprint(l.text)));
}

export interface ProposalInput {
  agent: string;
  text: string;
  impact: Impact;
  at: string;
  run?: string | null | undefined;
}

export interface ProposalResult {
  outcome: ProposalOutcome;
  learning_id: string | null;
  reason: string | null;
  /** Whether the agent's active set (what its runs are given) changed. */
  activeChanged: boolean;
}

function logProposal(db: Db, p: ProposalInput, at: string, text: string, r: Omit<ProposalResult, 'activeChanged'>): void {
  stmt(
    db,
    `INSERT INTO proposals (at, day, agent, run, text, impact, outcome, learning_id, reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(at, dayOf(at), p.agent, p.run ?? null, text, p.impact, r.outcome, r.learning_id, r.reason);
}

const randomPool = new Uint8Array(4096);
let randomLeft = 0;

/**
 * The randomness of new learning ids, as `ulid` wants it (a byte / 256), drawn from the system's
 * secure generator a pool at a time. `ulid`'s own default asks the system for one byte at a
 * time, 16 calls per id, which was a visible share of ingesting proposals.
 */
function pooledRandom(): number {
  if (randomLeft === 0) {
    globalThis.crypto.getRandomValues(randomPool);
    randomLeft = randomPool.length;
  }
  return randomPool[--randomLeft]! / 256;
}

/** Takes up one proposal (SPEC 2): screen, match, decide, write, log. */
export function applyProposal(db: Db, p: ProposalInput, settings: LedgerSettings & { max_text: number }): ProposalResult {
  const at = normTime(p.at);
  const screened = screen(p.text, settings.max_text);
  if (!screened.ok) {
    const result = { outcome: 'refused' as const, learning_id: null, reason: screened.reason };
    logProposal(db, p, at, p.text.trim(), result);
    return { ...result, activeChanged: false };
  }
  const proposal: ScreenedProposal = { agent: p.agent, text: screened.text, impact: p.impact, at, run: p.run ?? null };
  const decision = decideProposal(proposal, matchingLearnings(db, p.agent, screened.text), settings, () => `lrn_${ulid(Date.parse(at), pooledRandom)}`);
  const run = p.run ?? null;
  let result: Omit<ProposalResult, 'activeChanged'>;
  let activeChanged = false;
  switch (decision.outcome) {
    case 'refused':
      result = { outcome: 'refused', learning_id: decision.learning_id, reason: decision.reason };
      break;
    case 'echo':
      saveLearning(db, decision.learning);
      addHistory(db, { learning_id: decision.learning.id, at, kind: 'echoed', run, state_before: decision.before.state, state_after: decision.learning.state });
      result = { outcome: 'echo', learning_id: decision.learning.id, reason: null };
      break;
    case 'rediscovery':
    case 'confirmed':
      saveLearning(db, decision.learning);
      addHistory(db, {
        learning_id: decision.learning.id,
        at,
        kind: decision.outcome === 'confirmed' ? 'confirmed' : 'rediscovered',
        run,
        reason: `rediscovery ${decision.learning.rediscoveries} of ${settings.confirm_after}`,
        state_before: decision.before.state,
        state_after: decision.learning.state,
      });
      result = { outcome: decision.outcome, learning_id: decision.learning.id, reason: null };
      activeChanged = true;
      break;
    case 'new':
      insertLearning(db, decision.learning);
      addHistory(db, { learning_id: decision.learning.id, at, kind: 'proposed', run, state_before: null, state_after: 'provisional' });
      result = { outcome: 'new', learning_id: decision.learning.id, reason: null };
      activeChanged = true;
      break;
  }
  logProposal(db, p, at, proposal.text, result);
  return { ...result, activeChanged };
}

/** Marks agents whose exported learnings file must be re-written (cleared by the exporter). */
export function markExportPending(db: Db, agents: Iterable<string>): void {
  const mark = stmt(db, 'INSERT OR IGNORE INTO export_pending (agent) VALUES (?)');
  for (const agent of agents) mark.run(agent);
}

// ---------------------------------------------------------------------------------------------
// Filters (shared by the read side and bulk decisions)

/** Quotes each of the user's words for FTS5 so no operator or syntax of theirs is interpreted. */
export function ftsQuery(search: string): string | null {
  const words = search
    .split(/\s+/u)
    .map((w) => w.replace(/[^\p{L}\p{N}_]+/gu, ' ').trim())
    .flatMap((w) => w.split(' '))
    .filter((w) => w.length > 0);
  if (words.length === 0) return null;
  return words.map((w, i) => `"${w.replace(/"/g, '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

export interface SqlWhere {
  sql: string;
  params: Record<string, unknown>;
}

/** The WHERE clause of a learning filter; `withStates: false` leaves the states out (for counts). */
export function filterWhere(filter: LearningFilter, withStates = true): SqlWhere {
  const parts: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.agent !== undefined && filter.agent !== '') {
    parts.push('agent = @agent');
    params.agent = filter.agent;
  }
  if (withStates && filter.states && filter.states.length > 0) {
    parts.push('state IN (SELECT value FROM json_each(@states))');
    params.states = JSON.stringify(filter.states);
  }
  if (filter.impacts && filter.impacts.length > 0) {
    parts.push('impact IN (SELECT value FROM json_each(@impacts))');
    params.impacts = JSON.stringify(filter.impacts);
  }
  if (filter.search !== undefined) {
    const query = ftsQuery(filter.search);
    if (query !== null) {
      parts.push('rowid IN (SELECT rowid FROM learnings_fts WHERE learnings_fts MATCH @search)');
      params.search = query;
    }
  }
  return { sql: parts.length > 0 ? `WHERE ${parts.join(' AND ')}` : '', params };
}

// ---------------------------------------------------------------------------------------------
// A person's decisions

export interface DecisionResult {
  /** Ids whose state the decision changed. */
  changed: string[];
  /** Ids that exist but the decision does not apply to (already rejected, not keepable, nothing to undo). */
  unchanged: string[];
  /** Ids that name no learning. */
  missing: string[];
  /** Agents whose active set changed. */
  agents: string[];
}

export interface DecisionInput {
  by: string;
  reason?: string | null | undefined;
  /** The clock time of the decision (decisions read the clock; events never do). */
  now: Date;
}

function targetIds(db: Db, target: LearningTarget): string[] {
  if ('ids' in target) return [...new Set(target.ids)];
  const where = filterWhere(target.filter);
  return (db.prepare(`SELECT id FROM learnings ${where.sql} ORDER BY rowid`).all(where.params) as { id: string }[]).map(
    (r) => r.id,
  );
}

function loadMany(db: Db, ids: string[]): Map<string, Learning> {
  const rows = db
    .prepare(`SELECT ${LEARNING_COLUMNS} FROM learnings WHERE id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids));
  return new Map(rows.map((r) => [toLearning(r).id, toLearning(r)]));
}

/** Reject or keep the targeted learnings in one transaction, each with its history line. */
/**
 * Rejects or keeps learnings, a person's decision: journaled (store/journal.ts) in the same
 * transaction, by the ids it changed, so that made again from the journal it changes the same.
 */
export function decideLearnings(
  db: Db,
  kind: 'reject' | 'keep',
  target: LearningTarget,
  input: DecisionInput,
  replaying?: Replaying,
): DecisionResult {
  const by = input.by.trim();
  if (by === '') throw new Error('a decision needs the name of the person making it');
  const at = input.now.toISOString();
  const reason = input.reason?.trim() ? input.reason.trim() : null;
  return db.transaction((): DecisionResult => {
    const ids = targetIds(db, target);
    const found = loadMany(db, ids);
    const result: DecisionResult = { changed: [], unchanged: [], missing: [], agents: [] };
    const agents = new Set<string>();
    const journaled: JournaledLearning[] = [];
    for (const id of ids) {
      const before = found.get(id);
      if (!before) {
        result.missing.push(id);
        continue;
      }
      const after = kind === 'reject' ? reject(before, { by, at, reason }) : keep(before, { by, at, reason });
      if (!after) {
        result.unchanged.push(id);
        continue;
      }
      saveLearning(db, after);
      addHistory(db, {
        learning_id: id,
        at,
        kind: kind === 'reject' ? 'rejected' : 'kept',
        by,
        reason,
        state_before: before.state,
        state_after: after.state,
        undo: JSON.stringify(snapshotOf(before)),
      });
      result.changed.push(id);
      journaled.push({ id, agent: before.agent, text: before.text });
      if (isActive(before.state) !== isActive(after.state) || before.state !== after.state) agents.add(before.agent);
    }
    result.agents = [...agents].sort();
    markExportPending(db, result.agents);
    if (journaled.length > 0) journalDecision(db, { what: kind, at, by, learnings: journaled, reason }, replaying);
    return result;
  }).immediate();
}

/**
 * Undoes the last rejection or keep of each learning: it gets back exactly the fields that
 * decision overwrote. Undos stack: a second undo reaches the decision before the one undone.
 * A decision is undone only while the learning is still in the state it left it in.
 */
/** Undoes the last decisions on learnings; journaled as `decideLearnings` is. */
export function undoDecisions(db: Db, ids: readonly string[], input: DecisionInput, replaying?: Replaying): DecisionResult {
  const by = input.by.trim();
  if (by === '') throw new Error('an undo needs the name of the person making it');
  const at = input.now.toISOString();
  return db.transaction((): DecisionResult => {
    const result: DecisionResult = { changed: [], unchanged: [], missing: [], agents: [] };
    const agents = new Set<string>();
    const journaled: JournaledLearning[] = [];
    const unique = [...new Set(ids)];
    const found = loadMany(db, unique);
    const history = db.prepare(
      `SELECT seq, kind, state_after, undo FROM learning_history
       WHERE learning_id = ? AND kind IN ('rejected', 'kept', 'undone') ORDER BY seq DESC`,
    );
    for (const id of unique) {
      const current = found.get(id);
      if (!current) {
        result.missing.push(id);
        continue;
      }
      let pending = 0;
      let target: { kind: string; state_after: string; undo: string | null } | undefined;
      for (const row of history.iterate(id) as Iterable<{ kind: string; state_after: string; undo: string | null }>) {
        if (row.kind === 'undone') pending++;
        else if (pending > 0) pending--;
        else {
          target = row;
          break;
        }
      }
      const snapshot = target?.undo ? (JSON.parse(target.undo) as unknown) : null;
      if (!target || target.state_after !== current.state || !isDecisionSnapshot(snapshot)) {
        result.unchanged.push(id);
        continue;
      }
      const after = undo(current, snapshot);
      saveLearning(db, after);
      addHistory(db, {
        learning_id: id,
        at,
        kind: 'undone',
        by,
        reason: `undid the ${target.kind === 'rejected' ? 'rejection' : 'keep'}`,
        state_before: current.state,
        state_after: after.state,
      });
      result.changed.push(id);
      journaled.push({ id, agent: current.agent, text: current.text });
      agents.add(current.agent);
    }
    result.agents = [...agents].sort();
    markExportPending(db, result.agents);
    if (journaled.length > 0) journalDecision(db, { what: 'undo', at, by, learnings: journaled }, replaying);
    return result;
  }).immediate();
}
