/**
 * The read side of "Worth a look" (docs/rules.md#worth-a-look): the evidence about every active
 * learning, gathered in a handful of grouped queries over the whole ledger (never one query per
 * learning: at 100,000 learnings that alone would take seconds), weighed by the pure rules of
 * `rules/worth.ts`, less the entries a person dismissed against the same evidence.
 *
 * Display only: nothing here writes to a learning. The one write is a dismissal, which is a note
 * about the section, not a decision on the learning.
 */
import type { Learning } from '../../../shared/domain.js';
import {
  ECHO_FLOOR,
  MIN_RUNS_EACH_SIDE,
  evidenceFingerprint,
  medianOfCounts,
  sameChain,
  worthReasons,
  type RunCounts,
  type WorthEvidence,
} from '../../rules/worth.js';
import type { Db } from './db.js';
import { LEARNING_COLUMNS, toLearning } from './learningRows.js';
import { stmt } from './statements.js';

/** The states whose learnings are given to runs: only those are looked at (docs/rules.md#learnings). */
const ACTIVE = `state IN ('provisional', 'confirmed')`;

/**
 * Most entries the section lists. It is review by exception: a section of hundreds is a queue
 * again, and a person works it from the top (most reasons first). The total is still reported.
 */
export const WORTH_MOST = 100;

export interface WorthEntry {
  learning: Learning;
  reasons: string[];
  fingerprint: string;
}

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

/** Finished runs of each agent, and how many succeeded. */
function agentRuns(db: Db): Map<string, RunCounts> {
  const rows = stmt(
    db,
    `SELECT agent, count(*) AS runs, sum(outcome = 'succeeded') AS succeeded FROM runs WHERE finished_at IS NOT NULL GROUP BY agent`,
  ).all() as (Counted & { agent: string })[];
  return new Map(rows.map((r) => [r.agent, counts(r)]));
}

/**
 * The finished runs each active learning was given (learnings given fewer than the failing rule's
 * minimum are left out here: the rule would not look at them).
 */
function givenRuns(db: Db): Map<number, RunCounts> {
  const rows = stmt(
    db,
    `SELECT g.learning_rowid AS rowid, count(*) AS runs, sum(r.outcome = 'succeeded') AS succeeded
     FROM learnings l JOIN run_given g ON g.learning_rowid = l.rowid JOIN runs r ON r.seq = g.run_seq
     WHERE l.${ACTIVE} AND r.finished_at IS NOT NULL
     GROUP BY g.learning_rowid HAVING count(*) >= ?`,
  ).all(MIN_RUNS_EACH_SIDE) as (Counted & { rowid: number })[];
  return new Map(rows.map((r) => [r.rowid, counts(r)]));
}

/** The median echo count of each agent's active learnings, from one histogram per agent. */
function echoMedians(db: Db): Map<string, number> {
  const rows = stmt(db, `SELECT agent, echoes AS value, count(*) AS count FROM learnings WHERE ${ACTIVE} GROUP BY agent, echoes`).all() as {
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
  return new Map([...byAgent].map(([agent, list]) => [agent, medianOfCounts(list)]));
}

interface ChainCount {
  rowid: number;
  original: string | null;
  chain: string | null;
  n: number;
}

/**
 * Rediscoveries of active learnings (those that confirmed included), grouped by the chain they
 * came from, next to the chain of the learning's first proposal (the proposal log holds it at the
 * learning's `first_at`, with outcome `new`).
 */
function rediscoveryChains(db: Db): ChainCount[] {
  return stmt(
    db,
    `SELECT l.rowid AS rowid, ro.chain AS original, rp.chain AS chain, count(*) AS n
     FROM proposal_log p
     JOIN learnings l ON l.id = p.learning_id AND l.${ACTIVE}
     LEFT JOIN proposal_log o ON o.at = l.first_at AND o.learning_id = l.id AND o.outcome = 'new'
     LEFT JOIN runs ro ON ro.run = o.run
     LEFT JOIN runs rp ON rp.run = p.run
     WHERE p.outcome IN ('rediscovery', 'confirmed')
     GROUP BY l.rowid, ro.chain, rp.chain`,
  ).all() as ChainCount[];
}

interface Candidate {
  rowid: number;
  agent: string;
  echoes: number;
}

/** Active learnings that could be singled out: given enough runs, echoed enough, or rediscovered. */
function candidates(db: Db, rowids: Iterable<number>): Candidate[] {
  const byRowid = new Map<number, Candidate>();
  for (const c of stmt(db, `SELECT rowid, agent, echoes FROM learnings WHERE ${ACTIVE} AND echoes >= ?`).all(ECHO_FLOOR) as Candidate[]) {
    byRowid.set(c.rowid, c);
  }
  const one = stmt(db, `SELECT rowid, agent, echoes FROM learnings WHERE rowid = ?`);
  for (const rowid of rowids) {
    if (byRowid.has(rowid)) continue;
    const c = one.get(rowid) as Candidate | undefined;
    if (c) byRowid.set(rowid, c);
  }
  return [...byRowid.values()];
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
    const given = givenRuns(db);
    const medians = echoMedians(db);
    const same = new Map<number, { n: number; original: string | null }>();
    for (const c of rediscoveryChains(db)) {
      if (!sameChain(c.original, c.chain)) continue;
      const seen = same.get(c.rowid);
      same.set(c.rowid, { n: (seen?.n ?? 0) + c.n, original: c.original });
    }
    const dismissed = dismissals(db);
    const found: { rowid: number; reasons: string[]; fingerprint: string }[] = [];
    for (const c of candidates(db, new Set([...given.keys(), ...same.keys()]))) {
      const mine = given.get(c.rowid) ?? NO_RUNS;
      const all = agents.get(c.agent) ?? NO_RUNS;
      const evidence: WorthEvidence = {
        given: mine,
        other: { runs: all.runs - mine.runs, failed: all.failed - mine.failed },
        echoes: c.echoes,
        agentMedianEchoes: medians.get(c.agent) ?? 0,
        sameChainRediscoveries: same.get(c.rowid)?.n ?? 0,
        originalChain: same.get(c.rowid)?.original ?? null,
      };
      const reasons = worthReasons(evidence);
      if (reasons.length === 0) continue;
      const fingerprint = evidenceFingerprint(evidence);
      if (dismissed.get(c.rowid) === fingerprint) continue;
      found.push({ rowid: c.rowid, reasons, fingerprint });
    }
    const row = stmt(db, `SELECT ${LEARNING_COLUMNS} FROM learnings WHERE rowid = ?`);
    const entries = found
      .map((f) => ({ learning: toLearning(row.get(f.rowid)), reasons: f.reasons, fingerprint: f.fingerprint }))
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
