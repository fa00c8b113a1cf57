/**
 * The Electron shell: one window onto the Desk, hardened. One of the two files that import
 * `electron` (with `preload.ts`); everything it composes is plain Node, tested without Electron.
 *
 * The window shows texts that agents wrote, so it is treated as untrusted:
 * - the page runs sandboxed with context isolation and no Node, and is loaded from the
 *   privileged `app://desk/` scheme, which serves only files of `dist/renderer`;
 * - a strict CSP (response header and `<meta>`), navigation, new windows, `<webview>` and every
 *   permission denied;
 * - one IPC channel, `desk:call`, answered only for the app's own top frame, and every payload
 *   validated both ways by `dispatch()` against `shared/api.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  BrowserWindow,
  Menu,
  Notification,
  app,
  dialog,
  ipcMain,
  protocol,
  screen,
  session,
  type IpcMainInvokeEvent,
  type MenuItemConstructorOptions,
} from 'electron';
import { MAX_PAGE, dispatch, parsePush, type CallOutput, type Envelope, type PushName } from '../shared/api.js';
import { APP_TITLE, fatalNotification, openFatalCount } from '../shared/attention.js';
import { Desk } from './node/desk.js';
import type { DeskPort } from './node/host/deskPort.js';
import { CSP } from './node/host/csp.js';
import { mimeType, resolveStatic } from './node/host/staticFiles.js';
import { chooseFactory, ensureDemoFactory } from './node/launcher.js';
import { appRoot, electronNativeBinding, preloadPath, rendererDir } from './node/paths.js';
import { readUserState, updateUserState, userDataDir, type WindowState } from './node/userState.js';

const SCHEME = 'app';
const APP_HOST = 'desk';
const APP_ORIGIN = `${SCHEME}://${APP_HOST}`;
const CALL_CHANNEL = 'desk:call';
const PUSH_CHANNEL = 'desk:push';

protocol.registerSchemesAsPrivileged([
  { scheme: SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);

const dataDir = userDataDir();
app.setName(APP_TITLE);
app.setPath('userData', dataDir);

let mainWindow: BrowserWindow | null = null;
let desk: DeskPort | null = null;
let unsubscribe: (() => void) | null = null;

function focusWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

// ---------------------------------------------------------------------------------------------
// Window state

function visibleBounds(state: WindowState | undefined): Partial<Electron.Rectangle> {
  const size = { width: state?.width ?? 1280, height: state?.height ?? 820 };
  if (state?.x === undefined || state.y === undefined) return size;
  const rect = { x: state.x, y: state.y, ...size };
  const area = screen.getDisplayMatching(rect).workArea;
  const overlaps =
    rect.x < area.x + area.width - 40 && rect.x + rect.width > area.x + 40 && rect.y >= area.y - 10 && rect.y < area.y + area.height - 40;
  return overlaps ? rect : size;
}

function rememberWindow(window: BrowserWindow): void {
  const bounds = window.getNormalBounds();
  try {
    updateUserState(dataDir, { window: { ...bounds, maximized: window.isMaximized() } });
  } catch {
    // the window's place is a convenience: never block closing on it
  }
}

// ---------------------------------------------------------------------------------------------
// The page: app://desk/ serves dist/renderer and nothing else

function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}

function serveApp(): void {
  const root = rendererDir();
  protocol.handle(SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET') return new Response('not found', { status: 404 });
    const found = resolveStatic(root, url.pathname);
    if (found === 'bad' || found === null) return new Response('not found', { status: 404 });
    const body = await fs.promises.readFile(found.file);
    return new Response(body, {
      headers: {
        'Content-Type': mimeType(found.file),
        'Content-Security-Policy': CSP,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-store',
      },
    });
  });
}

function harden(): void {
  const ses = session.defaultSession;
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}

// ---------------------------------------------------------------------------------------------
// The Desk, IPC and pushes

function nativeBinding(): string | undefined {
  const file = app.isPackaged
    ? path.join(process.resourcesPath, 'app.asar.unpacked', 'build', 'electron-native', 'better_sqlite3.node')
    : electronNativeBinding(appRoot());
  return fs.existsSync(file) ? file : undefined;
}

async function askForFactory(): Promise<string | null> {
  const options: Electron.OpenDialogOptions = {
    title: 'Open Factory',
    buttonLabel: 'Open Factory',
    properties: ['openDirectory', 'createDirectory'],
  };
  const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

function rememberFactory(factory: string): void {
  try {
    updateUserState(dataDir, { lastFactory: factory });
  } catch (error) {
    console.error(`layover-desk: could not remember the factory: ${(error as Error).message}`);
  }
}

function isTrustedSender(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  if (!mainWindow || event.sender !== mainWindow.webContents) return false;
  return isAppUrl(frame.url);
}

function sendPush(name: PushName, payload: unknown): void {
  if (!mainWindow || mainWindow.isDestroyed()) return;
  mainWindow.webContents.send(PUSH_CHANNEL, name, payload);
}

let badgeTimer: NodeJS.Timeout | null = null;
function refreshBadge(): void {
  if (badgeTimer) return;
  badgeTimer = setTimeout(() => {
    badgeTimer = null;
    if (!desk) return;
    void dispatch(desk.handlers, 'help.list', { open: true, limit: MAX_PAGE }).then((envelope) => {
      if (!envelope.ok) return;
      const { rows } = envelope.value as CallOutput<'help.list'>;
      app.setBadgeCount(openFatalCount(rows));
    });
  }, 300);
}

function notifyFatal(payload: unknown): void {
  if (!Notification.isSupported()) return;
  const request = parsePush('help.fatal', payload);
  const notification = new Notification(fatalNotification(request));
  notification.on('click', focusWindow);
  notification.show();
}

function onPush(name: PushName, payload: unknown): void {
  let valid: unknown;
  try {
    valid = parsePush(name, payload);
  } catch (error) {
    console.error(`layover-desk: push ${name} not passed on: ${(error as Error).message}`);
    return;
  }
  sendPush(name, valid);
  if (name === 'help.fatal') {
    notifyFatal(valid);
    refreshBadge();
  } else if (name === 'ledger.changed') {
    refreshBadge();
  }
}

/** File › Open Factory…: the Desk asks with the folder dialog, switches and pushes `desk.changed`. */
async function openFactoryFromMenu(): Promise<void> {
  if (!desk) return;
  const envelope: Envelope = await dispatch(desk.handlers, 'factory.open', {});
  if (!envelope.ok) dialog.showErrorBox('Open Factory', envelope.error.message);
  refreshBadge();
}

