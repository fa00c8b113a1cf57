/**
 * The headers every response of the browser host carries, and the small senders built on them.
 * The page shows texts that agents wrote, so each response locks the browser down on its own:
 * the CSP, no type sniffing, no referrer, no framing, no sharing across origins, no caching.
 */
import type http from 'node:http';
import type { Envelope } from '../../../shared/api.js';
import { CSP } from './csp.js';

export const BASE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

function send(res: http.ServerResponse, status: number, body: string, type: string, extra: Record<string, string> = {}): void {
  const buffer = Buffer.from(body, 'utf8');
  res.writeHead(status, { ...BASE_HEADERS, 'Content-Type': type, 'Content-Length': String(buffer.length), ...extra });
  res.end(buffer);
}

export function sendText(res: http.ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  send(res, status, `${text}\n`, 'text/plain; charset=utf-8', extra);
}

export function sendEnvelope(res: http.ServerResponse, status: number, envelope: Envelope, extra: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(envelope), 'application/json; charset=utf-8', extra);
}

export function errorEnvelope(code: 'bad_input' | 'failure' | 'unavailable', message: string): Envelope {
  return { ok: false, error: { code, message } };
}
