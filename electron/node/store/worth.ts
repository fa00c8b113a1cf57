/**
 * The read side of "Worth a look" (docs/rules.md#worth-a-look): the evidence about every active
 * learning, gathered in a handful of grouped queries over the whole ledger (never one query per
 * learning: at 100,000 learnings that alone would take seconds), weighed by the pure rules of
 * `rules/worth.ts`, less the entries a person dismissed against the same evidence.
 *
 * Display only: nothing here writes to a learning. The one write is a dismissal, which is a note
 * about the section, not a decision on the learning.
 */
import type { WorthEntry } from '../../../shared/api.js';
import { decisionsOn } from '../../rules/ledger.js';
import {
  MIN_RUNS_EACH_SIDE,
  echoThreshold,
  echoesFarAboveNorm,
  evidenceFingerprint,
  medianOfCounts,
  sameChain,
  worthReasons,
  type RunCounts,
  type WorthEvidence,
} from '../../rules/worth.js';
import type { Db } from './db.js';
import { ACTIVE_SQL, LEARNING_FIELDS, toLearning } from './learningRows.js';
import { columnList } from './rowCheck.js';
import { stmt } from './statements.js';

/**
 * Most entries the section lists. It is review by exception: a section of hundreds is a queue
 * again, and a person works it from the top (most reasons first). The total is still reported.
 */
const WORTH_MOST = 100;

export interface WorthSection {
  total: number;
  entries: WorthEntry[];
}

interface Counted {
  runs: number;
  succeeded: number | null;
}

function counts(row: Counted): RunCounts {
  return { runs: row.runs, failed: row.runs - (row.succeeded ?? 0) };
}

/** Finished runs of each agent, and how many succeeded, from the counts the ledger keeps (schema: `agent_run_counts`). */
function agentRuns(db: Db): Map<string, RunCounts> {
  const rows = stmt(db, 'SELECT agent, runs, succeeded FROM agent_run_counts').all() as (Counted & { agent: string })[];
  return new Map(rows.map((r) => [r.agent, counts(r)]));
}

interface Candidate {
  rowid: number;
  agent: string;
  echoes: number;
}

/**
 * The finished runs each active learning was given, from the counts the ledger keeps (schema:
 * `learning_run_counts`), for the learnings the failing rule could single out: given at least its
 * minimum of runs, and failing more often than the agent's runs as a whole. The rule asks for more
 * (the Wilson intervals apart), and whatever passes it passes this: a rate above the other runs'
 * is above the mean of both. Most learnings of a ledger are left out here, before any is weighed.
 */
function givenRuns(db: Db): (Candidate & { given: RunCounts })[] {
  const rows = stmt(
    db,
    `SELECT c.learning_rowid AS rowid, l.agent AS agent, l.echoes AS echoes, c.runs AS runs, c.succeeded AS succeeded
     FROM learning_run_counts c JOIN learnings l ON l.rowid = c.learning_rowid JOIN agent_run_counts a ON a.agent = l.agent
     WHERE c.runs >= ? AND l.${ACTIVE_SQL} AND (c.runs - c.succeeded) * a.runs > (a.runs - a.succeeded) * c.runs`,
  ).all(MIN_RUNS_EACH_SIDE) as (Counted & Candidate)[];
  return rows.map((r) => ({ rowid: r.rowid, agent: r.agent, echoes: r.echoes, given: counts(r) }));
}

interface EchoCounts {
  /** The median echo count of the agent's active learnings. */
  median: number;
  /** Its highest echo count. */
  most: number;
}

/** The echo counts of each agent's active learnings, from one histogram per agent. */
function echoCounts(db: Db): Map<string, EchoCounts> {
  const rows = stmt(db, `SELECT agent, echoes AS value, count(*) AS count FROM learnings WHERE ${ACTIVE_SQL} GROUP BY agent, echoes`).all() as {
    agent: string;
    value: number;
    count: number;
  }[];
  const byAgent = new Map<string, { value: number; count: number }[]>();
  for (const r of rows) {
    const list = byAgent.get(r.agent) ?? [];
    list.push(r);
    byAgent.set(r.agent, list);
  }
  return new Map([...byAgent].map(([agent, list]) => [agent, { median: medianOfCounts(list), most: Math.max(...list.map((c) => c.value)) }]));
}

interface SameChain extends Candidate {
  chain: string;
  n: number;
}

/** Active learnings rediscovered from the chain of their first proposal (schema: `learning_same_chain`). */
function sameChainRediscoveries(db: Db): SameChain[] {
  return stmt(
    db,
    `SELECT s.learning_rowid AS rowid, l.agent AS agent, l.echoes AS echoes, s.chain AS chain, s.rediscoveries AS n
     FROM learning_same_chain s JOIN learnings l ON l.rowid = s.learning_rowid WHERE l.${ACTIVE_SQL}`,
  ).all() as SameChain[];
}

/**
 * The chain of a learning's first proposal (by its time and id) and the chain of a run. The
 * first proposal is found through the log's index by time: `+o.outcome` keeps the planner off
 * the index by outcome, which it otherwise takes (the ledger keeps no statistics) and which
 * reads every discovery in the log for each rediscovery — ingest then grew with the square of
 * the log (30% of a 100,000-event ingest, and a million events did not finish). Exported for
 * the test that holds it to that index.
 */
export const CHAINS_OF_REDISCOVERY = `SELECT (SELECT r.chain FROM proposal_log o JOIN runs r ON r.run = o.run
         WHERE o.at = ? AND o.learning_id = ? AND +o.outcome = 'new') AS original,
        (SELECT chain FROM runs WHERE run = ?) AS chain`;