// ---------------------------------------------------------------------------------------------
// Menu and window

function buildMenu(): void {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Factory…', accelerator: 'CmdOrCtrl+O', click: () => void openFactoryFromMenu() },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function createWindow(): BrowserWindow {
  const saved = readUserState(dataDir).window;
  const window = new BrowserWindow({
    ...visibleBounds(saved),
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: APP_TITLE,
    webPreferences: {
      preload: preloadPath(),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click opens links in new windows by another path than window.open.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  window.once('ready-to-show', () => {
    if (saved?.maximized) window.maximize();
    window.show();
  });
  window.on('close', () => rememberWindow(window));
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  void window.loadURL(`${APP_ORIGIN}/index.html`);
  return window;
}

async function start(): Promise<void> {
  harden();
  serveApp();
  buildMenu();
  ipcMain.handle(CALL_CHANNEL, async (event, channel: unknown, input: unknown): Promise<Envelope> => {
    if (!isTrustedSender(event)) return { ok: false, error: { code: 'refused', message: 'calls are answered only for the app’s own page' } };
    if (!desk) return { ok: false, error: { code: 'unavailable', message: 'the Desk is not open yet' } };
    return dispatch(desk.handlers, channel, input);
  });

  const choice = chooseFactory({ argv: process.argv, env: process.env, cwd: process.cwd(), dataDir });
  try {
    if (choice.source === 'demo') await ensureDemoFactory(choice.factory);
    const binding = nativeBinding();
    desk = await Desk.open(choice.factory, {
      host: 'electron',
      ...(binding ? { nativeBinding: binding } : {}),
      chooseFolder: askForFactory,
      onFactoryOpened: rememberFactory,
      usePolling: process.env.LAYOVER_POLL === '1',
    });
  } catch (error) {
    const hint = /NODE_MODULE_VERSION|better_sqlite3|was compiled against/i.test(String(error))
      ? '\n\nThe SQLite addon is not built for Electron: run `npm run rebuild:electron`.'
      : '';
    dialog.showErrorBox('Layover Desk cannot start', `${(error as Error).message}${hint}`);
    app.exit(1);
    return;
  }
  unsubscribe = desk.onPush(onPush);
  mainWindow = createWindow();
  refreshBadge();
  warnIfWrongAddon();
}

/** The Desk reports a ledger it cannot open in `desk.info`; say what fixes the usual cause. */
function warnIfWrongAddon(): void {
  if (!desk) return;
  void dispatch(desk.handlers, 'desk.info', {}).then((envelope) => {
    if (!envelope.ok) return;
    const info = envelope.value as { factory_error: string | null; ledger_problem: { message: string } | null };
    const problem = `${info.factory_error ?? ''} ${info.ledger_problem?.message ?? ''}`;
    if (/NODE_MODULE_VERSION|was compiled against a different Node/i.test(problem)) {
      dialog.showErrorBox('Layover Desk', 'The SQLite addon is not built for Electron: run `npm run rebuild:electron` and start again.');
    }
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', focusWindow);
  app.on('window-all-closed', () => app.quit());
  app.on('activate', () => {
    if (!mainWindow && desk) mainWindow = createWindow();
  });
  // Close the ledger cleanly (watcher stopped, last transaction committed) before exiting.
  app.on('will-quit', (event) => {
    const closing = desk;
    if (!closing) return;
    event.preventDefault();
    desk = null;
    unsubscribe?.();
    unsubscribe = null;
    void Promise.resolve()
      .then(() => closing.close())
      .catch((error: unknown) => console.error(error))
      .finally(() => app.quit());
  });
  app.whenReady().then(start, (error: unknown) => {
    console.error(error);
    app.exit(1);
  });
}
