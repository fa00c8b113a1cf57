/**
 * The Desk's pushes as server-sent events (`GET /api/events`): `event: <push name>` +
 * `data: <json>` per push, each checked against `shared/api.ts` before it goes out, so a push
 * that breaks the contract is logged and dropped, never sent. A comment line every
 * `heartbeatMs` keeps proxies and the browser from taking a quiet stream for a dead one.
 */
import type http from 'node:http';
import { parsePush } from '../../../shared/api.js';
import type { Subscribe } from './deskPort.js';
import { BASE_HEADERS } from './responses.js';

export const HEARTBEAT_MS = 15_000;

/** How long the browser waits before it reconnects a stream that dropped. */
const RETRY_MS = 2000;

export interface EventStreams {
  /** Turns the response into an event stream until the client goes away or `closeAll()`. */
  open(res: http.ServerResponse): void;
  /** Ends every open stream (the host is shutting down). */
  closeAll(): void;
}

export function eventStreams(subscribe: Subscribe, heartbeatMs: number, log: (message: string) => void): EventStreams {
  const streams = new Set<http.ServerResponse>();
  return {
    open(res) {
      res.writeHead(200, {
        ...BASE_HEADERS,
        'Content-Type': 'text/event-stream; charset=utf-8',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      res.write(`retry: ${RETRY_MS}\n: connected\n\n`);
      streams.add(res);
      const unsubscribe = subscribe((name, payload) => {
        let data: string;
        try {
          data = JSON.stringify(parsePush(name, payload));
        } catch (error) {
          log(`push ${String(name)} not passed on: ${(error as Error).message}`);
          return;
        }
        res.write(`event: ${name}\ndata: ${data}\n\n`);
      });
      const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
      heartbeat.unref();
      const stop = () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(res);
      };
      // The response closes when the client goes away or the host shuts down.
      res.on('close', stop);
    },
    closeAll() {
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}
