/**
 * The word index may only narrow what sameness compares, never change its answer: whatever
 * `matchingLearnings` finds through the index must be exactly what comparing the proposal with
 * every learning of its agent finds. And the per-word counts it picks the rarest words by must
 * stay right through every path that adds or removes index rows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Learning } from '../../shared/domain.js';
import { DEFAULT_SETTINGS } from '../../electron/rules/settings.js';
import { sameFingerprint, sameText, type Fingerprint } from '../../electron/rules/sameness.js';
import { openDb, type Db } from '../../electron/node/store/db.js';
import {
  applyProposal,
  insertLearning,
  matchingLearnings,
  sameCandidateBounds,
  sharedNeeded,
} from '../../electron/node/store/learnings.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';

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
  return {
    id,
    agent,
    text: t,
    impact: 'low',
    state: 'provisional',
    proposals: 1,
    rediscoveries: 0,
    echoes: 0,
    runs_left: 5,
    first_at: at,
    last_at: at,
    live_since: at,
    lapsed_at: null,
    decided_by: null,
    decided_at: null,
    reason: null,
  };
}

function recountedWords(): { agent: string; word: string; learnings: number }[] {
  return db
    .prepare('SELECT agent, word, count(*) AS learnings FROM learning_words GROUP BY agent, word ORDER BY agent, word')
    .all() as { agent: string; word: string; learnings: number }[];
}

function storedCounts(): { agent: string; word: string; learnings: number }[] {
  return db.prepare('SELECT agent, word, learnings FROM learning_word_counts ORDER BY agent, word').all() as {
    agent: string;
    word: string;
    learnings: number;
  }[];
}

describe('the lookup bounds', () => {
  it('sharedNeeded is exactly the overlap sameFingerprint needs, for every length and overlap', () => {
    const names = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const wrong: unknown[] = [];
    for (let p = 1; p <= 40; p++) {
      const proposal: Fingerprint = { words: names('w', p), negated: false };
      for (let q = 1; q <= 90; q++) {
        const needed = sharedNeeded(p, q);
        for (let s = 0; s <= Math.min(p, q); s++) {
          const other: Fingerprint = { words: [...names('w', s), ...names('x', q - s)], negated: false };
          const same = sameFingerprint(proposal, other);
          if (same !== (needed !== null && s >= needed)) wrong.push({ p, q, s, same, needed });
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a same text shares at least max(3, ⌈p/2⌉) words and has at most 2p (p ≤ 2: exactly p)', () => {
    for (let p = 1; p <= 200; p++) {
      const k = p <= 2 ? p : Math.max(3, Math.ceil(p / 2));
      expect(sameCandidateBounds(p)).toEqual({ minShared: k, minWords: k, maxWords: p <= 2 ? p : 2 * p });
    }
  });
});

describe('candidate lookup', () => {
  it('candidate lookup finds every same text that a full comparison finds', () => {
    let compared = 0;
    let matched = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const next = seededRandom(seed);
      db.transaction(() => {
        db.exec('DELETE FROM learnings; DELETE FROM proposals; DELETE FROM learning_history;');
        for (let i = 0; i < 120; i++) {
          const agent = next() < 0.8 ? 'builder' : 'reviewer';
          const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
          // Half through the ledger's own path, half written directly so that the ledger also
          // holds texts sameness would have merged: the lookup must find all of them.
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
      expect(storedCounts()).toEqual(recountedWords());
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

describe('the per-word counts', () => {
  it('stay equal to the word index through inserts, cascades, direct deletes and hand repairs', () => {
    const at = '2026-01-01T00:00:00.000Z';
    insertLearning(db, learning('lrn_1', 'builder', 'cache the docker digest before tests', at));
    insertLearning(db, learning('lrn_2', 'builder', 'cache the release branch before staging', at));
    insertLearning(db, learning('lrn_3', 'reviewer', 'cache the docker digest', at));
    expect(storedCounts()).toEqual(recountedWords());
    expect(storedCounts().find((r) => r.agent === 'builder' && r.word === 'cache')?.learnings).toBe(2);

    db.prepare("DELETE FROM learnings WHERE id = 'lrn_1'").run(); // cascade, as a sweep does
    expect(storedCounts()).toEqual(recountedWords());

    const rowid = (db.prepare("SELECT rowid FROM learnings WHERE id = 'lrn_2'").get() as { rowid: number }).rowid;
    db.prepare('DELETE FROM learning_words WHERE learning_rowid = ?').run(rowid); // as the sweep does first
    expect(storedCounts()).toEqual(recountedWords());

    // A repair by hand that leaves word_count out gets the learning's, and is counted once.
    const insert = db.prepare('INSERT OR IGNORE INTO learning_words (agent, word, learning_rowid) VALUES (?, ?, ?)');
    for (const w of ['cache', 'release', 'branch', 'before', 'staging', 'cache']) insert.run('builder', w, rowid);
    expect(storedCounts()).toEqual(recountedWords());
    expect(db.prepare('SELECT DISTINCT word_count FROM learning_words WHERE learning_rowid = ?').all(rowid)).toEqual([{ word_count: 5 }]);
    expect(matchingLearnings(db, 'builder', 'cache the release branch before staging').map((l) => l.id)).toEqual(['lrn_2']);

    db.exec('DELETE FROM learnings');
    expect(storedCounts()).toEqual([]);
  });
});
