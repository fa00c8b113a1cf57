/**
 * Ingest counts finished runs lazily (store/learningWrites.ts): a provisional learning is brought
 * up to date with the runs finished since only when it is read, written or due to lapse. These
 * tests ingest a seeded history with overlapping runs, starts out of time order and claims that
 * come back (echoes, lapses, rediscoveries, confirmations) and compare the ledger with the old
 * way: every finished run counted, one by one, against every provisional learning of its agent.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Learning } from '../../shared/domain.js';
import { ingestSync } from '../../electron/node/ingest.js';
import { ledgerPath, openDb, type Db } from '../../electron/node/store/db.js';
import { decideProposal, type FinishedRun } from '../../electron/rules/ledger.js';
import { parseSettingsToml, type Settings } from '../../electron/rules/settings.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';
import { appendEvents, tempFactory, writeSettings, type TempFactory } from '../support/factory.js';
import { proposed, runFinished, runStarted, type EventLine } from '../support/events.js';

const TOML = '[learnings]\nprovisional_runs = 2\nconfirm_after = 3\n';
const { settings } = parseSettingsToml(TOML) as { settings: Settings };
const AGENTS = ['builder', 'reviewer', 'scout'];
const CLAIMS = [
  'Warm the dependency cache before the matrix jobs start, or each job downloads it again.',
  'The payments sandbox rejects cards issued after 2025, so use the fixed test card numbers.',
  'Give the integration database its own port, the default one clashes with the dev server.',
  'Restart the queue worker after changing its environment, it reads settings only at start.',
  'The image resizer times out on files above 40 MB: split them before uploading them.',
  'Regenerate the API client after every schema change, the old one silently drops fields.',
  'Keep the feature flag service reachable in tests, a missing flag defaults to enabled.',
  'Run migrations before seeding, the seed script assumes the newest table layout exists.',
];
/** Lines per batch tried: one line a batch, batches that end anywhere, and the whole history in one. */
const BATCHES = [1, 7, 5000];

const factories: TempFactory[] = [];
afterAll(() => {
  for (const f of factories) f.remove();
});

/**
 * A seeded history: up to three open runs an agent, finished in any order; now and then a run
 * that starts at a time before events already written (a clock behind), or at exactly the time
 * of a proposal; proposals from a few claims, so that they come back.
 */
function history(seed: number, runs: number): EventLine[] {
  const next = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const open = new Map<string, string[]>(AGENTS.map((a) => [a, []]));
  const events: EventLine[] = [];
  let t = Date.parse('2026-04-01T01:00:00.000Z'); // a start behind the clock stays in the same day file
  let lastProposal = t;
  let started = 0;
  const time = (): string => new Date((t += 1000 + Math.floor(next() * 60_000))).toISOString();
  while (started < runs || [...open.values()].some((o) => o.length > 0)) {
    const agent = pick(AGENTS);
    const mine = open.get(agent)!;
    const u = next();
    if (started < runs && mine.length < 3 && u < 0.35) {
      const run = `run_${seed}_${started++}`;
      mine.push(run);
      const behind = next();
      const at = behind < 0.1 ? new Date(t - Math.floor(next() * 600_000)).toISOString() : behind < 0.15 ? new Date(lastProposal).toISOString() : time();
      events.push(runStarted({ at, run, agent }));
    } else if (mine.length > 0 && u < 0.7) {
      const run = mine.splice(Math.floor(next() * mine.length), 1)[0]!;
      events.push(runFinished({ at: time(), run, agent }));
    } else {
      const at = time();
      lastProposal = Date.parse(at);
      events.push(proposed({ at, agent, text: pick(CLAIMS), ...(mine.length > 0 ? { run: pick(mine) } : {}) }));
    }
  }
  return events;
}

interface Lapse {
  learning: string;
  run: string;
  at: string;
}

/**
 * The old way, replayed over the ledger's own proposal log (which learning each proposal made or
 * matched): at every finished run, run counting as it was written before (one run at a time), for every provisional
 * learning of the run's agent.
 */
