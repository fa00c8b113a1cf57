/**
 * The guards of the browser host, judged in this order on every request (docs/security.md):
 * 1. `Host` names this server (`127.0.0.1:PORT` or `localhost:PORT`), else 403 — a page on a
 *    hostile domain that re-binds its DNS name to 127.0.0.1 sends its own name here;
 * 2. no `Origin`, or this server's own, else 403 — cross-site requests (CSRF) are refused;
 * 3. the per-start token, else 401 — the page itself included. The token comes from the URL
 *    printed at start (`?token=`), which is traded for an HttpOnly, SameSite=Strict cookie and a
 *    redirect to the clean URL, so the page's assets, `fetch` and `EventSource` carry it; scripts
 *    may send it as `X-Layover-Token` instead. Compared in constant time.
 */
import crypto from 'node:crypto';
import type http from 'node:http';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';

export const TOKEN_HEADER = 'x-layover-token';

/** The token's query parameter in the printed URL. */
export const TOKEN_PARAM = 'token';

export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

function digest(value: string): Buffer {
  return crypto.createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison (hashing first makes the lengths equal). */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  return crypto.timingSafeEqual(digest(expected), digest(given));
}

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

/** Cookie values are compared as sent: the token is base64url, so no spelling of it needs decoding. */
const RAW_VALUE = (value: string): string => value;

export interface RequestGuards {
  /** Name of the cookie that carries the token: per port, because cookies ignore ports. */
  cookieName: string;
  /** The `Set-Cookie` value of the token exchange. */
  tokenCookie: string;
  /** Guard 1: the `Host` header names this server. */
  hostIsOurs(req: http.IncomingMessage): boolean;
  /** Guard 2: no `Origin`, or this server's own. */
  originIsOurs(req: http.IncomingMessage): boolean;
  /** Guard 3: the token, by header, cookie or (for the exchange) the query; `fromQuery` says which. */
  authorize(req: http.IncomingMessage, url: URL): { ok: boolean; fromQuery: boolean };
}

/** The guards of a host listening on `port` with `token`. */
export function requestGuards(port: number, token: string): RequestGuards {
  const cookieName = `layover_token_${port}`;
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origins = new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
  return {
    cookieName,
    tokenCookie: serializeCookie(cookieName, token, { httpOnly: true, sameSite: 'strict', path: '/' }),
    hostIsOurs: (req) => hosts.has((req.headers.host ?? '').toLowerCase()),
    originIsOurs: (req) => req.headers.origin === undefined || origins.has(req.headers.origin.toLowerCase()),
    authorize(req, url) {
      const header = req.headers[TOKEN_HEADER];
      if (typeof header === 'string' && tokenMatches(token, header)) return { ok: true, fromQuery: false };
      // A name sent twice counts once, first as sent (as browsers order them: the most specific path first).
      const cookie = parseCookies(req.headers.cookie ?? '', { decode: RAW_VALUE })[cookieName];
      if (tokenMatches(token, cookie)) return { ok: true, fromQuery: false };
      if (tokenMatches(token, url.searchParams.get(TOKEN_PARAM))) return { ok: true, fromQuery: true };
      return { ok: false, fromQuery: false };
    },
  };
}
