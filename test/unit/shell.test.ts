/**
 * The Electron shell (`electron/main.ts`) with `electron` mocked — the runtime is not needed to
 * check what the shell asks of it: the window's security settings, the CSP, denied permissions,
 * navigation and new windows, the IPC sender allow-list, the `app://` file server, the menu.
 * The Desk behind it is the real one, on a temporary factory. Needs `npm run build` (the renderer
 * and preload builds), which `npm test` runs first when needed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fatalNotification } from '../../shared/attention.js';
import { eventually } from '../support/factory.js';

type Handler = (...args: unknown[]) => unknown;

const h = vi.hoisted(() => {
  const state = {
    appEvents: new Map<string, Handler>(),
    ipc: new Map<string, Handler>(),
    windows: [] as { options: Record<string, unknown>; url: string; webContents: { send: Handler; sent: unknown[][] } }[],
    schemes: [] as unknown[],
    protocolHandler: null as Handler | null,
    headersHook: null as Handler | null,
    permissionRequest: null as Handler | null,
    permissionCheck: null as Handler | null,
    menu: null as unknown,
    userDataPath: '',
    notifications: [] as unknown[],
    badge: -1,
    quit: false,
  };
  return state;
});

vi.mock('electron', () => {
  class BrowserWindow {
    options: Record<string, unknown>;
    url = '';
    sent: unknown[][] = [];
    webContents = { send: (...args: unknown[]) => this.sent.push(args), sent: this.sent };
    constructor(options: Record<string, unknown>) {
      this.options = options;
      this.webContents.sent = this.sent;
      h.windows.push(this as never);
    }
    once() {}
    on() {}
    loadURL(url: string) {
      this.url = url;
      return Promise.resolve();
    }
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
    getNormalBounds() {
      return { x: 0, y: 0, width: 1000, height: 700 };
    }
    isMaximized() {
      return false;
    }
  }
  return {
    BrowserWindow,
    app: {
      setName() {},
      setPath(_name: string, value: string) {
        h.userDataPath = value;
      },
      requestSingleInstanceLock: () => true,
      on: (event: string, handler: Handler) => h.appEvents.set(event, handler),
      whenReady: () => Promise.resolve(),
      isPackaged: false,
      setBadgeCount(count: number) {
        h.badge = count;
      },
      exit() {},
      quit() {
        h.quit = true;
      },
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => h.schemes.push(...schemes),
      handle: (_scheme: string, handler: Handler) => {
        h.protocolHandler = handler;
      },
    },
    session: {
      defaultSession: {
        webRequest: {
          onHeadersReceived: (hook: Handler) => {
            h.headersHook = hook;
          },
        },
        setPermissionRequestHandler: (handler: Handler) => {
          h.permissionRequest = handler;
        },
        setPermissionCheckHandler: (handler: Handler) => {
          h.permissionCheck = handler;
        },
        setDevicePermissionHandler() {},
      },
    },
    ipcMain: { handle: (channel: string, handler: Handler) => h.ipc.set(channel, handler) },
    Menu: {
      buildFromTemplate: (template: unknown) => template,
      setApplicationMenu: (menu: unknown) => {
        h.menu = menu;
      },
    },
    Notification: class {
      static isSupported() {
        return true;
      }
      constructor(options: unknown) {
        h.notifications.push(options);
      }
      on() {}
      show() {}
    },
    dialog: { showOpenDialog: async () => ({ canceled: true, filePaths: [] }), showErrorBox() {} },
    screen: { getDisplayMatching: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }) },
  };
});

const root = path.resolve(import.meta.dirname, '..', '..');
let tmp: string;
let factory: string;
const saved = { ...process.env };

/** How long a test waits on the shell: it starts the real Desk, whose watcher ingests. */
const SHELL_WAIT_MS = 15_000;
const until = (check: () => boolean, what: string) => eventually(check, what, SHELL_WAIT_MS);

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-shell-'));
  factory = path.join(tmp, 'factory');
  fs.mkdirSync(factory);
  process.env.LAYOVER_USER_DATA = path.join(tmp, 'user-data');
  process.env.LAYOVER_FACTORY = factory;
  await import('../../electron/main.js');
  await until(() => h.windows.length > 0, 'the window opens');
}, 30_000);

