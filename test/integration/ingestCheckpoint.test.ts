/**
 * Where the write-ahead log is copied into the ledger file (docs/development.md#performance):
 * a catch-up lets up to INGEST_CHECKPOINT_PAGES pages build up in the log instead of a copy after
 * every batch, and keeps a larger page cache (store/pageCache.ts), putting the connection's own
 * settings back after; while the Desk runs, the copy a
 * person's decision hands back is made by the ingest worker, not on the window's event loop.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../shared/api.js';
import { Desk } from '../../electron/node/desk.js';
import { INGEST_CHECKPOINT_PAGES, ingestSync } from '../../electron/node/ingest.js';
import { WIDE_PAGE_CACHE_KIB } from '../../electron/node/store/pageCache.js';
import { ledgerPath, openDb } from '../../electron/node/store/db.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { proposed } from '../support/events.js';
import { appendEvents, eventually, tempFactory, type TempFactory } from '../support/factory.js';

/** SQLite's own threshold, which the hosts' and the CLI's connections keep outside a catch-up. */
const SQLITE_DEFAULT_PAGES = 1000;
const LEARNINGS = 3000;

const factories: TempFactory[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const f of factories.splice(0)) f.remove();
});

const hashOf = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A factory with `count` proposals of distinct texts by four agents. */
function factoryWithProposals(count: number): string {
  const factory = tempFactory('layover-checkpoint-');
  factories.push(factory);
  appendEvents(
    factory.dir,
    ...Array.from({ length: count }, (_, i) =>
      proposed({ at: new Date(Date.UTC(2026, 10, 20, 8, 0, i)).toISOString(), agent: `agent-${i % 4}`, text: `learning ${i}: keep the step ${i * 7} cache warm before job ${i * 13} runs` }),
    ),
  );
  return factory.dir;
}

/** Copies whatever the log holds into the ledger file (from a connection of its own) and says how many pages it held. */
function copyLog(file: string): number {
  const other = new Database(file);
  try {
    const [row] = other.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    return row!.log;
  } finally {
    other.close();
  }
}

describe('copying the write-ahead log into the ledger file', () => {
  it('a catch-up leaves more than SQLite\'s 1,000 pages in the log, not copied after each batch, and puts the connection\'s setting back', () => {
    const factory = factoryWithProposals(LEARNINGS);
    const db = openDb(ledgerPath(factory));
    try {
      copyLog(ledgerPath(factory));
      const before = hashOf(ledgerPath(factory));
      ingestSync(db, factory, { settings: DEFAULT_SETTINGS, export: false, maxLines: 100 });
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(SQLITE_DEFAULT_PAGES);
      expect(hashOf(ledgerPath(factory))).toBe(before);
      const pages = copyLog(ledgerPath(factory));
      expect(pages).toBeGreaterThan(SQLITE_DEFAULT_PAGES);
      expect(pages).toBeLessThan(INGEST_CHECKPOINT_PAGES);
      expect(hashOf(ledgerPath(factory))).not.toBe(before);
    } finally {
      db.close();
    }
  });

  it('a catch-up keeps a larger page cache while it runs and puts the connection\'s setting back', () => {
    const factory = factoryWithProposals(300);
    const db = openDb(ledgerPath(factory));
    try {
      const own = db.pragma('cache_size', { simple: true });
      const during: unknown[] = [];
      ingestSync(db, factory, { settings: DEFAULT_SETTINGS, export: false, maxLines: 100, onProgress: () => during.push(db.pragma('cache_size', { simple: true })) });
      expect(during.length).toBeGreaterThan(1);
      expect(new Set(during)).toEqual(new Set([-WIDE_PAGE_CACHE_KIB]));
      expect(db.pragma('cache_size', { simple: true })).toBe(own);
    } finally {
      db.close();
    }
  });

  it('while the Desk runs, a decision is copied into the ledger file by the ingest worker after it is answered', async () => {
    const factory = factoryWithProposals(200);
    const desk = await Desk.open(factory, { host: 'browser', osUser: 'tester' });
    cleanups.push(() => desk.close());
    const value = async (channel: string, input: unknown) => {
      const envelope = await dispatch(desk.handlers, channel, input);
      if (!envelope.ok) throw new Error(`${channel}: ${envelope.error.message}`);
      return envelope.value as Record<string, any>;
    };
    await eventually(async () => (await value('learnings.query', {})).total === 200 || undefined);
    await desk.idle();
    copyLog(ledgerPath(factory));
    const before = hashOf(ledgerPath(factory));
    const result = await value('learnings.reject', { target: { filter: { agent: 'agent-1' } }, by: 'Ana' });
    expect(result.changed).toHaveLength(50);
    await eventually(() => hashOf(ledgerPath(factory)) !== before || undefined);
    expect(fs.readFileSync(path.join(factory, '.layover', 'decisions.jsonl'), 'utf8')).toContain('"what":"reject"');
  });
});