function replayOneByOne(events: readonly EventLine[], log: { outcome: string; learning_id: string | null }[]): { learnings: Map<string, Learning>; lapses: Lapse[] } {
  const learnings = new Map<string, Learning>();
  const started = new Map<string, string>();
  const lapses: Lapse[] = [];
  let p = 0;
  for (const e of events) {
    if (e.type === 'run.started') started.set(String(e.run), e.at);
    else if (e.type === 'run.finished') {
      const run: FinishedRun = { agent: String(e.agent), started_at: started.get(String(e.run))!, finished_at: e.at };
      for (const l of learnings.values()) {
        if (l.agent !== run.agent || l.state !== 'provisional' || l.live_since === null || !(l.live_since < run.started_at)) continue;
        const runs_left = Math.max(0, l.runs_left - 1);
        if (runs_left > 0) learnings.set(l.id, { ...l, runs_left });
        else {
          learnings.set(l.id, { ...l, runs_left: 0, state: 'lapsed', lapsed_at: run.finished_at });
          lapses.push({ learning: l.id, run: String(e.run), at: e.at });
        }
      }
    } else if (e.type === 'learning.proposed') {
      const logged = log[p++]!;
      const match = logged.learning_id === null ? [] : [learnings.get(logged.learning_id)].filter((l) => l !== undefined);
      const proposal = { agent: String(e.agent), text: String(e.text), impact: 'medium' as const, at: e.at, run: null };
      const decision = decideProposal(proposal, match, settings.learnings, () => logged.learning_id!);
      expect(decision.outcome).toBe(logged.outcome);
      if (decision.outcome !== 'refused') learnings.set(decision.learning.id, decision.learning);
    }
  }
  return { learnings, lapses };
}

function ingested(events: readonly EventLine[], maxLines: number): Db {
  const factory = tempFactory('layover-counting-');
  factories.push(factory);
  writeSettings(factory.dir, TOML);
  appendEvents(factory.dir, ...events);
  const db = openDb(ledgerPath(factory.dir));
  const result = ingestSync(db, factory.dir, { settings, maxLines, export: false });
  expect(result.refused).toEqual([]);
  return db;
}

const FIELDS = 'id, agent, state, proposals, rediscoveries, echoes, runs_left, last_at, live_since, lapsed_at';

describe('a finished run counted lazily during ingest', () => {
  for (const seed of [3, 17, 29]) {
    it(`leaves every learning, lapse line and lapse time as counting each run against every provisional learning did (seed ${seed})`, () => {
      const events = history(seed, 150);
      for (const maxLines of BATCHES) {
        const db = ingested(events, maxLines);
        try {
          const log = db.prepare('SELECT outcome, learning_id FROM proposals ORDER BY seq').all() as { outcome: string; learning_id: string | null }[];
          const expected = replayOneByOne(events, log);
          const rows = db.prepare(`SELECT ${FIELDS} FROM learnings ORDER BY id`).all() as Learning[];
          expect(rows.length).toBeGreaterThan(5);
          const pick = (l: Learning) => Object.fromEntries(FIELDS.split(', ').map((f) => [f, l[f as keyof Learning]]));
          expect(rows).toEqual([...expected.learnings.values()].map(pick).sort((a, b) => (a.id! < b.id! ? -1 : 1)));
          const lapses = db.prepare("SELECT learning_id AS learning, run, at FROM learning_history WHERE kind = 'lapsed' ORDER BY seq").all() as Lapse[];
          expect(expected.lapses.length).toBeGreaterThan(10);
          // In the order they were written, per run (within one run the ledger keeps its agent's order).
          const byRun = (xs: Lapse[]) => xs.map((x) => `${x.run} ${x.at} ${x.learning}`).sort();
          expect(byRun(lapses)).toEqual(byRun(expected.lapses));
          expect(lapses.map((x) => x.run)).toEqual(expected.lapses.map((x) => x.run));
        } finally {
          db.close();
        }
      }
    });
  }
});
