/**
 * Files the Desk owes the factory after a commit.
 *
 * A reply is committed in SQLite together with an outbox row holding its chain file; the file is
 * written from the row afterwards, and the row deleted only once the file is on disk. A crash
 * between the commit and the write therefore leaves the row, and the next start (every process
 * that opens the ledger to write calls `flushOutbox`) writes the file then. Writing twice is
 * harmless: the content is fixed at commit time and every write is atomic.
 */
import path from 'node:path';
import { removeStaleTemps, writeFileAtomic } from './atomicFile.js';
import { factoryPaths } from './factory.js';
import type { Db } from './store/db.js';
import { stmt } from './store/statements.js';

interface OutboxRow {
  seq: number;
  path: string;
  content: string;
}

/** Where an outbox path (relative, `/`-separated, inside the factory) lands on disk. */
function target(factory: string, relative: string): string {
  const parts = relative.split('/');
  if (relative === '' || path.isAbsolute(relative) || parts.some((p) => p === '' || p === '.' || p === '..')) {
    throw new Error(`outbox path ${JSON.stringify(relative)} is not a path inside the factory`);
  }
  return path.join(path.resolve(factory), ...parts);
}

/**
 * Writes every pending outbox file, oldest first, deleting each row once its file is on disk.
 * Returns how many were written. Stops at the first write that fails and throws, leaving that
 * row and the ones after it for the next flush.
 */
export function flushOutbox(db: Db, factory: string): number {
  // A kill mid-write leaves a temporary file beside its target; the write itself is redone here.
  const paths = factoryPaths(factory);
  for (const dir of [paths.chains, paths.learnings]) removeStaleTemps(dir);
  const rows = stmt(db, 'SELECT seq, path, content FROM outbox ORDER BY seq').all() as OutboxRow[];
  const remove = stmt(db, 'DELETE FROM outbox WHERE seq = ?');
  let written = 0;
  for (const row of rows) {
    // Durable: the row is deleted next, and a rename a power cut undid would lose the chain file.
    writeFileAtomic(target(factory, row.path), row.content, { durable: true });
    remove.run(row.seq);
    written++;
  }
  return written;
}
