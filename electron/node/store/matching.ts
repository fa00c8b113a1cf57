/**
 * Matching a proposal against its agent's learnings through the in-memory matching index
 * (`matchIndex.ts`), kept in step with the ledger.
 *
 * The index is built per connection and per agent, the first time that agent's learnings are
 * matched, from the texts in the ledger (read as raw rows in rowid order and split straight into
 * word ids: about a second at 100,000 learnings of one agent, most of it splitting the texts;
 * docs/development.md#figures has the measured figure). After that it is never rebuilt from texts:
 * a learning's words are worked out once, when it is added. Keeping fingerprints in the ledger
 * would save the split but cost the ledger bytes per learning and a second copy of the rule's
 * output to keep in step with the rule.
 *
 * Staying exact while other processes write. The CLI may ingest while the app does, and a sweep
 * deletes lapsed learnings. The ledger tells both apart cheaply: new learnings have rowids above
 * the highest one the index knows, and every deleted learning is logged (`deletions.ts`).
 * `syncMatchIndex` reads both, inside the caller's transaction, and takes in what changed. A write
 * that is rolled back after it reached the index would leave the index ahead of the ledger, so
 * whoever rolls back calls `forgetMatchIndex`.
 */
import type { Learning } from '../../../shared/domain.js';
import { fingerprint, type Fingerprint } from '../../rules/sameness.js';
import type { Db } from './db.js';
import { AgentMatchIndex, type ProbeStats } from './matchIndex.js';
import { rawStmt, stmt } from './statements.js';
import { LEARNING_COLUMNS, learningFromColumns } from './learningRows.js';
import { withChanges } from './learningWrites.js';
import { deletedSince, lastDeletion } from './deletions.js';

interface LedgerIndex {
  agents: Map<string, AgentMatchIndex>;
  /** Highest learning rowid the index has taken in. */
  maxRowid: number;
  /** The newest deletion (deletions.ts) the index has taken in. */
  deletion: number;
}

const indexes = new WeakMap<Db, LedgerIndex>();

/** Probes made and learnings compared, since the process started (for the benchmark). */
export const matchStats: ProbeStats & { probes: number } = { probes: 0, examined: 0 };

function maxRowid(db: Db): number {
  return (stmt(db, 'SELECT coalesce(max(rowid), 0) AS m FROM learnings').get() as { m: number }).m;
}

/**
 * The connection's index, brought in step with the ledger: call inside the transaction that then
 * matches (ingest calls it once per batch; {@link matchingLearnings} on every call).
 */
export function syncMatchIndex(db: Db): void {
  const index = indexes.get(db);
  const deleted = index ? deletedSince(db, index.deletion) : null;
  if (!index || deleted === null) {
    indexes.set(db, { agents: new Map(), maxRowid: maxRowid(db), deletion: lastDeletion(db) });
    return;
  }
  for (const { rowid, agent } of deleted) {
    index.agents.get(agent)?.remove(rowid);
    // SQLite may give the highest rowid, once freed, to the next learning: read from below it again.
    index.maxRowid = Math.min(index.maxRowid, rowid - 1);
  }
  if (deleted.length > 0) index.deletion = lastDeletion(db);
  const highest = maxRowid(db);
  if (highest > index.maxRowid) {
    if (index.agents.size > 0) {
      const rows = stmt(db, 'SELECT rowid, agent, text FROM learnings WHERE rowid > ? ORDER BY rowid').all(index.maxRowid) as {
        rowid: number;
        agent: string;
        text: string;
      }[];
      for (const row of rows) index.agents.get(row.agent)?.add(row.rowid, fingerprint(row.text));
    }
  }
  index.maxRowid = highest;
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
    // Rowid order makes the index's slots oldest first, the order matches come back in. Raw rows,
    // each split as it is read (`fromTexts` says why): no object per learning.
    const rows = rawStmt(db, 'SELECT rowid, text FROM learnings WHERE agent = ? AND rowid <= ? ORDER BY rowid').iterate(agent, index.maxRowid) as IterableIterator<[number, string]>;
    found = AgentMatchIndex.fromTexts(rows);
    index.agents.set(agent, found);
  }
  return found;
}

/** Built once (statements.ts). Read raw: see `learningFromColumns`. */
const LEARNING_BY_ROWID = `SELECT ${LEARNING_COLUMNS} FROM learnings WHERE rowid = ?`;

/**
 * The rowids of the agent's learnings the same as `fp`, oldest first, from the index alone (no
 * row read), for a caller whose transaction has called {@link syncMatchIndex}. The benchmark
 * times it apart from {@link matchesInStep} to tell the filters' cost from the rows' read.
 */
export function matchedRowids(db: Db, agent: string, fp: Fingerprint): number[] {
  matchStats.probes++;
  return agentIndex(db, agent).match(fp, matchStats);
}

/**
 * The agent's learnings the same as `fp`, oldest first, for a caller whose transaction has
 * called {@link syncMatchIndex}: what ingest does for every proposal of a batch (the index is
 * brought in step once a batch, not once a proposal), and so what the benchmark times.
 */
export function matchesInStep(db: Db, agent: string, fp: Fingerprint): Learning[] {
  const rowids = matchedRowids(db, agent, fp);
  if (rowids.length === 0) return []; // most proposals: no statement to look up, no batch to consult
  const read = rawStmt(db, LEARNING_BY_ROWID);
  const found: Learning[] = [];
  for (const rowid of rowids) found.push(learningFromColumns(read.get(rowid)));
  // An open ingest batch's changes included (learningWrites.ts).
  return withChanges(db, found);
}

/**
 * {@link matchingLearnings}'s transaction, made once per connection: better-sqlite3 builds four
 * wrapped functions and their properties for every `db.transaction`, which cost more than the
 * probe of the matching index it wrapped.
 */
const matchInTransaction = new WeakMap<Db, (agent: string, text: string) => Learning[]>();

/**
 * The agent's learnings that sameness says are the same claim as `text` (docs/rules.md#sameness),
 * exactly those that comparing with every one of them would give: the one-off form, for a
 * caller with no transaction of its own (the agent-side `check`), which brings the index in step
 * on every call.
 */
export function matchingLearnings(db: Db, agent: string, text: string): Learning[] {
  let match = matchInTransaction.get(db);
  if (!match) {
    match = db.transaction((of: string, said: string) => {
      syncMatchIndex(db);
      return matchesInStep(db, of, fingerprint(said));
    });
    matchInTransaction.set(db, match);
  }
  return match(agent, text);
}

/** Tells the index about a learning this connection just inserted. */
export function indexNewLearning(db: Db, agent: string, rowid: number, fp: Fingerprint): void {
  const index = ledgerIndex(db);
  index.agents.get(agent)?.add(rowid, fp);
  if (rowid > index.maxRowid) index.maxRowid = rowid;
}

/** Drops the connection's index after a rollback undid writes it had taken in; rebuilt at next use. */
export function forgetMatchIndex(db: Db): void {
  indexes.delete(db);
}
