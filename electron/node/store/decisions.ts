/**
 * A person's decisions on learnings in the ledger: reject, keep and undo, over named learnings,
 * everything a filter matches, or everything a run or a chain discovered. The rules (which states
 * a decision applies to, what it sets, what an undo restores) live in `rules/ledger.ts`
 * (`DECISION_RULES`); this module applies them set-based, records each change in the learning's
 * history with who and when, and journals it (docs/factory-format.md#the-decisions-journal) so a
 * restored safety copy loses no decision.
 */
import type { DecisionKind, Learning, LearningState } from '../../../shared/domain.js';
import { ApiError, type LearningOrigin, type LearningRef, type LearningTarget } from '../../../shared/api.js';
import { journalDecision, type JournaledLearning, type Replaying } from './journal.js';
import {
  DECISION_RULES,
  SNAPSHOT_FIELDS,
  isActive,
  isDecisionSnapshot,
  undo,
} from '../../rules/ledger.js';
import type { Db } from './db.js';
import { rawStmt, stmt } from './statements.js';
import { LEARNING_COLUMNS, NEXT_CHANGED, toLearning } from './learningRows.js';
import { inLearningBatch, saveLearning } from './learningWrites.js';
import { matchingRowidsOf } from './learningList.js';
import { encodeHistory, markExportPending } from './learnings.js';


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

/**
 * A learning a decision's target names, with what the decision, its journal line and its export
 * marks need: id, rowid, agent, text and state, in `TARGET_COLUMNS` order (an origin's rows have
 * its impact after them).
 */
type TargetRow = [id: string, rowid: number, agent: string, text: string, state: LearningState];
const TARGET_COLUMNS = 'l.id, l.rowid, l.agent, l.text, l.state';

/**
 * The learnings discovered in a run, or in any run of a chain (docs/rules.md#a-persons-decisions):
 * those whose proposal log entry with outcome `new` names that run. Not those only echoed or
 * rediscovered there: their discovery came from elsewhere, and rejecting a run's bad work must
 * not take along what other runs found independently. In the order they were discovered. One
 * query each, through the log's index by run (schema migration 9) and, for a chain, the runs'
 * index by chain; a discovery whose learning is gone (swept) names nothing. Each row carries what
 * a decision needs (`TARGET_COLUMNS`) and then what the window lists, so a reject by origin reads
 * its learnings once. Exported for the test that holds them to their indexes.
 */
export const ORIGIN_QUERIES = {
  run: `SELECT ${TARGET_COLUMNS}, l.impact FROM proposal_log p JOIN learnings l ON l.id = p.learning_id
        WHERE p.run = ? AND p.outcome = 'new' ORDER BY p.seq`,
  // CROSS JOIN keeps the runs first: left to itself the planner reads every discovery of the
  // whole log (its index by outcome) and looks each one's run up.
  chain: `SELECT ${TARGET_COLUMNS}, l.impact FROM runs r
          CROSS JOIN proposal_log p ON p.run = r.run AND p.outcome = 'new' JOIN learnings l ON l.id = p.learning_id
          WHERE r.chain = ? ORDER BY p.seq`,
} as const;

/** The learnings of one origin, as the window lists them before rejecting them. */
export function originLearnings(db: Db, origin: LearningOrigin): LearningRef[] {
  const rows = 'run' in origin ? stmt(db, ORIGIN_QUERIES.run).all(origin.run) : stmt(db, ORIGIN_QUERIES.chain).all(origin.chain);
  return (rows as (LearningRef & { rowid: number; agent: string })[]).map(({ id, text, state, impact }) => ({ id, text, state, impact }));
}

/**
 * A run or chain the ledger has no record of is refused, from the window as from the CLI:
 * rejecting "nothing" there would hide a typo or a swept origin.
 */
