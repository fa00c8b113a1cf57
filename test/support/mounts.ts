/**
 * Real misbehaving disks for the fault tests: a tmpfs of a few hundred KiB that fills up, and a
 * read-only view of a folder (a read-only bind mount: as root, permissions do not stop writes,
 * a read-only file system does). Both need root (mount(8)); without it they fail saying so.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Mounted {
  dir: string;
  /** Unmounts and removes the mount point. */
  release(): void;
}

function mount(args: string[], dir: string): void {
  try {
    execFileSync('mount', [...args, dir], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`these fault tests need mount(8) as root (they use a real tmpfs and read-only mount): ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function mountPoint(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function releaser(dir: string): () => void {
  return () => {
    execFileSync('umount', [dir], { stdio: 'pipe' });
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

/** An empty file system of `bytes` that can fill up. */
export function smallDisk(bytes: number): Mounted {
  const dir = mountPoint('layover-full-');
  mount(['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs'], dir);
  return { dir, release: releaser(dir) };
}

/** `source` seen through a read-only mount. */
export function readOnlyView(source: string): Mounted {
  const dir = mountPoint('layover-ro-');
  mount(['--bind', source], dir);
  try {
    mount(['-o', 'remount,bind,ro'], dir);
  } catch (error) {
    releaser(dir)();
    throw error;
  }
  return { dir, release: releaser(dir) };
}
