/**
 * The matching index may only narrow what sameness compares, never change its answer: whatever
 * `matchingLearnings` finds must be exactly what comparing the proposal with every learning of
 * its agent finds, also while other connections insert and delete learnings and after a rollback.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Learning } from '../../shared/domain.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { sameText } from '../../electron/rules/sameness.js';
import { openDb, type Db } from '../../electron/node/store/db.js';
import { insertLearning } from '../../electron/node/store/learnings.js';
import { applyProposal } from '../../electron/node/store/proposals.js';
import { forgetMatchIndex, matchingLearnings, syncMatchIndex } from '../../electron/node/store/matching.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { provisionalLearning } from '../support/learnings.js';

const SETTINGS = { ...DEFAULT_SETTINGS.learnings };

let dir: string;
let db: Db;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'layover-matching-'));
  db = openDb(path.join(dir, 'ledger.sqlite'));
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});


// A small vocabulary, so texts overlap a lot: every kind of near miss and match happens often.
// Weighted so a few words are in most texts (as "cache" or "before" are in real learnings).
const WORDS = ['cache', 'before', 'tests', 'docker', 'digest', 'branch', 'release', 'staging', 'token', 'schema', 'retry', 'mirror', '30', '90', 'v2'];
const WEIGHTS = WORDS.map((_, rank) => 1 / (rank + 1));
const TOTAL = WEIGHTS.reduce((a, b) => a + b, 0);
const FILLER = ['the', 'a', 'to', 'in', 'is'];

function word(next: () => number): string {
  let u = next() * TOTAL;
  for (let i = 0; i < WORDS.length; i++) {
    u -= WEIGHTS[i]!;
    if (u < 0) return WORDS[i]!;
  }
  return WORDS[WORDS.length - 1]!;
}

/** 1–12 words, with filler, case and punctuation noise, and now and then a negation. */
function text(next: () => number): string {
  const n = 1 + Math.floor(next() * 12);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const w = word(next);
    out.push(next() < 0.2 ? w.toUpperCase() : w);
    if (next() < 0.3) out.push(FILLER[Math.floor(next() * FILLER.length)]!);
  }
  if (next() < 0.1) out.splice(Math.floor(next() * out.length), 0, next() < 0.5 ? 'not' : "don't");
  return out.join(next() < 0.5 ? ' ' : ', ');
}

function learning(id: string, agent: string, t: string, at: string): Learning {
  return provisionalLearning({ id, agent, text: t }, at);
}

describe('candidate lookup', () => {
  it('candidate lookup finds every same text that a full comparison finds', () => {
    let compared = 0;
    let matched = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const next = seededRandom(seed);
      db.transaction(() => {
        db.exec('DELETE FROM learnings; DELETE FROM proposal_log;');
        for (let i = 0; i < 120; i++) {
          const agent = next() < 0.8 ? 'builder' : 'reviewer';
          const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
          // Half through the ledger's own path, half written directly so that the ledger also
          // holds texts sameness would have merged: the lookup must find all of them.
          syncMatchIndex(db);
          if (next() < 0.5) applyProposal(db, { agent, text: text(next), impact: 'low', at }, SETTINGS);
          else insertLearning(db, learning(`lrn_${seed}_${i}`, agent, text(next), at));
        }
        // Some go the way sweeps take them, so deletions are part of what the counts went through.
        db.prepare('DELETE FROM learnings WHERE rowid IN (SELECT rowid FROM learnings ORDER BY random() LIMIT 10)').run();
      })();
      const all = db.prepare("SELECT id, text FROM learnings WHERE agent = 'builder'").all() as { id: string; text: string }[];
      for (let round = 0; round < 150; round++) {
        const query = text(next);
        const expected = all.filter((l) => sameText(query, l.text)).map((l) => l.id).sort();
        const found = matchingLearnings(db, 'builder', query).map((l) => l.id).sort();
        if (found.join() !== expected.join()) expect({ seed, query, found }).toEqual({ seed, query, found: expected });
        compared++;
        if (expected.length > 0) matched++;
      }
    }
    // The property is only worth something if matches are common and misses are too.
    expect(matched).toBeGreaterThan(compared / 5);
    expect(matched).toBeLessThan(compared);
  });

  it('never looks at another agent’s learnings', () => {
    const at = '2026-01-01T00:00:00.000Z';
    insertLearning(db, learning('lrn_a', 'reviewer', 'cache the docker digest before tests', at));
    expect(matchingLearnings(db, 'builder', 'cache the docker digest before tests')).toEqual([]);
    expect(matchingLearnings(db, 'reviewer', 'Cache the Docker digest before the tests.').map((l) => l.id)).toEqual(['lrn_a']);
  });
});

describe('the matching index stays in step with the ledger', () => {
  const at = '2026-01-01T00:00:00.000Z';

  it('a learning another connection inserts is found by the next match', () => {
    expect(matchingLearnings(db, 'builder', 'cache the docker digest before tests')).toEqual([]);
    const other = openDb(path.join(dir, 'ledger.sqlite'));
    insertLearning(other, learning('lrn_other', 'builder', 'cache the docker digest before tests', at));
    other.close();
    expect(matchingLearnings(db, 'builder', 'Cache the Docker digest before the tests.').map((l) => l.id)).toEqual(['lrn_other']);
  });

  it('a learning another connection deletes is no longer found, and the rowid it frees is not confused with it', () => {
    insertLearning(db, learning('lrn_old', 'builder', 'cache the docker digest before tests', at));
    expect(matchingLearnings(db, 'builder', 'cache the docker digest before tests').map((l) => l.id)).toEqual(['lrn_old']);
    const other = openDb(path.join(dir, 'ledger.sqlite'));
    other.prepare("DELETE FROM learnings WHERE id = 'lrn_old'").run();
    // SQLite may hand the freed highest rowid to the next insert: the index must not take it for the old one.
    insertLearning(other, learning('lrn_new', 'builder', 'mirror the staging schema nightly', at));
    other.close();
    expect(matchingLearnings(db, 'builder', 'cache the docker digest before tests')).toEqual([]);
    expect(matchingLearnings(db, 'builder', 'mirror the staging schema nightly').map((l) => l.id)).toEqual(['lrn_new']);
  });

  it('a batch rolled back after it added a learning leaves no trace in the matches', () => {
    expect(() =>
      db.transaction(() => {
        insertLearning(db, learning('lrn_gone', 'builder', 'cache the docker digest before tests', at));
        expect(matchingLearnings(db, 'builder', 'cache the docker digest before tests').map((l) => l.id)).toEqual(['lrn_gone']);
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    forgetMatchIndex(db);
    expect(matchingLearnings(db, 'builder', 'cache the docker digest before tests')).toEqual([]);
  });
});
