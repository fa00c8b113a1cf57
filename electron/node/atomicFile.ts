/**
 * Replacing a file so that a reader, a crash or a full disk never leaves half of it: every file the
 * Desk replaces (chain files, learnings files, safety copies of the ledger, a restored ledger, the
 * per-user state) goes through here.
 *
 * The content goes to a temporary file in the target's folder (a rename across folders could
 * cross file systems and stop being atomic), is flushed to disk, then renamed over the target. A
 * reader sees the old file or the new one. Where the ledger records that a file was written
 * (outbox rows, export marks) or the file is the only copy of something (a safety copy), the
 * folder is flushed too: until it is, a power cut can undo the rename while the ledger already
 * says the file is there.
 *
 * Not the npm package write-file-atomic (7.0.1, the last for Node 20, and 8.0.0 alike): its sync form makes one `writeSync` and ignores a short write, so on a full disk it renamed a truncated file over the good one without an error (measured on a 64 KiB tmpfs); it also flushes no folder and names its temporary files without the writer's pid, which `removeStaleTemps` needs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * How temporary files are named: `.<name>.<pid>.<12 hex>.tmp` beside the target (hidden, so a
 * listing of `chains/` or `learnings/` does not show them), with the writer's pid so that
 * {@link removeStaleTemps} can tell a dead writer's leftover from a live writer's file. SQLite
 * may leave its own side files next to a temporary ledger copy, hence the optional suffix.
 */
const TEMP_FILE = /^\..+\.(\d+)\.[0-9a-f]{12}\.tmp(?:-journal|-wal|-shm)?$/;

/** A new temporary name for a file that will replace `file` (same folder). */
export function tempFileFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files of atomic writes that a killed process left in `dir` (a kill
 * between the write and the rename). Those of a process still running are left alone: it may be
 * about to rename them. Returns how many it removed.
 */
export function removeStaleTemps(dir: string): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0; // not a folder (yet): the write that follows says what is wrong
  }
  let removed = 0;
  for (const name of names) {
    const match = TEMP_FILE.exec(name);
    if (!match || alive(Number(match[1]))) continue;
    fs.rmSync(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

/**
 * Flushes a folder's entries (a rename or a new file in it) to disk. Windows cannot open a folder
 * for this and NTFS journals the rename itself, so there it does nothing.
 */
export function fsyncFolder(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `error`, naming `file` when it names no path itself: a write or flush fails on a descriptor,
 * and without this the one-line fault message (faults.ts) would name some other file (the ledger).
 */
export function naming(error: unknown, file: string): unknown {
  const fault = error as NodeJS.ErrnoException | null;
  if (fault instanceof Error && typeof fault.code === 'string' && fault.path === undefined) fault.path = file;
  return error;
}

export interface ReplaceOptions {
  /** Also flush the folder after the rename: the ledger or the operator counts on the file being there. */
  durable?: boolean;
}

/**
 * Puts the finished temporary file `temp` (same folder) in place of `file`: flushes its content,
 * renames it, and with `durable` flushes the folder. On failure `temp` is removed and `file` is
 * as it was.
 */
export function replaceWith(temp: string, file: string, options: ReplaceOptions = {}): void {
  try {
    const fd = fs.openSync(temp, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw naming(error, file);
  }
  if (options.durable) {
    try {
      fsyncFolder(path.dirname(file));
    } catch (error) {
      throw naming(error, path.dirname(file));
    }
  }
}

/**
 * Writes `content` to `file` atomically (creating its folder): a temporary file, flushed, then
 * renamed over `file`. A write that fails midway (a full disk) throws and leaves `file` as it was.
 */
export function writeFileAtomic(file: string, content: string | Uint8Array, options: ReplaceOptions = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = tempFileFor(file);
  try {
    // writeFileSync loops until every byte is written: a short write on a full disk becomes ENOSPC.
    fs.writeFileSync(temp, content, { mode: 0o644 });
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw naming(error, file);
  }
  replaceWith(temp, file, options);
}
