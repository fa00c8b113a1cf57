/**
 * The browser host: the renderer build and the Desk's API over HTTP on 127.0.0.1, for machines
 * without the Electron runtime (and for anyone who prefers a browser tab). This file is the
 * server's wiring: every request passes the guards of `guards.ts` (Host, Origin, token, in that
 * order), then goes to its route:
 * - `GET /` and the files of the renderer build (`staticFiles.ts`), with a strict CSP;
 * - `POST /api/call/<channel>` with a JSON body (`body.ts`) → the call's envelope (`dispatch()`
 *   validates the input and the output against `shared/api.ts`);
 * - `GET /api/events` → server-sent events (`push.ts`).
 * Every response carries the headers of `responses.ts`.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { dispatch, type Handlers } from '../../../shared/api.js';
import { BodyTooLarge, MAX_BODY_BYTES, readBody } from './body.js';
import type { Subscribe } from './deskPort.js';
import { TOKEN_PARAM, newToken, requestGuards, sameOriginLocation } from './guards.js';
import { HEARTBEAT_MS, eventStreams } from './push.js';
import { BASE_HEADERS, errorEnvelope, sendEnvelope, sendText } from './responses.js';
import { mimeType, resolveStatic } from './staticFiles.js';

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

/** Starts the browser host on 127.0.0.1. Resolves once it listens. */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const token = options.token ?? newToken();
  const maxBody = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const log = options.log ?? (() => {});
  const rendererDir = path.resolve(options.rendererDir);
  const streams = eventStreams(options.subscribe, options.heartbeatMs ?? HEARTBEAT_MS, log);

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
    streams.open(res);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!guards.hostIsOurs(req)) {
      sendText(res, 403, 'forbidden: this server answers only to its own loopback address');
      return;
    }
    if (!guards.originIsOurs(req)) {
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
    const auth = guards.authorize(req, url);
    if (!auth.ok) {
      sendText(res, 401, 'unauthorized: open the URL that `layover-desk serve` printed (it carries the token)');
      return;
    }
    if (auth.fromQuery && (req.method === 'GET' || req.method === 'HEAD') && !url.pathname.startsWith('/api/')) {
      // Trade the token in the URL for a cookie, and drop it from the address bar and history.
      url.searchParams.delete(TOKEN_PARAM);
      const location = sameOriginLocation(url);
      res.writeHead(303, { ...BASE_HEADERS, 'Set-Cookie': guards.tokenCookie, Location: location, 'Content-Length': '0' });
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

  const server = http.createServer();
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
  const port = address.port;
  const guards = requestGuards(port, token);
  // Requests are answered from here on: the guards name the port, which only the listen gives.
  // None is lost in between: this runs in the microtasks that follow the listen's callback,
  // before the event loop reads any connection.
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    handle(req, res).catch((error: unknown) => {
      log(`request failed: ${(error as Error).message}`);
      if (!res.headersSent) sendEnvelope(res, 500, errorEnvelope('failure', 'the host failed to answer'));
      else res.destroy();
    });
  });
  const origin = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/?${TOKEN_PARAM}=${token}`,
    origin,
    port,
    token,
    cookieName: guards.cookieName,
    close() {
      closing ??= new Promise<void>((resolve) => {
        streams.closeAll();
        server.close(() => resolve());
        server.closeIdleConnections();
        // Whatever is still open after a moment is cut, so shutdown stays well under a second.
        setTimeout(() => server.closeAllConnections(), 200).unref();
      });
      return closing;
    },
  };
}
