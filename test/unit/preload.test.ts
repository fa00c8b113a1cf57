/**
 * The preload bridge with `electron` mocked (importing the real module here would try the
 * runtime download): it exposes exactly `invoke` and `subscribe`, routes only the contract's
 * channels and pushes, and never hands out `ipcRenderer`.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';

const exposed = new Map<string, unknown>();
const invoke = vi.fn(async (..._args: unknown[]) => ({ ok: true, value: 'from main' }));
const pushHandlers: ((event: unknown, ...args: unknown[]) => void)[] = [];

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: {
    invoke: (...args: unknown[]) => invoke(...args),
    on: (channel: string, handler: (event: unknown, ...args: unknown[]) => void) => {
      if (channel === 'desk:push') pushHandlers.push(handler);
    },
  },
}));

interface Bridge {
  invoke(channel: unknown, input: unknown): Promise<unknown>;
  subscribe(name: unknown, listener: unknown): () => void;
}
let bridge: Bridge;

beforeAll(async () => {
  await import('../../electron/preload.js');
  bridge = exposed.get('layoverDesk') as Bridge;
});

describe('the preload bridge', () => {
  it('exposes one object with exactly invoke and subscribe', () => {
    expect([...exposed.keys()]).toEqual(['layoverDesk']);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'subscribe']);
  });

  it('sends a contract channel over the one IPC channel', async () => {
    await expect(bridge.invoke('desk.info', {})).resolves.toEqual({ ok: true, value: 'from main' });
    expect(invoke).toHaveBeenCalledWith('desk:call', 'desk.info', {});
  });

  it('refuses a channel outside the contract without reaching the main process', async () => {
    invoke.mockClear();
    for (const channel of ['desk:call', 'constructor', '__proto__', 42]) {
      await expect(bridge.invoke(channel, {})).resolves.toMatchObject({ ok: false, error: { code: 'bad_input' } });
    }
    expect(invoke).not.toHaveBeenCalled();
  });

  it('delivers pushes to the listeners of that name until they unsubscribe', () => {
    const seen: unknown[] = [];
    const off = bridge.subscribe('ledger.changed', (payload: unknown) => seen.push(payload));
    const other: unknown[] = [];
    bridge.subscribe('help.fatal', (payload: unknown) => other.push(payload));
    for (const handler of pushHandlers) handler({ sender: 'secret' }, 'ledger.changed', { reason: 'ingest' });
    for (const handler of pushHandlers) handler({}, 'not.a.push', { reason: 'x' });
    off();
    for (const handler of pushHandlers) handler({}, 'ledger.changed', { reason: 'after' });
    expect(seen).toEqual([{ reason: 'ingest' }]);
    expect(other).toEqual([]);
  });

  it('refuses to subscribe to a name outside the contract', () => {
    expect(() => bridge.subscribe('desk:push', () => {})).toThrow(/unknown push/);
    expect(() => bridge.subscribe('ledger.changed', 'not a function')).toThrow(/function/);
  });
});
