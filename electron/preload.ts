/**
 * The only bridge between the sandboxed page and the main process. It exposes exactly
 *
 *   window.layoverDesk = {
 *     invoke(channel, input): Promise<Envelope>,
 *     subscribe(name, listener): () => void,
 *   }
 *
 * and never `ipcRenderer` itself, so the page can reach nothing but the contract's channels and
 * pushes. Names are checked here against `shared/api.ts`; payloads are validated in the main
 * process by `dispatch()` (calls) and before sending (pushes). Bundled by Vite into one CommonJS
 * file (`dist/preload/preload.cjs`): a sandboxed preload cannot load other local files.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { isChannel, isPushName, type Envelope, type PushName } from '../shared/api.js';

type Listener = (payload: unknown) => void;
const listeners = new Map<PushName, Set<Listener>>();

ipcRenderer.on('desk:push', (_event, name: unknown, payload: unknown) => {
  if (!isPushName(name)) return;
  for (const listener of listeners.get(name) ?? []) {
    try {
      listener(payload);
    } catch (error) {
      console.error(`layoverDesk: a ${name} listener failed`, error);
    }
  }
});

const bridge = {
  invoke(channel: unknown, input: unknown): Promise<Envelope> {
    if (!isChannel(channel)) {
      return Promise.resolve({ ok: false, error: { code: 'bad_input', message: `unknown channel ${JSON.stringify(channel)}` } });
    }
    return ipcRenderer.invoke('desk:call', channel, input) as Promise<Envelope>;
  },
  subscribe(name: unknown, listener: unknown): () => void {
    if (!isPushName(name)) throw new TypeError(`unknown push ${JSON.stringify(name)}`);
    if (typeof listener !== 'function') throw new TypeError('the listener must be a function');
    const set = listeners.get(name) ?? new Set<Listener>();
    listeners.set(name, set);
    const wrapped: Listener = (payload) => (listener as Listener)(payload);
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
    };
  },
};

contextBridge.exposeInMainWorld('layoverDesk', bridge);
