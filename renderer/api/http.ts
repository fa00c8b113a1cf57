/**
 * The browser-host door: calls are `POST /api/call/<channel>` returning the same envelope the
 * IPC bridge returns; pushes arrive over one EventSource on `/api/events`. The host's token
 * travels as an HttpOnly cookie, so same-origin requests carry it without the page seeing it.
 */
import {
  ApiError,
  PUSH_NAMES,
  unwrap,
  type CallInput,
  type CallOutput,
  type Channel,
  type DeskApi,
  type PushName,
  type PushPayload,
} from '../../shared/api.js';
import { checkedPush } from './push.js';

type Listener = (payload: unknown) => void;

export function httpApi(base = ''): DeskApi {
  const listeners = new Map<PushName, Set<Listener>>();
  const connected = new Set<() => void>();
  let source: EventSource | null = null;

  function ensureSource(): void {
    if (source || typeof EventSource === 'undefined') return;
    source = new EventSource(`${base}/api/events`);
    // Also after each reconnection the EventSource makes by itself (the host restarted, the
    // network dropped): pushes sent meanwhile are gone (DeskApi.onConnected).
    source.addEventListener('open', () => {
      for (const listener of [...connected]) listener();
    });
    for (const name of PUSH_NAMES) {
      source.addEventListener(name, (event) => {
        const set = listeners.get(name);
        if (!set || set.size === 0) return;
        const payload = checkedPush(name, () => JSON.parse((event as MessageEvent<string>).data));
        if (payload === undefined) return;
        for (const listener of [...set]) listener(payload);
      });
    }
  }

  return {
    async call<C extends Channel>(channel: C, input: CallInput<C>): Promise<CallOutput<C>> {
      let response: Response;
      try {
        response = await fetch(`${base}/api/call/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(input ?? {}),
          credentials: 'same-origin',
        });
      } catch (error) {
        throw new ApiError('unavailable', `The Desk is not reachable (${error instanceof Error ? error.message : String(error)})`);
      }
      let envelope: unknown;
      try {
        envelope = await response.json();
      } catch {
        throw new ApiError(
          response.status === 401 || response.status === 403 ? 'refused' : 'failure',
          `${channel}: the host answered ${response.status} ${response.statusText}`.trim(),
        );
      }
      return unwrap(channel, envelope);
    },
    on<P extends PushName>(name: P, listener: (payload: PushPayload<P>) => void): () => void {
      ensureSource();
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      const wrapped = listener as Listener;
      set.add(wrapped);
      return () => {
        set.delete(wrapped);
      };
    },
    onConnected(listener: () => void): () => void {
      ensureSource();
      connected.add(listener);
      return () => {
        connected.delete(listener);
      };
    },
  };
}

/** The host sets its auth cookie when the page loads with `?token=`; keep the token out of sight. */
export function stripTokenFromAddress(): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has('token')) return;
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}
