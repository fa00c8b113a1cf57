import { parsePush, type PushName, type PushPayload } from '../../shared/api.js';

/**
 * A push as the window may see it: `read` gives the payload, checked against the contract; one
 * that cannot be read or does not fit is logged and dropped (undefined).
 */
export function checkedPush<P extends PushName>(name: P, read: () => unknown): PushPayload<P> | undefined {
  try {
    return parsePush(name, read());
  } catch (error) {
    console.error(error);
    return undefined;
  }
}
