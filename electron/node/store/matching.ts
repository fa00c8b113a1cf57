/**
 * Matching a proposal against its agent's learnings through the in-memory matching index
 * (`matchIndex.ts`), kept in step with the ledger.
 *
 * The index is built per connection and per agent, the first time that agent's learnings are
 * matched (at 100,000 learnings of one agent that takes about half a second; docs/development.md
 * has the measured figure), from the texts in the ledger. After that it is never rebuilt from
 * texts: a learning's words are worked out once, when it is added.
 *
 * Staying exact while other processes write. The CLI may ingest while the app does, and a sweep
 * deletes lapsed learnings. The ledger tells both apart cheaply: new learnings have rowids above
 * the highest one the index knows, and every deleted learning bumps a counter (a trigger, see
 * the schema). `syncMatchIndex` compares both with what the index saw, inside the caller's
 * transaction, and takes in new rows or starts afresh after a deletion it did not make. A write
 * that is rolled back after it reached the index would leave the index ahead of the ledger, so
 * whoever rolls back calls `forgetMatchIndex`.
 */
import type { Learning } from '../../../shared/domain.js';
import { fingerprint, type Fingerprint } from '../../rules/sameness.js';
import type { Db } from './db.js';
import { AgentMatchIndex, type ProbeStats } from './matchIndex.js';
import { stmt } from './statements.js';
import { LEARNING_COLUMNS, toLearning } from './learningRows.js';
import { withChanges } from './learningWrites.js';

/** The meta key a trigger bumps for every deleted learning (schema migration 2). */
export const DELETIONS_KEY = 'learnings_deleted';

interface LedgerIndex {
  agents: Map<string, AgentMatchIndex>;
  /** Highest learning rowid the index has taken in. */
  maxRowid: number;
  /** The deletion counter as the index last saw it. */
  deletions: number;
}

const indexes = new WeakMap<Db, LedgerIndex>();

/** Probes made and learnings compared, since the process started (for the benchmark). */
export const matchStats: ProbeStats & { probes: number } = { probes: 0, examined: 0 };

function ledgerState(db: Db): { maxRowid: number; deletions: number } {
  const max = (stmt(db, 'SELECT coalesce(max(rowid), 0) AS m FROM learnings').get() as { m: number }).m;
  const row = stmt(db, 'SELECT value FROM meta WHERE key = ?').get(DELETIONS_KEY) as { value: string } | undefined;
  return { maxRowid: max, deletions: row ? Number(row.value) : 0 };
}

/**
 * The connection's index, brought in step with the ledger: call inside the transaction that then
 * matches (ingest calls it once per batch; {@link matchingLearnings} on every call).
 */
export function syncMatchIndex(db: Db): void {
  const state = ledgerState(db);
  const index = indexes.get(db);
  if (!index || index.deletions !== state.deletions || state.maxRowid < index.maxRowid) {
    indexes.set(db, { agents: new Map(), ...state });
    return;
  }
  if (state.maxRowid > index.maxRowid) {
    if (index.agents.size > 0) {
      const rows = stmt(db, 'SELECT rowid, agent, text FROM learnings WHERE rowid > ? ORDER BY rowid').all(index.maxRowid) as {
        rowid: number;
        agent: string;
        text: string;
      }[];
      for (const row of rows) index.agents.get(row.agent)?.add(row.rowid, fingerprint(row.text));
    }
    index.maxRowid = state.maxRowid;
  }
}

function ledgerIndex(db: Db): LedgerIndex {
  let index = indexes.get(db);
  if (!index) {
    syncMatchIndex(db);
    index = indexes.get(db)!;
  }
  return index;
}

function agentIndex(db: Db, agent: string): AgentMatchIndex {
  const index = ledgerIndex(db);
  let found = index.agents.get(agent);
  if (!found || found.wantsRebuild) {
    const rows = stmt(db, 'SELECT rowid, text FROM learnings WHERE agent = ? AND rowid <= ?').all(agent, index.maxRowid) as {
      rowid: number;
      text: string;
    }[];
    found = new AgentMatchIndex(rows.map((row) => ({ rowid: row.rowid, fp: fingerprint(row.text) })));
    index.agents.set(agent, found);
  }
  return found;
}

/** Rowids of the agent's learnings the same as `fp`, oldest first, from an index already in step. */
export function matchingRowids(db: Db, agent: string, fp: Fingerprint): number[] {
  matchStats.probes++;
  return agentIndex(db, agent).match(fp, matchStats);
}

/** Loads the learnings with these rowids, in that order (an open ingest batch's changes included). */
export function learningsByRowid(db: Db, rowids: readonly number[]): Learning[] {
  const read = stmt(db, `SELECT ${LEARNING_COLUMNS} FROM learnings WHERE rowid = ?`);
  return withChanges(db, rowids.map((rowid) => toLearning(read.get(rowid))));
}

/**
 * The agent's learnings that sameness says are the same claim as `text` (docs/rules.md#sameness),
 * exactly those that comparing with every one of them would give.
 */
export function matchingLearnings(db: Db, agent: string, text: string): Learning[] {
  return db.transaction(() => {
    syncMatchIndex(db);
    return learningsByRowid(db, matchingRowids(db, agent, fingerprint(text)));
  })();
}

/** Tells the index about a learning this connection just inserted. */
export function indexNewLearning(db: Db, agent: string, rowid: number, fp: Fingerprint): void {
  const index = ledgerIndex(db);
  index.agents.get(agent)?.add(rowid, fp);
  if (rowid > index.maxRowid) index.maxRowid = rowid;
}

/** Tells the index about learnings this connection just deleted (a sweep), by agent and rowid. */
export function unindexLearnings(db: Db, removed: readonly { agent: string; rowid: number }[]): void {
  const index = indexes.get(db);
  if (!index) return;
  for (const { agent, rowid } of removed) index.agents.get(agent)?.remove(rowid);
  index.deletions += removed.length;
}

/** Drops the connection's index after a rollback undid writes it had taken in; rebuilt at next use. */
export function forgetMatchIndex(db: Db): void {
  indexes.delete(db);
}
