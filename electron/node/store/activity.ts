/**
 * What happened, for the operator's activity views: the proposal log (echoes and refusals
 * included), the refused lines of the events files, and per-day counts for the charts.
 */
import { ProposalLogEntry, RefusedLine, type ProposalOutcome } from '../../../shared/domain.js';
import type { DayStats, RefusalGroup } from '../../../shared/api.js';
import { ruleOfReason } from '../../rules/screen.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { columnList, rowReader } from './rowCheck.js';
import { utcDay } from '../../rules/time.js';
import { LAPSED_KIND } from './schema.js';

export interface ProposalQuery {
  outcome?: ProposalOutcome | undefined;
  agent?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/** A proposal log row, read by the columns of its record's fields and checked by its schema (rowCheck.ts). */
const toProposal = rowReader(ProposalLogEntry, (row) => `proposal of ${String(row.agent)} at ${String(row.at)}`);

/** A refused line's row, read and checked the same way. */
const toRefusedLine = rowReader(RefusedLine, (row) => `refused line ${String(row.file)}:${String(row.line)}`);

/**
 * The proposal log, newest first, where the same refused proposal is one entry: an agent that
 * keeps proposing a text a person rejected (or one the screen refuses) would otherwise fill the
 * page with copies of one line and hide everything else. Refused proposals with the same agent,
 * text, reason and learning are listed once, at their latest time and run, with `count` saying
 * how many there were; every other proposal is an entry of its own (`count` 1). Grouped in SQL
 * through the refused rows' own index (schema: proposal_log_refused), so paging by `offset`
 * and `total` count the entries as listed.
 */
export function listProposals(db: Db, query: ProposalQuery = {}): { total: number; rows: ProposalLogEntry[] } {
  const params = { agent: query.agent ?? '', outcome: query.outcome ?? '', limit: query.limit ?? 100, offset: query.offset ?? 0 };
  const byAgent = query.agent ? ' AND agent = @agent' : '';
  const refusedOnly = query.outcome === 'refused';
  const othersWhere = query.outcome ? 'outcome = @outcome' : `outcome <> 'refused'`;
  const groups = `SELECT max(seq) AS last, count(*) AS count FROM proposal_log INDEXED BY proposal_log_refused
    WHERE outcome = 'refused'${byAgent}
    GROUP BY agent, text, reason, learning_id`;
  // Counted in the table, not the view: the view's join for texts would run for every row counted.
  // All but the refused are all minus the refused: SQLite counts a whole table (or an agent's
  // index range) without visiting rows, but `outcome <> 'refused'` visits every one (50 ms of
  // CPU at a million entries, against 2 ms).
  const count = (sql: string) => (stmt(db, sql).get(params) as { n: number }).n;
  const refusedGroups = query.outcome && !refusedOnly ? 0 : count(`SELECT count(*) AS n FROM (${groups})`);
  const allButRefused = () =>
    count(`SELECT count(*) AS n FROM proposal_log${query.agent ? ' WHERE agent = @agent' : ''}`) -
    count(`SELECT count(*) AS n FROM proposal_log INDEXED BY proposal_log_refused WHERE outcome = 'refused'${byAgent}`);
  const others = refusedOnly ? 0 : query.outcome ? count(`SELECT count(*) AS n FROM proposal_log WHERE ${othersWhere}${byAgent}`) : allButRefused();
  const refusedSelect = `SELECT p.seq, p.at, p.agent, p.run, p.text, p.impact, p.outcome, p.learning_id, p.reason, g.count
    FROM (${groups}) g JOIN proposal_log p ON p.seq = g.last`;
  const othersSelect = `SELECT seq, at, agent, run, text, impact, outcome, learning_id, reason, 1 AS count
    FROM proposals WHERE ${othersWhere}${byAgent}`;
  const select = refusedOnly ? refusedSelect : query.outcome ? othersSelect : `${othersSelect} UNION ALL ${refusedSelect}`;
  // The reader's schema leaves the `seq` the page is ordered by out of each entry.
  const rows = stmt(db, `${select} ORDER BY seq DESC LIMIT @limit OFFSET @offset`).all(params).map(toProposal);
  return { total: refusedGroups + others, rows };
}

/**
 * Refused proposals grouped by the rule that refused them, most refusals first: the screen's rule
 * named in the reason, or `rejected_learning` for a proposal refused because it matches a
 * learning a person rejected. Grouped in SQL by the reason text first (one row per distinct
 * reason, few), then by rule here, where the reason format is known.
 */
export function refusalsByRule(db: Db): RefusalGroup[] {
  const rows = stmt(db, `SELECT reason, count(*) AS n, max(at) AS last_at FROM proposals WHERE outcome = 'refused' GROUP BY reason`)
    .all() as Array<{ reason: string | null; n: number; last_at: string }>;
  const groups = new Map<string, RefusalGroup>();
  for (const row of rows) {
    const rule = ruleOfReason(row.reason ?? '') ?? REJECTED_LEARNING;
    const group = groups.get(rule);
    if (!group) groups.set(rule, { rule, count: row.n, last_at: row.last_at });
    else {
      group.count += row.n;
      if (row.last_at > group.last_at) group.last_at = row.last_at;
    }
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
}

/** The group of proposals refused for matching a rejected learning (docs/rules.md#learnings), not by the screen. */
export const REJECTED_LEARNING = 'rejected_learning';

/** Refused lines of the events files, newest first. */
export function listRefused(
  db: Db,
  query: { offset?: number | undefined; limit?: number | undefined } = {},
): { total: number; rows: RefusedLine[] } {
  const total = (stmt(db, 'SELECT count(*) AS n FROM refused_lines').get() as { n: number }).n;
  const rows = stmt(
    db,
    `SELECT ${columnList(RefusedLine.keyof().options)} FROM refused_lines ORDER BY seq DESC LIMIT ? OFFSET ?`,
  ).all(query.limit ?? 100, query.offset ?? 0)
    .map(toRefusedLine);
  return { total, rows };
}

/**
 * Per UTC day, the last `days` days up to and including today (oldest first): proposals,
 * learnings that lapsed (from their history), and help requests filed.
 */
export function dailyStats(db: Db, days: number, now: Date = new Date()): DayStats[] {
  const count = Math.max(1, Math.min(366, Math.floor(days)));
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const list: string[] = [];
  for (let i = count - 1; i >= 0; i--) list.push(utcDay(new Date(today - i * 86_400_000)));
  const first = list[0]!;
  const byDay = new Map<string, DayStats>(list.map((day) => [day, { day, proposals: 0, lapses: 0, help_requests: 0 }]));
  const tally = (sql: string, key: 'proposals' | 'lapses' | 'help_requests') => {
    for (const row of stmt(db, sql).all(first) as { day: string; n: number }[]) {
      const entry = byDay.get(row.day);
      if (entry) entry[key] = row.n;
    }
  };
  // Straight from the tables behind the views (schema migration 8), through their indexes: the
  // log's by time (a time on or after a day sorts after the day's name), the lapses' by day.
  tally('SELECT substr(at, 1, 10) AS day, count(*) AS n FROM proposal_log WHERE at >= ? GROUP BY 1', 'proposals');
  tally(`SELECT substr(at, 1, 10) AS day, count(*) AS n FROM learning_changes WHERE kind = ${LAPSED_KIND} AND substr(at, 1, 10) >= ? GROUP BY 1`, 'lapses');
  tally('SELECT day, count(*) AS n FROM help_requests WHERE day >= ? GROUP BY day', 'help_requests');
  return list.map((day) => byDay.get(day)!);
}

/**
 * Time of the newest event the ledger holds, so the status bar can say how fresh the ledger is
 * right after a start, before the watcher has read anything new.
 */
export function lastEventAt(db: Db): string | null {
  const row = stmt(
    db,
    `SELECT max(at) AS at FROM (
       SELECT max(started_at) AS at FROM runs UNION ALL SELECT max(finished_at) FROM runs
       UNION ALL SELECT max(at) FROM proposal_log UNION ALL SELECT max(at) FROM help_requests)`,
  ).get() as { at: string | null };
  return row.at;
}