afterAll(async () => {
  const willQuit = h.appEvents.get('will-quit');
  willQuit?.({ preventDefault() {} });
  await until(() => h.quit, 'the app quits');
  process.env = saved;
  fs.rmSync(tmp, { recursive: true, force: true });
});

const appFrame = () => ({ url: 'app://desk/index.html', parent: null });
const event = (frame: unknown, sender = h.windows[0]?.webContents) => ({ senderFrame: frame, sender });

describe('the Electron shell', () => {
  it('registers app:// as a secure standard scheme before ready', () => {
    expect(h.schemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
  });

  it('keeps its data in the same folder as the launcher', () => {
    expect(h.userDataPath).toBe(path.join(tmp, 'user-data'));
  });

  it('opens one window, sandboxed and isolated, on the app:// page', () => {
    const window = h.windows[0]!;
    expect(window.url).toBe('app://desk/index.html');
    const prefs = window.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(prefs.preload).toBe(path.join(root, 'dist', 'preload', 'preload.cjs'));
  });

  it('sets the CSP on every response', () => {
    let headers: Record<string, string[]> = {};
    h.headersHook!({ responseHeaders: { 'X-Other': ['1'] } }, (result: { responseHeaders: Record<string, string[]> }) => {
      headers = result.responseHeaders;
    });
    expect(headers['Content-Security-Policy']?.[0]).toContain("script-src 'self'");
    expect(headers['X-Other']).toEqual(['1']);
  });

  it('denies every permission', () => {
    let granted: boolean | undefined;
    h.permissionRequest!({}, 'media', (answer: boolean) => {
      granted = answer;
    });
    expect(granted).toBe(false);
    expect(h.permissionCheck!({}, 'notifications')).toBe(false);
  });

  it('denies navigation, redirects, webviews and new windows', () => {
    const listeners = new Map<string, Handler>();
    let openHandler: Handler | null = null;
    const contents = {
      on: (name: string, listener: Handler) => listeners.set(name, listener),
      setWindowOpenHandler: (handler: Handler) => {
        openHandler = handler;
      },
    };
    h.appEvents.get('web-contents-created')!({}, contents);
    for (const name of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const prevent = vi.fn();
      listeners.get(name)!({ preventDefault: prevent }, 'https://evil.example/');
      expect(prevent, name).toHaveBeenCalled();
    }
    expect(openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });

  it('answers calls from the app page, validated by the contract', async () => {
    const call = h.ipc.get('desk:call')!;
    const info = (await call(event(appFrame()), 'desk.info', {})) as { ok: boolean; value: { host: string; factory: string } };
    expect(info.ok).toBe(true);
    expect(info.value).toMatchObject({ host: 'electron', factory });
    expect(await call(event(appFrame()), 'no.such', {})).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(await call(event(appFrame()), 'help.list', { limit: -1 })).toMatchObject({ ok: false, error: { code: 'bad_input' } });
  });

  it('refuses calls from any other frame or sender', async () => {
    const call = h.ipc.get('desk:call')!;
    const refused = { ok: false, error: { code: 'refused' } };
    expect(await call(event({ url: 'https://evil.example/', parent: null }), 'desk.info', {})).toMatchObject(refused);
    expect(await call(event({ url: 'app://desk/index.html', parent: {} }), 'desk.info', {})).toMatchObject(refused);
    expect(await call(event({ url: 'app://other/index.html', parent: null }), 'desk.info', {})).toMatchObject(refused);
    expect(await call(event({ url: 'file:///etc/passwd', parent: null }), 'desk.info', {})).toMatchObject(refused);
    expect(await call(event(null), 'desk.info', {})).toMatchObject(refused);
    expect(await call(event(appFrame(), { send() {} } as never), 'desk.info', {})).toMatchObject(refused);
  });

  it('serves the renderer build on app://desk/ with the CSP, and nothing outside it', async () => {
    const serve = h.protocolHandler!;
    const page = (await serve(new Request('app://desk/index.html'))) as Response;
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await page.text()).toContain('Layover Desk');
    for (const url of ['app://desk/../../package.json', 'app://desk/%2e%2e/%2e%2e/package.json', 'app://other/index.html', 'app://desk/missing.js']) {
      expect(((await serve(new Request(url))) as Response).status, url).toBe(404);
    }
  });

  it('has File › Open Factory… and the standard menus', () => {
    const menu = h.menu as { label?: string; role?: string; submenu?: { label?: string }[] }[];
    const file = menu.find((item) => item.label === 'File');
    expect(file?.submenu?.some((item) => item.label === 'Open Factory…')).toBe(true);
    expect(menu.map((item) => item.role).filter(Boolean)).toEqual(expect.arrayContaining(['editMenu', 'viewMenu', 'windowMenu']));
  });

  it('passes pushes on to the window', async () => {
    const window = h.windows[0]!;
    const before = window.webContents.sent.length;
    const call = h.ipc.get('desk:call')!;
    // Opening the same factory again makes the Desk push desk.changed and ledger.changed.
    await call(event(appFrame()), 'factory.open', { path: factory });
    await until(() => window.webContents.sent.length > before, 'the window is sent a push');
    const names = window.webContents.sent.slice(before).map((args) => [args[0], args[1]]);
    expect(names).toContainEqual(['desk:push', 'desk.changed']);
  });

  it('notifies a new fatal help request and counts it on the badge', async () => {
    const window = h.windows[0]!;
    const at = new Date().toISOString();
    const day = at.slice(0, 10);
    fs.mkdirSync(path.join(factory, 'events'), { recursive: true });
    const event = { type: 'help.requested', at, id: 'help-1', agent: 'builder', run: 'run-1', chain: 'chain-1', fatal: true, question: 'Which key signs the release?' };
    fs.appendFileSync(path.join(factory, 'events', `${day}.jsonl`), `${JSON.stringify(event)}\n`);
    await until(() => h.notifications.length > 0, 'a notification is shown');
    expect(h.notifications[0]).toEqual({ title: 'builder needs you', body: 'Which key signs the release?' });
    await until(() => window.webContents.sent.some((args) => args[1] === 'help.fatal'), 'the window is sent help.fatal');
    await until(() => h.badge === 1, 'the badge counts one');
  });

  it('counts only open fatal requests on the badge: one resolved leaves it', async () => {
    await until(() => h.badge === 1, 'the badge counts one');
    const call = h.ipc.get('desk:call')!;
    expect(await call(event(appFrame()), 'help.resolve', { id: 'help-1', by: 'ada' })).toMatchObject({ ok: true });
    await until(() => h.badge === 0, 'the badge clears');
  });

  it('cuts a long question in the native notification as the shared wording does', async () => {
    const at = new Date().toISOString();
    const question = `Which of these keys signs the release? ${'k'.repeat(400)}`;
    const event = { type: 'help.requested', at, id: 'help-2', agent: 'builder', run: 'run-2', chain: 'chain-2', fatal: true, question };
    const before = h.notifications.length;
    fs.appendFileSync(path.join(factory, 'events', `${at.slice(0, 10)}.jsonl`), `${JSON.stringify(event)}\n`);
    await until(() => h.notifications.length > before, 'a new notification is shown');
    expect(h.notifications[before]).toEqual(fatalNotification({ agent: 'builder', question }));
    expect((h.notifications[before] as { body: string }).body.endsWith('…')).toBe(true);
  });
});
