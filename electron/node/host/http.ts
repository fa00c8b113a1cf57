/**
 * The browser host: the renderer build and the Desk's API over HTTP on 127.0.0.1, for machines
 * without the Electron runtime (and for anyone who prefers a browser tab).
 *
 * Anything on the machine can reach a loopback port, and any web page the operator visits can
 * make the browser send requests to it. So, in this order, every request must:
 * 1. name this server in `Host` (`127.0.0.1:PORT` or `localhost:PORT`), else 403 — a page on a
 *    hostile domain that re-binds its DNS name to 127.0.0.1 sends its own name here;
 * 2. carry no `Origin`, or this server's own, else 403 — cross-site requests (CSRF) are refused;
 * 3. carry the per-start token, else 401 — the page itself included. The token comes from the
 *    URL printed at start (`?token=`), which sets an HttpOnly, SameSite=Strict cookie and
 *    redirects to the clean URL, so the page's assets, `fetch` and `EventSource` carry it;
 *    scripts may send it as `X-Layover-Token` instead. Compared in constant time.
 *
 * Routes (after the guards):
 * - `GET /` and the files of the renderer build, with a strict CSP;
 * - `POST /api/call/<channel>` with a JSON body → the call's envelope (`dispatch()` validates
 *   the input and the output against `shared/api.ts`);
 * - `GET /api/events` → server-sent events: `event: <push name>` + `data: <json>` per push.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { dispatch, parsePush, type Envelope, type Handlers } from '../../../shared/api.js';
import { CSP } from './csp.js';
import type { Subscribe } from './deskPort.js';

export { CSP };

export const TOKEN_HEADER = 'x-layover-token';
export const MAX_BODY_BYTES = 1024 * 1024;
export const HEARTBEAT_MS = 15_000;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export function mimeType(file: string): string {
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
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

export interface HostOptions {
  handlers: Handlers;
  subscribe: Subscribe;
  /** The renderer build to serve (`dist/renderer`). */
  rendererDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** A fixed token (tests); by default 32 random bytes, base64url. */
  token?: string;
  heartbeatMs?: number;
  maxBodyBytes?: number;
  /** Where the host reports what it refused to pass on (a push that does not fit). */
  log?: (message: string) => void;
}

export interface RunningHost {
  /** The URL to open, token included. */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Name of the cookie that carries the token (per port: cookies ignore ports). */
  cookieName: string;
  /** Stops listening, ends the event streams and drops open connections. */
  close(): Promise<void>;
}

export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

function digest(value: string): Buffer {
  return crypto.createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison (hashing first makes the lengths equal). */
/**
 * Where the token exchange sends the browser: the request's own path and query, normalised so
 * that it can only name this origin. A path such as `/.//evil.example/x` parses to
 * `//evil.example/x`, which a browser reads as another host (a protocol-relative URL): an open
 * redirect carrying the operator away from a page that just set the token cookie. Runs of
 * slashes are collapsed, and whatever does not resolve to the request's origin goes to `/`.
 */
export function sameOriginLocation(url: URL): string {
  const location = `${url.pathname.replace(/\/{2,}/g, '/')}${url.search}`;
  return new URL(location, url.origin).origin === url.origin ? location : '/';
}

export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  return crypto.timingSafeEqual(digest(expected), digest(given));
}

function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

const BASE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

function send(res: http.ServerResponse, status: number, body: string, type: string, extra: Record<string, string> = {}): void {
  const buffer = Buffer.from(body, 'utf8');
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': type, 'Content-Length': String(buffer.length), ...extra });
  res.end(buffer);
}

function sendText(res: http.ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  send(res, status, `${text}\n`, 'text/plain; charset=utf-8', extra);
}

function sendEnvelope(res: http.ServerResponse, status: number, envelope: Envelope, extra: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(envelope), 'application/json; charset=utf-8', extra);
}

function errorEnvelope(code: 'bad_input' | 'failure' | 'unavailable', message: string): Envelope {
  return { ok: false, error: { code, message } };
}

class BodyTooLarge extends Error {}

