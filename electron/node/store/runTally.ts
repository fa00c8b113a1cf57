/**
 * Worth a look's counts of finished runs (docs/rules.md#worth-a-look): a finished run counts once
 * for its agent (`agent_run_counts`) and once for each learning of its agent that its list of
 * given learnings names (`learning_run_counts`), with whether it succeeded. A sweep takes back what
 * the runs it deletes counted (`UNCOUNT_SWEPT_RUNS` in sweep.ts, `runs_uncount` in schema.ts).
 *
 * Why tallied and written once a batch. Until schema migration 14 a trigger counted each run at
 * its finish: it looked up every id of the run's list and added one to that learning's counts, a
 * dozen lookups and upserts for each run, which was a third of a catch-up's time (growing the
 * benchmark's 300,000-event ledger: 25.1–30.0 s with the trigger, 17.9–19.0 s with it dropped).
 * Yet an agent's runs are mostly given the same few learnings, the first of its learnings file,
 * which is written again only when its active learnings change. So during an ingest batch the
 * finished runs are tallied here, each agent's by the text of their list, and written when the
 * batch commits, in its transaction (learningWrites.ts): each learning a list names is looked up,
 * and its counts written, once a batch. Nothing reads these counts within a batch (only the
 * window's Worth a look and a learning's detail do), and a batch that rolls back drops its tally
 * with it, so the counts are what counting at each finish gave, also across kills.
 */
import type { Db } from './db.js';
import { stmt } from './statements.js';

/** A finished run as the counts see it: its agent, its list of given learnings as stored (JSON text), and whether it succeeded. */
export interface TalliedRun {
  agent: string;
  learnings: string;
  succeeded: boolean;
}

/** Runs and succeeded runs. */
type Counts = [runs: number, succeeded: number];

/**
 * Adds each tallied learning id's counts to the learning of the agent it names, if there is one.
 * The ids are read by a CROSS JOIN, which SQLite never reorders: each looked up by the learnings'
 * id, as the trigger it replaces did (left to itself the planner read every learning of the agent
 * instead). The `WHERE` also keeps the upsert's `ON CONFLICT` from being read as the join's.
 */
export const COUNT_LEARNINGS = `INSERT INTO learning_run_counts (learning_rowid, runs, succeeded)
  SELECT l.rowid, t.value ->> 2, t.value ->> 3 FROM json_each(?) t CROSS JOIN learnings l ON l.id = t.value ->> 1
  WHERE l.agent = t.value ->> 0
  ON CONFLICT (learning_rowid) DO UPDATE SET runs = runs + excluded.runs, succeeded = succeeded + excluded.succeeded`;

const COUNT_AGENTS = `INSERT INTO agent_run_counts (agent, runs, succeeded)
  SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true
  ON CONFLICT (agent) DO UPDATE SET runs = runs + excluded.runs, succeeded = succeeded + excluded.succeeded`;

/** Finished runs not written to the counts yet: per agent, its counts and those of each distinct list. */
export class RunTally {
  private readonly agents = new Map<string, { counts: Counts; lists: Map<string, Counts> }>();

  add(run: TalliedRun): void {
    let agent = this.agents.get(run.agent);
    if (!agent) this.agents.set(run.agent, (agent = { counts: [0, 0], lists: new Map() }));
    const succeeded = run.succeeded ? 1 : 0;
    agent.counts[0]++;
    agent.counts[1] += succeeded;
    const list = agent.lists.get(run.learnings);
    if (list) {
      list[0]++;
      list[1] += succeeded;
    } else agent.lists.set(run.learnings, [1, succeeded]);
  }

  /**
   * Adds the tally to the ledger's counts (inside the caller's transaction) and empties it. Each
   * distinct list is read once, and its ids' counts summed per agent, so a learning is looked up
   * once however many lists name it: runs given up to 25 of their agent's learnings mostly name
   * a first few of the same ones, in lists of different lengths. A list names each id once: a
   * run's start keeps it so (runs.ts).
   */
  write(db: Db): void {
    if (this.agents.size === 0) return;
    const agents: [string, number, number][] = [];
    const learnings: [string, string, number, number][] = [];
    for (const [agent, { counts, lists }] of this.agents) {
      agents.push([agent, ...counts]);
      const ofAgent = new Map<string, Counts>();
      for (const [list, [runs, succeeded]] of lists) {
        for (const id of JSON.parse(list) as string[]) {
          const sum = ofAgent.get(id);
          if (sum) {
            sum[0] += runs;
            sum[1] += succeeded;
          } else ofAgent.set(id, [runs, succeeded]);
        }
      }
      for (const [id, [runs, succeeded]] of ofAgent) learnings.push([agent, id, runs, succeeded]);
    }
    this.agents.clear();
    stmt(db, COUNT_LEARNINGS).run(JSON.stringify(learnings));
    stmt(db, COUNT_AGENTS).run(JSON.stringify(agents));
  }
}
