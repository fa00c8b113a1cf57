/**
 * Reading a request body with a size limit. The host is reachable by anything on the machine,
 * so a body is never buffered past the limit: a declared `Content-Length` over it is refused
 * before reading, and a body that grows past it while streaming is refused at that point.
 */
import type http from 'node:http';

/** The largest API call body: far above any call of `shared/api.ts`, far below harm. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The body was (or declared it would be) larger than the limit; the caller answers 413. */
export class BodyTooLarge extends Error {}

/** The whole body as UTF-8 text; rejects with `BodyTooLarge` past `limit` bytes. */
export function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.pause();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