/**
 * Notes a rediscovery of `learning` proposed in `run` (called as the proposal is taken up, in its
 * transaction): counted when it came from the chain of the learning's first proposal, whose run
 * the proposal log names. A run the ledger does not know (yet) is not the same chain.
 */
export function noteRediscovery(db: Db, learning: { id: string; first_at: string }, run: string | null): void {
  if (run === null) return;
  const chains = stmt(db, CHAINS_OF_REDISCOVERY).get(learning.first_at, learning.id, run) as { original: string | null; chain: string | null };
  if (!sameChain(chains.original, chains.chain)) return;
  stmt(
    db,
    `INSERT INTO learning_same_chain (learning_rowid, chain, rediscoveries) SELECT rowid, ?, 1 FROM learnings WHERE id = ?
     ON CONFLICT (learning_rowid) DO UPDATE SET rediscoveries = rediscoveries + 1`,
  ).run(chains.original, learning.id);
}

/**
 * The active learnings echoed far above their agent's norm: asked only of the agents whose
 * histogram shows such a count at all, through the index of an agent's learnings by state.
 */
function echoed(db: Db, echoes: Map<string, EchoCounts>): Candidate[] {
  const read = stmt(db, `SELECT rowid, agent, echoes FROM learnings WHERE agent = ? AND ${ACTIVE_SQL} AND echoes >= ?`);
  const found: Candidate[] = [];
  for (const [agent, e] of echoes) {
    if (echoesFarAboveNorm(e.most, e.median)) found.push(...(read.all(agent, echoThreshold(e.median)) as Candidate[]));
  }
  return found;
}

/**
 * The dismissals still in force, by learning: the fingerprint each was dismissed against. An entry
 * whose current fingerprint is another one is shown again.
 */
function dismissals(db: Db): Map<number, string> {
  const rows = stmt(db, 'SELECT learning_rowid AS rowid, fingerprint FROM worth_dismissals').all() as { rowid: number; fingerprint: string }[];
  return new Map(rows.map((r) => [r.rowid, r.fingerprint]));
}

const NO_RUNS: RunCounts = { runs: 0, failed: 0 };

/**
 * The section: every active learning the evidence singles out and a person has not dismissed
 * against the same evidence, most reasons first, then the most recently proposed.
 */
export function worthALook(db: Db): WorthSection {
  const read = db.transaction(() => {
    const agents = agentRuns(db);
    const echoes = echoCounts(db);
    const found = new Map<number, Candidate & { given: RunCounts; same: number; original: string | null }>();
    const entry = (c: Candidate) => {
      let e = found.get(c.rowid);
      if (!e) {
        e = { rowid: c.rowid, agent: c.agent, echoes: c.echoes, given: NO_RUNS, same: 0, original: null };
        found.set(c.rowid, e);
      }
      return e;
    };
    for (const c of echoed(db, echoes)) entry(c);
    for (const c of givenRuns(db)) entry(c).given = c.given;
    for (const c of sameChainRediscoveries(db)) {
      const e = entry(c);
      e.same = c.n;
      e.original = c.chain;
    }
    const dismissed = dismissals(db);
    const listed: { rowid: number; reasons: string[]; fingerprint: string }[] = [];
    for (const c of found.values()) {
      const all = agents.get(c.agent) ?? NO_RUNS;
      const evidence: WorthEvidence = {
        given: c.given,
        other: { runs: all.runs - c.given.runs, failed: all.failed - c.given.failed },
        echoes: c.echoes,
        agentMedianEchoes: echoes.get(c.agent)?.median ?? 0,
        sameChainRediscoveries: c.same,
        originalChain: c.original,
      };
      const reasons = worthReasons(evidence);
      if (reasons.length === 0) continue;
      const fingerprint = evidenceFingerprint(evidence);
      if (dismissed.get(c.rowid) === fingerprint) continue;
      listed.push({ rowid: c.rowid, reasons, fingerprint });
    }
    // The listed learnings in one read, not one statement each.
    const rows = stmt(db, `SELECT l.rowid AS rowid, ${columnList(LEARNING_FIELDS, 'l')}
      FROM json_each(?) j JOIN learnings l ON l.rowid = j.value`).all(JSON.stringify(listed.map((f) => f.rowid))) as ({ rowid: number } & Record<string, unknown>)[];
    const byRowid = new Map(rows.map(({ rowid, ...row }) => [rowid, toLearning(row)]));
    const entries = listed
      .map((f): WorthEntry => {
        const learning = byRowid.get(f.rowid)!;
        // Which decisions it takes, from the ledger's own table, so the window's Keep follows the rule.
        return { learning, reasons: f.reasons, fingerprint: f.fingerprint, decisions: decisionsOn(learning.state) };
      })
      .sort(
        (a, b) =>
          b.reasons.length - a.reasons.length ||
          (a.learning.last_at < b.learning.last_at ? 1 : a.learning.last_at > b.learning.last_at ? -1 : 0) ||
          (a.learning.id < b.learning.id ? -1 : 1),
      );
    return { total: entries.length, entries: entries.slice(0, WORTH_MOST) };
  });
  return read.deferred();
}

/**
 * Remembers that `by` dismissed the learning `id` from the section against `fingerprint`: it
 * stays out while its evidence has that fingerprint. False when the ledger has no such learning.
 */
export function dismissWorth(db: Db, id: string, fingerprint: string, by: string, now: Date): boolean {
  const result = stmt(
    db,
    `INSERT INTO worth_dismissals (learning_rowid, fingerprint, by, at)
     SELECT rowid, ?, ?, ? FROM learnings WHERE id = ?
     ON CONFLICT (learning_rowid) DO UPDATE SET fingerprint = excluded.fingerprint, by = excluded.by, at = excluded.at`,
  ).run(fingerprint, by, now.toISOString(), id);
  return result.changes > 0;
}
