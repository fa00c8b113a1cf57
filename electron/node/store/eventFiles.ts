/**
 * How far each events file has been read, and the seal on what was read (docs/factory-format.md#reading-events).
 *
 * A day file the Desk has read is only ever appended to by the factory. If it is replaced or cut
 * (an editor saved it, a tool rewrote it, a disk restore put back an older one), reading on from
 * the stored position would silently skip or misread lines: ten new lines in a file read to line
 * 100 would never be seen, 150 would be read from the middle. So with its position the ledger
 * keeps a seal of what was read: a hash of the first and of the last few KiB before the position.
 * Before reading on, the Desk checks the file is at least that long and still carries the seal;
 * a file that does not is refused as a whole, visibly, until the operator has it read again from
 * the start, when lines already applied are recognised and not applied twice.
 */
import { createHash } from 'node:crypto';
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** How many bytes at each end of what was read the seal covers. */
export const SEAL_BYTES = 4096;

export interface StoredPosition {
  offset: number;
  lines: number;
  /** The seal of bytes [0, offset), or null for a row from before seals (trusted, sealed at the next batch). */
  seal: string | null;
  /** Why the file is refused, or null. */
  refused: string | null;
  /**
   * Whether the file is being read again from the start, until the read reaches its end: lines
   * the ledger already holds are recognised then, and not applied twice.
   */
  rereading: boolean;
}

export function storedPosition(db: Db, name: string): StoredPosition {
  const row = stmt(db, 'SELECT offset, lines, seal, refused, rereading FROM event_files WHERE name = ?').get(name) as
    | { offset: number; lines: number; seal: string | null; refused: string | null; rereading: number }
    | undefined;
  if (!row) return { offset: 0, lines: 0, seal: null, refused: null, rereading: false };
  return { ...row, rereading: row.rereading === 1 };
}

/** The seal of what was read: the first and the last {@link SEAL_BYTES} before `offset`. */
export function sealOf(head: Uint8Array, tail: Uint8Array): string {
  return createHash('sha256').update(head).update(new Uint8Array([0])).update(tail).digest('base64url');
}

/** Refuses a file as a whole until it is read again from the start. */
export function refuseFile(db: Db, name: string, reason: string): void {
  stmt(db, 'UPDATE event_files SET refused = ? WHERE name = ?').run(reason, name);
}

/** The files refused as a whole, with why. */
export function refusedFiles(db: Db): { file: string; reason: string }[] {
  return (stmt(db, 'SELECT name, refused FROM event_files WHERE refused IS NOT NULL ORDER BY name').all() as { name: string; refused: string }[]).map(
    (row) => ({ file: `events/${row.name}`, reason: row.refused }),
  );
}

/**
 * Has `name` read again from its first line (the operator's choice, after a refusal or at will):
 * its position goes back to the start and the lines it holds that the ledger already has are
 * recognised by ingest and not applied twice. Returns false when the ledger never read the file.
 */
export function rereadFile(db: Db, name: string): boolean {
  return stmt(db, 'UPDATE event_files SET offset = 0, lines = 0, seal = NULL, refused = NULL, rereading = 1 WHERE name = ?').run(name).changes === 1;
}