function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.pause();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts the browser host on 127.0.0.1. Resolves once it listens. */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? newToken();
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const log = options.log ?? (() => {});
  const rendererDir = path.resolve(options.rendererDir);
  const streams = new Set<http.ServerResponse>();
  let port = 0;
  let cookieName = 'layover_token';
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  function authorized(req: http.IncomingMessage, url: URL): { ok: boolean; fromQuery: boolean } {
    const header = req.headers[TOKEN_HEADER];
    if (typeof header === 'string' && tokenMatches(token, header)) return { ok: true, fromQuery: false };
    const cookie = parseCookies(req.headers.cookie).get(cookieName);
    if (tokenMatches(token, cookie)) return { ok: true, fromQuery: false };
    if (tokenMatches(token, url.searchParams.get('token'))) return { ok: true, fromQuery: true };
    return { ok: false, fromQuery: false };
  }

  function serveStatic(req: http.IncomingMessage, res: http.ServerResponse, pathname: string): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
    const found = resolveStatic(rendererDir, pathname);
    if (found === 'bad') {
      sendText(res, 400, 'bad path');
      return;
    }
    if (found === null) {
      if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
        sendText(res, 503, `the renderer is not built (no ${rendererDir}/index.html): run npm run build`);
      } else {
        sendText(res, 404, 'not found');
      }
      return;
    }
    const { file, stat } = found;
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': mimeType(file), 'Content-Length': String(stat.size) });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    fs.createReadStream(file).on('error', () => res.destroy()).pipe(res);
  }

  async function serveCall(req: http.IncomingMessage, res: http.ServerResponse, channel: string): Promise<void> {
    if (req.method !== 'POST') {
      sendEnvelope(res, 405, errorEnvelope('bad_input', 'use POST'), { Allow: 'POST' });
      return;
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') {
      sendEnvelope(res, 415, errorEnvelope('bad_input', 'the body must be application/json'));
      return;
    }
    let body: string;
    try {
      body = await readBody(req, maxBody);
    } catch (error) {
      if (error instanceof BodyTooLarge) {
        sendEnvelope(res, 413, errorEnvelope('bad_input', `the body is larger than ${maxBody} bytes`), { Connection: 'close' });
        return;
      }
      throw error;
    }
    let input: unknown;
    try {
      input = body.trim() === '' ? {} : JSON.parse(body);
    } catch (error) {
      sendEnvelope(res, 400, errorEnvelope('bad_input', `the body is not valid JSON: ${(error as Error).message}`));
      return;
    }
    let name: string;
    try {
      name = decodeURIComponent(channel);
    } catch {
      name = channel;
    }
    const envelope = await dispatch(options.handlers, name, input);
    sendEnvelope(res, 200, envelope);
  }

  function serveEvents(req: http.IncomingMessage, res: http.ServerResponse): void {
    if (req.method !== 'GET') {
      sendText(res, 405, 'method not allowed', { Allow: 'GET' });
      return;
    }
    res.writeHead(200, {
      ...BASE_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n: connected\n\n');
    streams.add(res);
    const unsubscribe = options.subscribe((name, payload) => {
      let data: string;
      try {
        data = JSON.stringify(parsePush(name, payload));
      } catch (error) {
        log(`push ${String(name)} not passed on: ${(error as Error).message}`);
        return;
      }
      res.write(`event: ${name}\ndata: ${data}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
    heartbeat.unref();
    const stop = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
    };
    // The response closes when the client goes away or the host shuts down.
    res.on('close', stop);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const hostHeader = req.headers.host ?? '';
    if (!allowedHosts.has(hostHeader.toLowerCase())) {
      sendText(res, 403, 'forbidden: this server answers only to its own loopback address');
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
      sendText(res, 403, 'forbidden: requests from other origins are refused');
      return;
    }
    let url: URL;
    try {
      // The request target is a path (origin-form): appended to this origin, not resolved
      // against it, so `//evil.example/x` is a path here and not another host.
      const target = req.url ?? '/';
      if (!target.startsWith('/')) throw new Error('not a path');
      url = new URL(`http://127.0.0.1:${port}${target}`);
    } catch {
      sendText(res, 400, 'bad request');
      return;
    }
    const auth = authorized(req, url);
    if (!auth.ok) {
      sendText(res, 401, 'unauthorized: open the URL that `layover-desk serve` printed (it carries the token)');
      return;
    }
    const cookie = `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    if (auth.fromQuery && (req.method === 'GET' || req.method === 'HEAD') && !url.pathname.startsWith('/api/')) {
      // Trade the token in the URL for a cookie, and drop it from the address bar and history.
      url.searchParams.delete('token');
      const location = sameOriginLocation(url);
      res.writeHead(303, { ...BASE_HEADERS, 'Set-Cookie': cookie, Location: location, 'Content-Length': '0' });
      res.end();
      return;
    }
    const pathname = url.pathname;
    if (pathname === '/api/events') {
      serveEvents(req, res);
      return;
    }
    const call = /^\/api\/call\/([^/]+)$/.exec(pathname);
    if (call) {
      await serveCall(req, res, call[1] ?? '');
      return;
    }
    if (pathname.startsWith('/api/')) {
      sendEnvelope(res, 404, errorEnvelope('bad_input', `no such route ${pathname}`));
      return;
    }
    serveStatic(req, res, pathname);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`request failed: ${(error as Error).message}`);
      if (!res.headersSent) sendEnvelope(res, 500, errorEnvelope('failure', 'the host failed to answer'));
      else res.destroy();
    });
  });
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: options.port ?? 0 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the host did not get a TCP port');
  port = address.port;
  cookieName = `layover_token_${port}`;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  allowedOrigins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  const origin = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    cookieName,
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        streams.clear();
        server.close(() => resolve());
        server.closeIdleConnections();
        // Whatever is still open after a moment is cut, so shutdown stays well under a second.
        setTimeout(() => server.closeAllConnections(), 200).unref();
      });
      return closing;
    },
  };
}
