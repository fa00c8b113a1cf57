/**
 * Prepared statements, compiled once per open ledger and reused.
 *
 * Compiling SQL is a large share of what a single-row statement costs, and ingest runs a handful
 * of them for every event line: compiling them afresh each time made ingest several times slower
 * than it needs to be. Statements are keyed by their SQL text, so a caller writes the SQL where
 * it is used (readable, greppable) and simply asks for it through {@link stmt}. SQL made from
 * constants (a column list) is made once, into a module constant, not at every call: a string
 * built anew is a new string, which finding in the cache copies and hashes whole again, and on
 * the paths ingest takes for every line that was a measurable share of its time.
 *
 * The cache hangs off the `Db` object in a WeakMap, so it lives exactly as long as the
 * connection and never outlives a closed one (a closed ledger's statements are unusable anyway,
 * and the next `openDb` gives a new object with a fresh cache).
 *
 * Only for SQL whose text is fixed or takes one of a few forms (no interpolated values: a dynamic
 * `WHERE` comes from `where.ts`, which names columns and binds the values), and never for a
 * statement the caller switches into `pluck`/`raw`/`expand` mode: those modes stick to the
 * statement and would leak into every other user of it (raw rows come from {@link rawStmt}). A
 * statement being iterated is busy, so do not reuse one while an `iterate()` over it is still
 * open.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

type AnyStatement = Statement<unknown[], unknown>;

const caches = new WeakMap<Db, Map<string, AnyStatement>>();
const rawCaches = new WeakMap<Db, Map<string, AnyStatement>>();

/**
 * The prepared statement for `sql` on `db`, compiled at the first use and reused after. The types
 * of its parameters and rows may be given as with `db.prepare` (unchecked, as there).
 */
export function stmt<P extends unknown[] = unknown[], R = unknown>(db: Db, sql: string): Statement<P, R> {
  return cached(caches, db, sql, false) as Statement<P, R>;
}

/**
 * The same statement in raw mode (rows as arrays of column values), from a cache of its own, so
 * that the mode never reaches the callers of {@link stmt}.
 */
export function rawStmt<P extends unknown[] = unknown[]>(db: Db, sql: string): Statement<P, unknown[]> {
  return cached(rawCaches, db, sql, true) as Statement<P, unknown[]>;
}

function cached(all: WeakMap<Db, Map<string, AnyStatement>>, db: Db, sql: string, raw: boolean): AnyStatement {
  let cache = all.get(db);
  if (cache === undefined) {
    cache = new Map();
    all.set(db, cache);
  }
  let statement = cache.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    if (raw) statement.raw();
    cache.set(sql, statement);
  }
  return statement;
}
