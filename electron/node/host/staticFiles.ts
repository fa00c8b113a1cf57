/**
 * The files of the renderer build, for both hosts (the Electron shell's `app://desk/` scheme and
 * the browser host): which file a URL path names, and the type it is served as. Both hosts send
 * `X-Content-Type-Options: nosniff`, so the type given here is the one the browser acts on: a
 * script must come as a script type or the page does not start, and anything unknown comes as
 * `application/octet-stream`, which a browser neither runs nor renders.
 */
import fs from 'node:fs';
import path from 'node:path';
import mime from 'mime-types';

/** What a file whose type is unknown is served as: bytes to download, never a page or a script. */
export const UNKNOWN_TYPE = 'application/octet-stream';

/**
 * The `Content-Type` of a file of the build, by its extension (case-insensitive), with
 * `charset=utf-8` on text types. From `mime-types` (the IANA and Apache registries of `mime-db`),
 * so a new kind of asset the build emits gets its registered type without a list kept here.
 */
export function mimeType(file: string): string {
  return mime.contentType(path.extname(file)) || UNKNOWN_TYPE;
}

function statFile(file: string): fs.Stats | undefined {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() ? stat : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Maps a URL path to a file of the renderer build, never outside it: `..`, encoded separators,
 * NUL and symbolic links leading out are refused. A directory gives its index.html; a path
 * without an extension that names no file is a view of the app and gives the page. `'bad'` for
 * an unreadable path, `null` when there is no such file.
 */
export function resolveStatic(root: string, pathname: string): { file: string; stat: fs.Stats } | 'bad' | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return 'bad';
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return 'bad';
  const base = path.resolve(root);
  let file = path.resolve(base, `.${path.posix.normalize(`/${decoded}`)}`);
  if (file !== base && !file.startsWith(base + path.sep)) return null;
  let stat = statFile(file);
  if (!stat) {
    const index = path.join(file, 'index.html');
    stat = statFile(index);
    if (stat) file = index;
  }
  if (!stat && path.posix.extname(decoded) === '') {
    file = path.join(base, 'index.html');
    stat = statFile(file);
  }
  if (!stat) return null;
  let real: string;
  let realRoot: string;
  try {
    real = fs.realpathSync(file);
    realRoot = fs.realpathSync(base);
  } catch {
    return null;
  }
  if (!real.startsWith(realRoot + path.sep)) return null;
  return { file: real, stat };
}
