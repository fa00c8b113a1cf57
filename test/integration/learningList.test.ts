/**
 * The in-memory learnings list must answer exactly what plain SQL over the ledger answers
 * (docs/window.md#learnings): the same rows in the same order for every filter, sort, direction
 * and search, the same total and the same state counts, also after other connections wrote,
 * a person decided, and a sweep deleted.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEARNING_SORTS, type LearningFilter } from '../../shared/api.js';
import type { Impact, LearningState } from '../../shared/domain.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { openDb, type Db } from '../../electron/node/store/db.js';
import { decideLearnings } from '../../electron/node/store/decisions.js';
import { applyProposal } from '../../electron/node/store/proposals.js';
import { queryLearnings } from '../../electron/node/store/learningQueries.js';
import { ftsQuery, warmList } from '../../electron/node/store/learningList.js';
import { syncMatchIndex } from '../../electron/node/store/matching.js';
import { NEXT_CHANGED } from '../../electron/node/store/learningRows.js';
import { freshLedgerEachTest } from '../support/ledger.js';

let factory: string;
let db: Db;
freshLedgerEachTest('layover-list-', (ledger) => ({ factory, db } = ledger));

const WORDS = ['cache', 'docker', 'digest', 'branch', 'release', 'staging', 'token', 'schema', 'retry', 'mirror', 'lockfile', 'runner'];
const STATES: LearningState[] = ['provisional', 'confirmed', 'lapsed', 'rejected'];
const IMPACTS: Impact[] = ['low', 'medium', 'high'];

/** The plain SQL the list replaces: what the window must be shown. */
function bySql(filter: LearningFilter, sort: (typeof LEARNING_SORTS)[number], dir: 'asc' | 'desc') {
  const rank: Record<string, string> = {
    impact: "CASE impact WHEN 'high' THEN 3 WHEN 'medium' THEN 2 ELSE 1 END",
    state: "CASE state WHEN 'provisional' THEN 1 WHEN 'confirmed' THEN 2 WHEN 'lapsed' THEN 3 ELSE 4 END",
  };
  const where = (withStates: boolean) => {
    const parts: string[] = [];
    const params: Record<string, unknown> = {};
    const add = (sql: string, name: string, value: unknown): void => {
      parts.push(sql);
      params[name] = value;
    };
    if (filter.agent) add('agent = @agent', 'agent', filter.agent);
    if (withStates && filter.states?.length) add('state IN (SELECT value FROM json_each(@states))', 'states', JSON.stringify(filter.states));
    if (filter.impacts?.length) add('impact IN (SELECT value FROM json_each(@impacts))', 'impacts', JSON.stringify(filter.impacts));
    const query = filter.search === undefined ? null : ftsQuery(filter.search);
    if (query !== null) add('rowid IN (SELECT rowid FROM learnings_fts WHERE learnings_fts MATCH @search)', 'search', query);
    return { sql: parts.length ? `WHERE ${parts.join(' AND ')}` : '', params };
  };
  const d = dir.toUpperCase();
  const order = `${rank[sort] ?? sort} ${d}, last_at ${d}, rowid ${d}`;
  const w = where(true);
  const ids = (db.prepare(`SELECT id FROM learnings ${w.sql} ORDER BY ${order} LIMIT 20 OFFSET 3`).all(w.params) as { id: string }[]).map((r) => r.id);
  const total = (db.prepare(`SELECT count(*) AS n FROM learnings ${w.sql}`).get(w.params) as { n: number }).n;
  const o = where(false);
  const counts = { provisional: 0, confirmed: 0, lapsed: 0, rejected: 0 };
  for (const row of db.prepare(`SELECT state, count(*) AS n FROM learnings ${o.sql} GROUP BY state`).all(o.params) as { state: LearningState; n: number }[]) {
    counts[row.state] = row.n;
  }
  return { ids, total, counts };
}

