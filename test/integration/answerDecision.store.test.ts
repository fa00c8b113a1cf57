/**
 * A person's decision is answered before SQLite's checkpoint copies it into the ledger file
 * (electron/node/answerDecision.ts): the answer does not wait for that copy, the checkpoint handed
 * back does it, and the automatic checkpoint is on again afterwards, also when the decision fails.
 * While it runs, the connection keeps a wider page cache (store/pageCache.ts), and its own size
 * is put back after, also when the decision fails.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { answerDecision } from '../../electron/node/answerDecision.js';
import { ledgerPath, type Db } from '../../electron/node/store/db.js';
import { insertLearning } from '../../electron/node/store/learnings.js';
import { decideLearnings } from '../../electron/node/store/decisions.js';
import { WIDE_PAGE_CACHE_KIB } from '../../electron/node/store/pageCache.js';
import { freshLedgerEachTest } from '../support/ledger.js';

let db: Db;
let factory: string;
/** Small, so that the decision below leaves more pages than this in the log. */
const CHECKPOINT_PAGES = 20;
const LEARNINGS = 400;
let ids: string[];

freshLedgerEachTest('layover-answer-', (ledger) => ({ db, factory } = ledger));
beforeEach(() => {
  ids = db.transaction(() =>
    Array.from({ length: LEARNINGS }, (_, i) => {
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      const id = `lrn_${String(i).padStart(4, '0')}`;
      insertLearning(db, {
        id, agent: `agent-${i % 5}`, text: `learning number ${i} `.repeat(10), impact: 'medium', state: 'provisional', proposals: 1, rediscoveries: 0,
        echoes: 0, runs_left: 20, first_at: at, last_at: at, live_since: at, lapsed_at: null, decided_by: null, decided_at: null, reason: null,
      });
      return id;
    }),
  )();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
});

const ledgerFile = () => createHash('sha256').update(fs.readFileSync(ledgerPath(factory))).digest('hex');
const reject = (all: string[]) => () => decideLearnings(db, 'reject', { ids: all }, { by: 'Ana', now: new Date('2026-06-01T10:00:00.000Z') });

describe('a person decision, as the hosts answer it', () => {
  it('is answered with its journal line and export files written before the checkpoint copies it into the ledger file; the checkpoint handed back does that', () => {
    const before = ledgerFile();
    let checkpoint: (() => void) | undefined;
    const result = answerDecision(db, factory, 25, reject(ids), (later) => (checkpoint = later));
    expect(result.changed).toHaveLength(LEARNINGS);
    expect(fs.readFileSync(`${factory}/.layover/decisions.jsonl`, 'utf8')).toContain('"what":"reject"');
    expect(fs.existsSync(`${factory}/learnings/agent-0.json`)).toBe(true);
    expect(ledgerFile()).toBe(before);
    checkpoint!();
    expect(ledgerFile()).not.toBe(before);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(CHECKPOINT_PAGES);
  });

  it('made without it, is copied into the ledger file by its own commit (what the answer no longer waits for)', () => {
    const before = ledgerFile();
    reject(ids)();
    expect(ledgerFile()).not.toBe(before);
  });

  it('that fails turns the automatic checkpoint back on and still hands back the checkpoint', () => {
    let handed = false;
    expect(() =>
      answerDecision(db, factory, 25, () => decideLearnings(db, 'reject', { ids }, { by: ' ', now: new Date() }), () => (handed = true)),
    ).toThrow('a decision needs the name of the person making it');
    expect(handed).toBe(true);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(CHECKPOINT_PAGES);
  });

  it('runs with the wider page cache and puts the connection\'s own size back after', () => {
    const own = db.pragma('cache_size', { simple: true });
    let during: unknown;
    answerDecision(db, factory, 25, () => {
      during = db.pragma('cache_size', { simple: true });
      return reject(ids)();
    }, () => {});
    expect(during).toBe(-WIDE_PAGE_CACHE_KIB);
    expect(db.pragma('cache_size', { simple: true })).toBe(own);
  });

  it('that fails still puts the connection\'s own page cache size back', () => {
    const own = db.pragma('cache_size', { simple: true });
    expect(() => answerDecision(db, factory, 25, () => decideLearnings(db, 'reject', { ids }, { by: ' ', now: new Date() }), () => {})).toThrow();
    expect(db.pragma('cache_size', { simple: true })).toBe(own);
  });

  it('on a connection whose page cache is already wider keeps that cache as it is', () => {
    db.pragma(`cache_size = -${WIDE_PAGE_CACHE_KIB * 2}`);
    let during: unknown;
    answerDecision(db, factory, 25, () => {
      during = db.pragma('cache_size', { simple: true });
      return reject(ids)();
    }, () => {});
    expect(during).toBe(-WIDE_PAGE_CACHE_KIB * 2);
    expect(db.pragma('cache_size', { simple: true })).toBe(-WIDE_PAGE_CACHE_KIB * 2);
  });
});
