/**
 * The Electron door: the preload exposes `window.layoverDesk` (invoke + subscribe) and nothing
 * else. Every reply and push is validated against the contract before the window sees it.
 */
import {
  ApiError,
  unwrap,
  type CallInput,
  type CallOutput,
  type Channel,
  type DeskApi,
  type PushName,
  type PushPayload,
} from '../../shared/api.js';
import { checkedPush } from './push.js';

export interface PreloadBridge {
  invoke(channel: string, input: unknown): Promise<unknown>;
  subscribe(name: string, listener: (payload: unknown) => void): () => void;
}

declare global {
  interface Window {
    layoverDesk?: PreloadBridge;
  }
}

export function bridgeApi(bridge: PreloadBridge): DeskApi {
  return {
    async call<C extends Channel>(channel: C, input: CallInput<C>): Promise<CallOutput<C>> {
      let envelope: unknown;
      try {
        envelope = await bridge.invoke(channel, input);
      } catch (error) {
        throw new ApiError('unavailable', `${channel}: ${error instanceof Error ? error.message : String(error)}`);
      }
      return unwrap(channel, envelope);
    },
    on<P extends PushName>(name: P, listener: (payload: PushPayload<P>) => void): () => void {
      return bridge.subscribe(name, (payload) => {
        const parsed = checkedPush(name, () => payload);
        if (parsed !== undefined) listener(parsed);
      });
    },
  };
}
