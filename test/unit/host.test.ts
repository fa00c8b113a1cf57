/**
 * The browser host, end to end over real HTTP on an ephemeral port: the guards (Host, Origin,
 * token), the cookie flow, the API envelope and the event stream. The Desk behind it is a tiny
 * real `Handlers` object, so these tests need no factory.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, CHANNELS, type Handlers } from '../../shared/api.js';
import type { PushListener } from '../../electron/node/host/deskPort.js';
import { CSP } from '../../electron/node/host/csp.js';
import { tokenMatches } from '../../electron/node/host/guards.js';
import { startHost, type RunningHost } from '../../electron/node/host/http.js';
import { resolveStatic } from '../../electron/node/host/staticFiles.js';
import { testDeskInfo } from '../support/deskInfo.js';
import { eventually } from '../support/factory.js';

const info = testDeskInfo();

function testHandlers(): Handlers {
  const handlers: Record<string, (input: unknown) => unknown> = {};
  for (const channel of CHANNELS) {
    handlers[channel] = () => {
      throw new ApiError('unavailable', `${channel} is not part of this test`);
    };
  }
  handlers['desk.info'] = () => info;
  handlers['help.list'] = (input) => ({ total: (input as { limit: number }).limit, rows: [] });
  // A handler that breaks the contract: the host must not pass its output on.
  handlers['runs.list'] = () => ({ total: 'many', rows: [] });
  return handlers as unknown as Handlers;
}

const listeners = new Set<PushListener>();
function push(name: Parameters<PushListener>[0], payload: unknown): void {
  for (const listener of listeners) listener(name, payload);
}

let root: string;
let host: RunningHost;
const logged: string[] = [];

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: host.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { Host: `127.0.0.1:${host.port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

const auth = () => ({ 'X-Layover-Token': host.token });
const call = (channel: string, body: string, headers: Record<string, string> = {}) =>
  request({ method: 'POST', path: `/api/call/${channel}`, headers: { 'Content-Type': 'application/json', ...auth(), ...headers }, body });

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-host-'));
  const dist = path.join(root, 'renderer');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Layover Desk</title><script type="module" src="./assets/app.js"></script>');
  fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log("app")');
  fs.writeFileSync(path.join(dist, 'assets', 'style.css'), 'body{}');
  fs.writeFileSync(path.join(root, 'secret.txt'), 'outside the build');
  fs.symlinkSync(path.join(root, 'secret.txt'), path.join(dist, 'assets', 'link.txt'));
  host = await startHost({
    handlers: testHandlers(),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    rendererDir: dist,
    port: 0,
    heartbeatMs: 100,
    log: (message) => logged.push(message),
  });
});

afterAll(async () => {
  await host?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the token', () => {
  it('is long and random, and printed in the URL', () => {
    expect(host.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/?token=${host.token}`);
  });

  it('is compared as a whole', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abc', 'abcd')).toBe(false);
    expect(tokenMatches('abc', '')).toBe(false);
    expect(tokenMatches('abc', undefined)).toBe(false);
  });

  it.each([
    ['the page', 'GET', '/'],
    ['an asset', 'GET', '/assets/app.js'],
    ['the event stream', 'GET', '/api/events'],
    ['a missing file', 'GET', '/nothing.js'],
  ])('missing → 401 for %s', async (_what, method, route) => {
    const reply = await request({ method, path: route });
    expect(reply.status).toBe(401);
  });

  it('missing → 401 for an API call', async () => {
    const reply = await request({ method: 'POST', path: '/api/call/desk.info', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(reply.status).toBe(401);
  });

  it('wrong → 401, in the header, the cookie or the query', async () => {
    expect((await request({ path: '/', headers: { 'X-Layover-Token': `${host.token}x` } })).status).toBe(401);
    expect((await request({ path: '/', headers: { Cookie: `${host.cookieName}=nope` } })).status).toBe(401);
    expect((await request({ path: '/?token=nope' })).status).toBe(401);
    // The cookie of another port's host does not open this one.
    expect((await request({ path: '/', headers: { Cookie: `layover_token_1=${host.token}` } })).status).toBe(401);
  });
});

describe('the Host and Origin guards', () => {
  it('refuses a foreign Host even with the token (DNS rebinding) → 403', async () => {
    for (const hostHeader of ['evil.example:80', `evil.example:${host.port}`, '127.0.0.1', `127.0.0.1:${host.port + 1}`, `0.0.0.0:${host.port}`]) {
      const reply = await request({ path: '/', headers: { ...auth(), Host: hostHeader } });
      expect(reply.status, hostHeader).toBe(403);
    }
  });

  it('accepts localhost:PORT as Host', async () => {
    const reply = await request({ path: '/', headers: { ...auth(), Host: `localhost:${host.port}` } });
    expect(reply.status).toBe(200);
  });

  it('refuses a foreign Origin even with the token (CSRF) → 403', async () => {
    for (const origin of ['http://evil.example', `http://127.0.0.1:${host.port + 1}`, 'null', `https://127.0.0.1:${host.port}`]) {
      const reply = await call('desk.info', '{}', { Origin: origin });
      expect(reply.status, origin).toBe(403);
      expect(reply.body).not.toContain('tester');
    }
  });

  it('accepts its own Origin', async () => {
    const reply = await call('desk.info', '{}', { Origin: `http://127.0.0.1:${host.port}` });
    expect(reply.status).toBe(200);
  });

  it('judges Host before the token: a rebinding page learns nothing about the token', async () => {
    const reply = await request({ path: '/', headers: { Host: 'evil.example' } });
    expect(reply.status).toBe(403);
  });
});

describe('the page and its files', () => {
  it('trades the token in the URL for an HttpOnly SameSite=Strict cookie and a clean URL', async () => {
    const first = await request({ path: `/?token=${host.token}` });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toContain(`${host.cookieName}=${host.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const page = await request({ path: '/', headers: { Cookie: `${host.cookieName}=${host.token}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Layover Desk</title>');
    const asset = await request({ path: '/assets/app.js', headers: { Cookie: `other=1; ${host.cookieName}=${host.token}` } });
    expect(asset.status).toBe(200);
  });

  it.each([
    ['/.//evil.example/x', '/evil.example/x'],
    ['//evil.example/x', '/evil.example/x'],
    ['/a/..//evil.example', '/evil.example'],
    ['/\\evil.example/x', '/evil.example/x'],
    ['/learnings?agent=scout', '/learnings?agent=scout'],
  ])('the token exchange for %s redirects only to a normalised path of this origin (%s), never to another host', async (asked, clean) => {
    const joiner = asked.includes('?') ? '&' : '?';
    const reply = await request({ path: `${asked}${joiner}token=${host.token}` });
    expect(reply.status).toBe(303);
    expect(reply.headers.location).toBe(clean);
    const origin = `http://127.0.0.1:${host.port}`;
    expect(new URL(String(reply.headers.location), origin).origin).toBe(origin);
  });

  it('serves the page with the CSP and the safety headers', async () => {
    const page = await request({ path: '/', headers: auth() });
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(CSP);
    expect(CSP).toContain("script-src 'self'");
    expect(CSP).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('gives each file its MIME type', async () => {
    expect((await request({ path: '/assets/app.js', headers: auth() })).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await request({ path: '/assets/style.css', headers: auth() })).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('hands out the page for a view path, 404 for a missing file', async () => {
    expect((await request({ path: '/learnings', headers: auth() })).body).toContain('Layover Desk');
    expect((await request({ path: '/assets/missing.js', headers: auth() })).status).toBe(404);
  });

  it('never serves a file outside the build', async () => {
    for (const route of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/..%5csecret.txt', '/assets/link.txt', '/%00']) {
      const reply = await request({ path: route, headers: auth() });
      expect(reply.status, route).not.toBe(200);
      expect(reply.body).not.toContain('outside the build');
    }
  });

  it('resolves paths inside the build only', () => {
    const dist = path.join(root, 'renderer');
    expect(resolveStatic(dist, '/../secret.txt')).toBeNull();
    expect(resolveStatic(dist, '/%E0%A4%A')).toBe('bad');
    const found = resolveStatic(dist, '/');
    expect(found && found !== 'bad' ? path.basename(found.file) : null).toBe('index.html');
  });
});

describe('the type a file is served as', () => {
  // Both hosts send nosniff, so the browser acts on exactly this type: a script or a style of
  // the wrong type is not run, and a file of unknown type must never be taken for a page.
  const exact: [string, string][] = [
    ['index.html', 'text/html; charset=utf-8'],
    ['assets/app.js', 'text/javascript; charset=utf-8'],
    ['assets/style.css', 'text/css; charset=utf-8'],
    ['assets/logo.svg', 'image/svg+xml'],
    ['assets/font.woff2', 'font/woff2'],
    ['assets/shot.png', 'image/png'],
    ['favicon.ico', 'image/vnd.microsoft.icon'],
    ['assets/data.json', 'application/json; charset=utf-8'],
    ['assets/app.js.map', 'application/json; charset=utf-8'],
  ];

  beforeAll(() => {
    const dist = path.join(root, 'renderer');
    for (const [file] of exact) if (!fs.existsSync(path.join(dist, file))) fs.writeFileSync(path.join(dist, file), 'x');
    fs.writeFileSync(path.join(dist, 'assets', 'LOUD.JS'), 'x');
    fs.writeFileSync(path.join(dist, 'assets', 'blob.xyzunknown'), '<script>alert(1)</script>');
    fs.writeFileSync(path.join(dist, 'assets', 'noextension'), '<script>alert(1)</script>');
  });

  it.each(exact)('%s is served as exactly %s, with nosniff', async (file, type) => {
    const reply = await request({ path: `/${file}`, headers: auth() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe(type);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it('judges the extension regardless of case', async () => {
    expect((await request({ path: '/assets/LOUD.JS', headers: auth() })).headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it.each(['/assets/blob.xyzunknown', '/assets/noextension'])('serves a file of unknown type (%s) as bytes to download, never as a page', async (route) => {
    const reply = await request({ path: route, headers: auth() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/octet-stream');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['the page', () => request({ path: '/', headers: auth() })],
    ['a missing file', () => request({ path: '/assets/missing.js', headers: auth() })],
    ['a refused token', () => request({ path: '/' })],
    ['a foreign Host', () => request({ path: '/', headers: { ...auth(), Host: 'evil.example' } })],
    ['a foreign Origin', () => call('desk.info', '{}', { Origin: 'http://evil.example' })],
    ['an API call', () => call('desk.info', '{}')],
    ['the token exchange', () => request({ path: `/?token=${host.token}` })],
  ])('every response carries nosniff and the CSP: %s', async (_what, send) => {
    const reply = await send();
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['content-security-policy']).toBe(CSP);
  });
});

describe('a hostile Cookie header', () => {
  const name = () => host.cookieName;
  const encoded = () => [...host.token].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

  it('counts a cookie sent twice once, as first sent: a wrong first copy is not rescued by a right second one', async () => {
    expect((await request({ path: '/', headers: { Cookie: `${name()}=wrong; ${name()}=${host.token}` } })).status).toBe(401);
    expect((await request({ path: '/', headers: { Cookie: `${name()}=${host.token}; ${name()}=wrong` } })).status).toBe(200);
  });

  it('counts a cookie sent twice once when the copies come in two Cookie header lines', async () => {
    const twoLines = (first: string, second: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port: host.port, path: '/', headers: { Host: `127.0.0.1:${host.port}`, Cookie: [first, second] } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
    expect(await twoLines(`${name()}=wrong`, `${name()}=${host.token}`)).toBe(401);
    expect(await twoLines(`${name()}=${host.token}`, `${name()}=wrong`)).toBe(200);
  });

  it('takes an empty cookie sent twice, or a value holding the token after another =, for no token', async () => {
    expect((await request({ path: '/', headers: { Cookie: `${name()}=; ${name()}=` } })).status).toBe(401);
    expect((await request({ path: '/', headers: { Cookie: `${name()}=token=${host.token}` } })).status).toBe(401);
    expect((await request({ path: '/', headers: { Cookie: `${name()}=${host.token}=` } })).status).toBe(401);
  });

  it('takes the token in the query once, as first given', async () => {
    expect((await request({ path: `/?token=wrong&token=${host.token}` })).status).toBe(401);
  });

  // NAME, TOKEN and ENCODED stand for this host's cookie name, its token and the token with every
  // character percent-encoded (known only once the host listens).
  it.each([
    ['separators only', ';;; ;'],
    ['a pair without a name', '=TOKEN'],
    ['a name without a value', 'NAME'],
    ['a quoted token', 'NAME="TOKEN"'],
    ['a percent-encoded spelling of the token', 'NAME=ENCODED'],
    ['a broken percent-encoding', 'NAME=%E0%A4%A'],
    ['prototype names', '__proto__=TOKEN; constructor=TOKEN; toString=x'],
  ])('refuses %s with 401, never a failure', async (_what, header) => {
    const reply = await request({ path: '/', headers: { Cookie: header.replaceAll('NAME', name()).replaceAll('ENCODED', encoded()).replaceAll('TOKEN', host.token) } });
    expect(reply.status).toBe(401);
  });

  it('finds the token after malformed pairs and a thousand other cookies', async () => {
    const others = Array.from({ length: 1000 }, (_, i) => `c${i}=v`).join('; ');
    const reply = await request({ path: '/', headers: { Cookie: `;; =x; junk; ${others}; ${name()}=${host.token}` } });
    expect(reply.status).toBe(200);
  });

  it('refuses a Cookie header over the size limit of request headers (431), and keeps serving', async () => {
    const reply = await request({ path: '/', headers: { Cookie: `${name()}=${host.token}; pad=${'x'.repeat(64 * 1024)}` } }).catch(
      (error: NodeJS.ErrnoException) => ({ status: error.code ?? 'error' }),
    );
    // Node answers 431 and closes; a client still writing the header may see the reset first.
    expect([431, 'ECONNRESET', 'EPIPE']).toContain(reply.status);
    expect((await request({ path: '/', headers: auth() })).status).toBe(200);
  });
});

describe('the API', () => {
  it('answers a call with the envelope of its value', async () => {
    const reply = await call('desk.info', '{}');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(reply.body)).toEqual({ ok: true, value: info });
  });

  it('applies the contract defaults to the input', async () => {
    const reply = await call('help.list', '{}');
    expect(JSON.parse(reply.body)).toEqual({ ok: true, value: { total: 100, rows: [] } });
  });

  it('refuses an unknown channel with an envelope error', async () => {
    const reply = await call('desk.format', '{}');
    const envelope = JSON.parse(reply.body);
    expect(envelope.ok).toBe(false);
    expect(envelope.error.code).toBe('bad_input');
    expect(envelope.error.message).toContain('unknown channel');
  });

  it('refuses input that does not fit the schema (bad_input), naming the field', async () => {
    const reply = await call('help.list', JSON.stringify({ limit: 'lots' }));
    const envelope = JSON.parse(reply.body);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(envelope.error.message).toContain('limit');
  });

  it('does not pass on a handler output that breaks the contract', async () => {
    const envelope = JSON.parse((await call('runs.list', '{}')).body);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'failure' } });
    expect(envelope.error.message).toContain('invalid result');
  });

  it('keeps a handler error code', async () => {
    const envelope = JSON.parse((await call('chains.list', '{}')).body);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'unavailable' } });
  });

  it('refuses bad JSON with 400 and an envelope', async () => {
    const reply = await call('desk.info', '{nope');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  });

  it('requires application/json (no form posts)', async () => {
    const reply = await call('desk.info', '{}', { 'Content-Type': 'text/plain' });
    expect(reply.status).toBe(415);
  });

  it('refuses a body over the limit', async () => {
    const reply = await call('desk.info', JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }));
    expect(reply.status).toBe(413);
  });

  it('answers only POST', async () => {
    expect((await request({ path: '/api/call/desk.info', headers: auth() })).status).toBe(405);
  });
});

describe('the event stream', () => {
  function openStream(): Promise<{ res: http.IncomingMessage; text: () => string; req: http.ClientRequest }> {
    return new Promise((resolve, reject) => {
      let text = '';
      const req = http.get(
        { host: '127.0.0.1', port: host.port, path: '/api/events', headers: { Host: `127.0.0.1:${host.port}`, Cookie: `${host.cookieName}=${host.token}` } },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          resolve({ res, text: () => text, req });
        },
      );
      req.on('error', reject);
    });
  }

  it('delivers a push as an event, and heartbeats', async () => {
    const stream = await openStream();
    expect(stream.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await eventually(() => listeners.size > 0, 'the stream listens');
    push('ledger.changed', { reason: 'ingest' });
    await eventually(() => stream.text().includes('event: ledger.changed'), 'the push arrives');
    expect(stream.text()).toContain('event: ledger.changed\ndata: {"reason":"ingest"}\n\n');
    await eventually(() => stream.text().includes(': heartbeat'), 'a heartbeat arrives');
    stream.req.destroy();
    await eventually(() => listeners.size === 0, 'the closed stream stops listening');
  });

  it('does not pass on a push that breaks the contract', async () => {
    const stream = await openStream();
    await eventually(() => listeners.size > 0, 'the stream listens');
    push('ledger.changed', { reason: 42 });
    push('ledger.changed', { reason: 'after' });
    await eventually(() => stream.text().includes('"after"'), 'the valid push after it arrives');
    expect(stream.text()).not.toContain('42');
    expect(logged.some((line) => line.includes('ledger.changed'))).toBe(true);
    stream.req.destroy();
  });
});

describe('shutdown', () => {
  it('closes within a second, open streams included', async () => {
    const dist = path.join(root, 'renderer');
    const other = await startHost({ handlers: testHandlers(), subscribe: () => () => {}, rendererDir: dist });
    await new Promise<void>((resolve) => {
      http.get({ host: '127.0.0.1', port: other.port, path: '/api/events', headers: { Host: `127.0.0.1:${other.port}`, 'X-Layover-Token': other.token } }, () => resolve());
    });
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