function refuseUnknownOrigin(db: Db, origin: LearningOrigin): void {
  const known =
    'run' in origin
      ? stmt(db, 'SELECT 1 FROM runs WHERE run = ?').get(origin.run)
      : stmt(db, 'SELECT 1 FROM chains WHERE chain = ? UNION ALL SELECT 1 FROM runs WHERE chain = ? LIMIT 1').get(origin.chain, origin.chain);
  if (!known) throw new ApiError('not_found', `no ${'run' in origin ? `run ${origin.run}` : `chain ${origin.chain}`} is recorded; nothing was changed`);
}

/**
 * The rows of `sql` as arrays (`rawStmt`): a target of 10,000 learnings read as objects took half
 * as long again as read as arrays.
 */
function targetRowsOf(db: Db, sql: string, param: string): TargetRow[] {
  return rawStmt(db, sql).all(param) as TargetRow[];
}

/** A target's learnings named by id (a JSON array), in the order named. */
const TARGET_BY_IDS = `SELECT ${TARGET_COLUMNS} FROM json_each(?) j JOIN learnings l ON l.id = j.value ORDER BY j.key`;
/** A target's learnings by rowid (a JSON array), in the order given. */
const TARGET_BY_ROWIDS = `SELECT ${TARGET_COLUMNS} FROM json_each(?) j JOIN learnings l ON l.rowid = j.value ORDER BY j.key`;

/**
 * The learnings a target names, each read once, in the target's order: named ids as given (each
 * once; `missing` lists those naming no learning), a filter's matches oldest first, an origin's
 * in the order they were discovered (it resolves now, and is journaled as those ids). A filter's
 * matches are read by rowid, as the learnings list found them, and an origin's come with its
 * query: looking them up again by id (its index, then the row) was about a tenth of a
 * 10,000-learning reject.
 */
function targetRows(db: Db, target: LearningTarget): { rows: TargetRow[]; missing: string[] } {
  if ('ids' in target) {
    const ids = [...new Set(target.ids)];
    const rows = targetRowsOf(db, TARGET_BY_IDS, JSON.stringify(ids));
    const found = new Set(rows.map((row) => row[0]));
    return { rows, missing: ids.filter((id) => !found.has(id)) };
  }
  if ('origin' in target) {
    const { origin } = target;
    refuseUnknownOrigin(db, origin);
    return { rows: 'run' in origin ? targetRowsOf(db, ORIGIN_QUERIES.run, origin.run) : targetRowsOf(db, ORIGIN_QUERIES.chain, origin.chain), missing: [] };
  }
  const rowids = JSON.stringify(matchingRowidsOf(db, target.filter));
  return { rows: targetRowsOf(db, TARGET_BY_ROWIDS, rowids), missing: [] };
}