describe('the learnings list', () => {
  it('answers every filter, sort, direction and search exactly as plain SQL does, through writes, decisions and deletions', () => {
    const next = seededRandom(9);
    const pick = <T,>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
    const text = () => Array.from({ length: 3 + Math.floor(next() * 5) }, () => pick(WORDS)).join(' ') + ` n${Math.floor(next() * 50)}x`;
    const other = openDb(path.join(factory, '.layover', 'ledger.sqlite'));
    let compared = 0;
    for (let round = 0; round < 6; round++) {
      // Writes from two connections, as the ingest thread and the CLI make them.
      for (const writer of [db, other]) {
        writer.transaction(() => {
          syncMatchIndex(writer);
          for (let i = 0; i < 40; i++) {
            const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 1e9)).toISOString();
            applyProposal(writer, { agent: pick(['builder', 'scout', 'reviewer']), text: text(), impact: pick(IMPACTS), at }, DEFAULT_SETTINGS.learnings);
          }
        })();
      }
      const ids = (db.prepare('SELECT id FROM learnings ORDER BY random() LIMIT 15').all() as { id: string }[]).map((r) => r.id);
      decideLearnings(pick([db, other]), pick(['reject', 'keep'] as const), { ids }, { by: 'op', now: new Date() });
      // A write by hand stamps the row as every write of the Desk's does (NEXT_CHANGED).
      other
        .prepare(
          `UPDATE learnings SET state = 'lapsed', changed = ${NEXT_CHANGED}
           WHERE rowid IN (SELECT rowid FROM learnings WHERE state = 'provisional' ORDER BY random() LIMIT 5)`,
        )
        .run();
      if (round % 2 === 1) other.prepare('DELETE FROM learnings WHERE rowid IN (SELECT rowid FROM learnings ORDER BY random() LIMIT 5)').run();

      const filters: LearningFilter[] = [
        {},
        { agent: 'scout' },
        { agent: 'nobody' },
        { states: [pick(STATES)] },
        { states: [pick(STATES), pick(STATES)], impacts: [pick(IMPACTS)] },
        { search: pick(WORDS) },
        { search: `${pick(WORDS)} ${pick(WORDS).slice(0, 3)}`, agent: 'builder' },
        { search: '  ' },
      ];
      for (const filter of filters) {
        for (const sort of LEARNING_SORTS) {
          for (const dir of ['asc', 'desc'] as const) {
            const page = queryLearnings(db, { filter, sort, dir, offset: 3, limit: 20 });
            const expected = bySql(filter, sort, dir);
            expect({ filter, sort, dir, ids: page.rows.map((l) => l.id), total: page.total, counts: page.counts }).toEqual({ filter, sort, dir, ...expected });
            compared++;
          }
        }
      }
    }
    other.close();
    expect(compared).toBe(6 * 8 * LEARNING_SORTS.length * 2);
  });

  it('a list read in steps while another connection writes and deletes between them answers as plain SQL does, searches included', async () => {
    const next = seededRandom(4);
    const other = openDb(path.join(factory, '.layover', 'ledger.sqlite'));
    const propose = (writer: Db, n: number) =>
      writer.transaction(() => {
        syncMatchIndex(writer);
        for (let i = 0; i < n; i++) {
          const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 1e9)).toISOString();
          const text = `${WORDS[Math.floor(next() * WORDS.length)]} ${WORDS[Math.floor(next() * WORDS.length)]} n${i}x${Math.floor(next() * 1e6)}y`;
          applyProposal(writer, { agent: 'builder', text, impact: IMPACTS[i % 3]!, at }, DEFAULT_SETTINGS.learnings);
        }
      })();
    propose(db, 4500);
    let pauses = 0;
    await warmList(db, async () => {
      pauses++;
      propose(other, 30);
      const ids = (other.prepare('SELECT id FROM learnings ORDER BY random() LIMIT 20').all() as { id: string }[]).map((r) => r.id);
      decideLearnings(other, 'reject', { ids }, { by: 'op', now: new Date() });
      other.prepare('DELETE FROM learnings WHERE rowid IN (SELECT rowid FROM learnings ORDER BY random() LIMIT 3)').run();
    });
    other.close();
    expect(pauses).toBeGreaterThan(1);
    for (const filter of [{}, { search: 'cache' }, { search: 'dock' }, { search: 'token n1' }, { search: 'n2' }] as LearningFilter[]) {
      for (const sort of LEARNING_SORTS) {
        const page = queryLearnings(db, { filter, sort, dir: 'desc', offset: 3, limit: 20 });
        expect({ filter, ids: page.rows.map((l) => l.id), total: page.total, counts: page.counts }).toEqual({ filter, ...bySql(filter, sort, 'desc') });
      }
    }
  });
});