function loadMany(db: Db, ids: string[]): Map<string, Learning> {
  const rows = stmt(db, `SELECT ${LEARNING_COLUMNS} FROM learnings WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids));
  return new Map(rows.map(toLearning).map((l) => [l.id, l]));
}

/** The fields a decision sets, in SQL, from the rule's table (`DECISION_RULES`). */
function decisionSets(kind: DecisionKind): string {
  const rule = DECISION_RULES[kind];
  return [
    `state = '${rule.to}'`,
    ...(rule.clearsLapse ? ['lapsed_at = NULL'] : []),
    'decided_by = @by, decided_at = @at, reason = @reason',
    `changed = ${NEXT_CHANGED}`,
  ].join(', ');
}

/** The learning's {@link DecisionSnapshot} as JSON, built in SQL from `SNAPSHOT_FIELDS`: what `snapshotOf` gives. */
const SNAPSHOT_JSON = `json_object(${SNAPSHOT_FIELDS.map((field) => `'${field}', l.${field}`).join(', ')})`;

/**
 * Rejects or keeps learnings, a person's decision: journaled (store/journal.ts) in the same
 * transaction, by the ids it changed, so that made again from the journal it changes the same.
 *
 * Why set-based. A person rejects ten thousand learnings at once from the window, and the toast
 * waits for it (issue 9: ≤ 300 ms with the export files). Decided one learning at a time, with
 * a row read, a history insert and a snapshot per learning, that took over a second. So the
 * history lines with their undo snapshots and the change of the learnings are each one statement,
 * built from the same `DECISION_RULES` and `SNAPSHOT_FIELDS` that `decide` and `snapshotOf` apply
 * to one learning (test/integration/bulkDecisions.store.test.ts holds the two to the same
 * outcome). History lines keep the order of the ids, as before. A decision is a transaction of
 * its own, never inside an ingest batch (learningWrites.ts), so it writes the ledger directly.
 *
 * The target's learnings are read once (`targetRows`), with what the journal line and the export
 * marks need (agent, text, state before), and which of them the decision applies to is decided
 * from that read; the two writes then reach the rows by rowid.
 *
 * Only agents whose active learnings changed are marked for export: rejecting a lapsed learning
 * changes nothing a run is given (docs/factory-format.md#files-the-desk-writes: the file is
 * re-written after every change to the agent's active learnings).
 */
export function decideLearnings(
  db: Db,
  kind: DecisionKind,
  target: LearningTarget,
  input: DecisionInput,
  replaying?: Replaying,
): DecisionResult {
  const by = input.by.trim();
  if (by === '') throw new Error('a decision needs the name of the person making it');
  const at = input.now.toISOString();
  const reason = input.reason?.trim() ? input.reason.trim() : null;
  const rule = DECISION_RULES[kind];
  return db.transaction((): DecisionResult => {
    const { rows, missing } = targetRows(db, target);
    const result: DecisionResult = { changed: [], unchanged: [], missing, agents: [] };
    const agents = new Set<string>();
    const journaled: JournaledLearning[] = [];
    const rowids: number[] = [];
    const historyKind = kind === 'reject' ? 'rejected' : 'kept';
    /**
     * Each changed learning's rowid with its state before, in the history's code. Paired, so the
     * insert reads each line's state from its own small array: taken by position from one array
     * of all of them (`@befores ->> j.key`), SQLite walked that array to the position for every
     * line, which made 10,000 lines cost as 50 million steps (233 of a 10,000 reject's 575 ms).
     */
    const lines: [rowid: number, before: number | null][] = [];
    /** The history's code of each state the decision applies to, encoded once per state rather than once per line. */
    const beforeCodes = new Map(rule.from.map((state) => [state, encodeHistory(db, { kind: historyKind, reason, state_before: state, state_after: rule.to }).state_before]));
    for (const [id, rowid, agent, text, before] of rows) {
      const beforeCode = beforeCodes.get(before);
      if (beforeCode === undefined) {
        result.unchanged.push(id);
        continue;
      }
      rowids.push(rowid);
      lines.push([rowid, beforeCode]);
      result.changed.push(id);
      journaled.push({ id, agent, text });
      if (isActive(before) || isActive(rule.to)) agents.add(agent);
    }
    const encoded = encodeHistory(db, { kind: historyKind, reason, state_before: null, state_after: rule.to });
    const params = { rowids: JSON.stringify(rowids), lines: JSON.stringify(lines), at, by, reason, kind: encoded.kind, why: encoded.reason, after: encoded.state_after };
    // The history lines first, while the rows still hold the fields their undo snapshots keep;
    // straight into the table, in the codes encodeHistory gives (learnings.ts).
    stmt(
      db,
      `INSERT INTO learning_changes (learning_rowid, at, kind, by, reason, state_before, state_after, undo)
       SELECT l.rowid, @at, @kind, @by, @why, j.value ->> 1, @after, ${SNAPSHOT_JSON}
       FROM json_each(@lines) j JOIN learnings l ON l.rowid = j.value ->> 0
       ORDER BY j.key`,
    ).run(params);
    stmt(db, `UPDATE learnings SET ${decisionSets(kind)} WHERE rowid IN (SELECT value FROM json_each(@rowids))`).run(params);
    result.agents = [...agents].sort();
    markExportPending(db, result.agents);
    if (journaled.length > 0) journalDecision(db, { what: kind, at, by, learnings: journaled, reason }, replaying);
    return result;
  }).immediate();
}

/** A decision's history line, as undo reads it. */
interface DecisionLine {
  kind: string;
  state_after: string;
  undo: string | null;
}

/** An undo's history line: the learning's id, then the line as encodeHistory encodes it (learnings.ts). */
type UndoneLine = [id: string, kind: number, reason: string | null, before: number | null, after: number];

/** The decision history lines (rejected, kept, undone) of each learning, newest first: one query for all of them. */
function decisionHistories(db: Db, ids: readonly string[]): Map<string, DecisionLine[]> {
  const rows = stmt(
    db,
    `SELECT learning_id, kind, state_after, undo FROM learning_history
     WHERE learning_id IN (SELECT value FROM json_each(?)) AND kind IN ('rejected', 'kept', 'undone') ORDER BY learning_id, seq DESC`,
  ).all(JSON.stringify(ids)) as (DecisionLine & { learning_id: string })[];
  const byLearning = new Map<string, DecisionLine[]>();
  for (const row of rows) {
    let lines = byLearning.get(row.learning_id);
    if (!lines) byLearning.set(row.learning_id, (lines = []));
    lines.push(row);
  }
  return byLearning;
}

/**
 * Undoes the last rejection or keep of each learning: it gets back exactly the fields that
 * decision overwrote. Undos stack: a second undo reaches the decision before the one undone.
 * A decision is undone only while the learning is still in the state it left it in. Journaled as
 * `decideLearnings` is. Undoing a bulk decision reads the decision histories of all its learnings
 * in one query and writes its history lines in one statement, as the decision did.
 */
export function undoDecisions(db: Db, ids: readonly string[], input: DecisionInput, replaying?: Replaying): DecisionResult {
  const by = input.by.trim();
  if (by === '') throw new Error('an undo needs the name of the person making it');
  const at = input.now.toISOString();
  return db.transaction((): DecisionResult => inLearningBatch(db, () => {
    const result: DecisionResult = { changed: [], unchanged: [], missing: [], agents: [] };
    const agents = new Set<string>();
    const journaled: JournaledLearning[] = [];
    const unique = [...new Set(ids)];
    const found = loadMany(db, unique);
    const decisions = decisionHistories(db, unique);
    const lines: UndoneLine[] = [];
    for (const id of unique) {
      const current = found.get(id);
      if (!current) {
        result.missing.push(id);
        continue;
      }
      let pending = 0;
      let target: DecisionLine | undefined;
      for (const row of decisions.get(id) ?? []) {
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
      saveLearning(db, after, current);
      const line = encodeHistory(db, { kind: 'undone', reason: `undid the ${target.kind === 'rejected' ? 'rejection' : 'keep'}`, state_before: current.state, state_after: after.state });
      lines.push([id, line.kind, line.reason, line.state_before, line.state_after]);
      result.changed.push(id);
      journaled.push({ id, agent: current.agent, text: current.text });
      agents.add(current.agent);
    }
    if (lines.length > 0) {
      stmt(
        db,
        `INSERT INTO learning_changes (learning_rowid, at, kind, by, reason, state_before, state_after)
         SELECT l.rowid, @at, j.value ->> 1, @by, j.value ->> 2, j.value ->> 3, j.value ->> 4
         FROM json_each(@lines) j JOIN learnings l ON l.id = j.value ->> 0
         ORDER BY j.key`,
      ).run({ at, by, lines: JSON.stringify(lines) });
    }
    result.agents = [...agents].sort();
    markExportPending(db, result.agents);
    if (journaled.length > 0) journalDecision(db, { what: 'undo', at, by, learnings: journaled }, replaying);
    return result;
  })).immediate();
}
