/**
 * The ledger's schema, as an ordered list of migrations.
 *
 * The version is SQLite's `user_version`. Migrations only ever append: a shipped migration is
 * never edited, because a ledger that already ran it would silently differ from a new one.
 * A ledger whose version is newer than the last migration here was written by a newer Desk;
 * it is refused, never rewritten (see `db.ts`), so an older Desk cannot damage it.
 *
 * Times are RFC 3339 UTC strings (`2026-11-29T20:33:37.000Z`), which sort as text. `day` columns
 * hold the UTC day (`2026-11-29`) that retention sweeps delete a whole day of at a time.
 */
/**
 * The history code of a lapse (migration 8): the partial index of lapses per day is written with
 * it, and a query can only use that index by naming the same constant. Never changed.
 */
export const LAPSED_KIND = 3;

/**
 * The triggers that keep Worth a look's finished-run counts (migration 10, where they are
 * explained), as migration 12 puts them back on the rebuilt runs table: one text, so the two
 * cannot drift. Migration 13 replaces them, with the table of links they read.
 */
const RUN_COUNT_TRIGGERS = `
  CREATE TRIGGER runs_count_finished AFTER UPDATE OF finished_at ON runs
    WHEN old.finished_at IS NULL AND new.finished_at IS NOT NULL BEGIN
    INSERT INTO learning_run_counts (learning_rowid, runs, succeeded)
      SELECT learning_rowid, 1, coalesce(new.outcome = 'succeeded', 0) FROM run_given WHERE run_seq = new.seq
      ON CONFLICT (learning_rowid) DO UPDATE SET runs = runs + 1, succeeded = succeeded + excluded.succeeded;
    INSERT INTO agent_run_counts (agent, runs, succeeded) VALUES (new.agent, 1, coalesce(new.outcome = 'succeeded', 0))
      ON CONFLICT (agent) DO UPDATE SET runs = runs + 1, succeeded = succeeded + excluded.succeeded;
  END;
  CREATE TRIGGER runs_uncount AFTER DELETE ON runs WHEN old.finished_at IS NOT NULL BEGIN
    UPDATE agent_run_counts SET runs = runs - 1, succeeded = succeeded - coalesce(old.outcome = 'succeeded', 0) WHERE agent = old.agent;
  END;
  CREATE TRIGGER run_given_uncount AFTER DELETE ON run_given BEGIN
    UPDATE learning_run_counts SET runs = runs - 1,
      succeeded = succeeded - coalesce((SELECT outcome = 'succeeded' FROM runs WHERE seq = old.run_seq), 0)
    WHERE learning_rowid = old.learning_rowid
      AND EXISTS (SELECT 1 FROM runs WHERE seq = old.run_seq AND finished_at IS NOT NULL);
  END;
`;

export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE learnings (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    agent TEXT NOT NULL,
    text TEXT NOT NULL,
    impact TEXT NOT NULL CHECK (impact IN ('low', 'medium', 'high')),
    state TEXT NOT NULL CHECK (state IN ('provisional', 'confirmed', 'lapsed', 'rejected')),
    proposals INTEGER NOT NULL DEFAULT 1,
    rediscoveries INTEGER NOT NULL DEFAULT 0,
    echoes INTEGER NOT NULL DEFAULT 0,
    runs_left INTEGER NOT NULL,
    first_at TEXT NOT NULL,
    last_at TEXT NOT NULL,
    live_since TEXT,
    lapsed_at TEXT,
    decided_by TEXT,
    decided_at TEXT,
    reason TEXT,
    negated INTEGER NOT NULL,
    word_count INTEGER NOT NULL
  );
  CREATE INDEX learnings_agent_state ON learnings (agent, state, last_at);
  CREATE INDEX learnings_state_last ON learnings (state, last_at);
  CREATE INDEX learnings_last ON learnings (last_at);

  -- The word index sameness finds candidates through: a proposal is compared only with the
  -- agent's learnings that hold enough of its rarest significant words and have a length that
  -- could be the same claim, never with all of them (see matchingLearnings in learnings.ts).
  -- word_count is the learning's (it never changes: a learning's text never does); keyed after
  -- the word so a lookup takes only the lengths it needs. An insert that leaves word_count out
  -- (a repair by hand) gets it from the learning.
  CREATE TABLE learning_words (
    agent TEXT NOT NULL,
    word TEXT NOT NULL,
    word_count INTEGER NOT NULL DEFAULT NULL,
    learning_rowid INTEGER NOT NULL REFERENCES learnings (rowid) ON DELETE CASCADE,
    PRIMARY KEY (agent, word, word_count, learning_rowid)
  ) WITHOUT ROWID;
  CREATE INDEX learning_words_learning ON learning_words (learning_rowid);
  CREATE TRIGGER learning_words_fill_count BEFORE INSERT ON learning_words WHEN new.word_count IS NULL BEGIN
    INSERT INTO learning_words (agent, word, word_count, learning_rowid)
      VALUES (new.agent, new.word, (SELECT word_count FROM learnings WHERE rowid = new.learning_rowid), new.learning_rowid);
    SELECT RAISE(IGNORE);
  END;

  -- How many of an agent's learnings hold each word, so matching can look candidates up through
  -- a proposal's rarest words. Kept by triggers on learning_words rather than by the code that
  -- inserts learnings, so that every path that adds or removes index rows (a new learning, a
  -- sweep deleting lapsed learnings, the foreign-key cascade, a repair by hand) keeps it right.
  -- A count that reaches zero is deleted: a missing row means no learning holds the word.
  CREATE TABLE learning_word_counts (
    agent TEXT NOT NULL,
    word TEXT NOT NULL,
    learnings INTEGER NOT NULL,
    PRIMARY KEY (agent, word)
  ) WITHOUT ROWID;
  CREATE TRIGGER learning_words_count_insert AFTER INSERT ON learning_words BEGIN
    INSERT INTO learning_word_counts (agent, word, learnings) VALUES (new.agent, new.word, 1)
      ON CONFLICT (agent, word) DO UPDATE SET learnings = learnings + 1;
  END;
  CREATE TRIGGER learning_words_count_delete AFTER DELETE ON learning_words BEGIN
    UPDATE learning_word_counts SET learnings = learnings - 1 WHERE agent = old.agent AND word = old.word;
    DELETE FROM learning_word_counts WHERE agent = old.agent AND word = old.word AND learnings <= 0;
  END;
  CREATE TRIGGER learning_words_count_update AFTER UPDATE OF agent, word ON learning_words BEGIN
    UPDATE learning_word_counts SET learnings = learnings - 1 WHERE agent = old.agent AND word = old.word;
    DELETE FROM learning_word_counts WHERE agent = old.agent AND word = old.word AND learnings <= 0;
    INSERT INTO learning_word_counts (agent, word, learnings) VALUES (new.agent, new.word, 1)
      ON CONFLICT (agent, word) DO UPDATE SET learnings = learnings + 1;
  END;

  -- Full-text search for the operator's search box.
  CREATE VIRTUAL TABLE learnings_fts USING fts5 (
    text, content = 'learnings', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER learnings_fts_insert AFTER INSERT ON learnings BEGIN
    INSERT INTO learnings_fts (rowid, text) VALUES (new.rowid, new.text);
  END;
  CREATE TRIGGER learnings_fts_delete AFTER DELETE ON learnings BEGIN
    INSERT INTO learnings_fts (learnings_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
  END;
  CREATE TRIGGER learnings_fts_update AFTER UPDATE OF text ON learnings BEGIN
    INSERT INTO learnings_fts (learnings_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO learnings_fts (rowid, text) VALUES (new.rowid, new.text);
  END;

  -- Every state change of a learning, with who and why when a person made it. the undo column holds
  -- the fields a person's decision overwrote (JSON), so the decision can be undone exactly.
  CREATE TABLE learning_history (
    seq INTEGER PRIMARY KEY,
    learning_id TEXT NOT NULL,
    at TEXT NOT NULL,
    day TEXT NOT NULL,
    kind TEXT NOT NULL,
    by TEXT,
    reason TEXT,
    run TEXT,
    state_before TEXT,
    state_after TEXT NOT NULL,
    undo TEXT
  );
  CREATE INDEX learning_history_learning ON learning_history (learning_id, seq);
  CREATE INDEX learning_history_day ON learning_history (day, kind);

  CREATE TABLE proposals (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    day TEXT NOT NULL,
    agent TEXT NOT NULL,
    run TEXT,
    text TEXT NOT NULL,
    impact TEXT NOT NULL,
    outcome TEXT NOT NULL,
    learning_id TEXT,
    reason TEXT
  );
  CREATE INDEX proposals_day ON proposals (day);
  CREATE INDEX proposals_agent ON proposals (agent, seq);
  CREATE INDEX proposals_outcome ON proposals (outcome, seq);

  CREATE TABLE runs (
    run TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    agent TEXT NOT NULL,
    chain TEXT NOT NULL,
    workflow TEXT NOT NULL,
    flags TEXT NOT NULL,
    routes TEXT NOT NULL,
    learnings TEXT NOT NULL,
    answers TEXT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    outcome TEXT,
    day TEXT NOT NULL
  );
  CREATE INDEX runs_agent ON runs (agent, seq);
  -- The next run's seq is max(seq) + 1: without this index every run.started scanned all runs.
  CREATE INDEX runs_seq ON runs (seq);
  CREATE INDEX runs_chain ON runs (chain, seq);
  CREATE INDEX runs_day ON runs (day);

  -- Which learnings each run was given: "what was it told when it did that?"
  CREATE TABLE run_learnings (
    learning_id TEXT NOT NULL,
    run TEXT NOT NULL,
    PRIMARY KEY (learning_id, run)
  ) WITHOUT ROWID;
  CREATE INDEX run_learnings_run ON run_learnings (run);

  CREATE TABLE chains (
    chain TEXT PRIMARY KEY,
    agent TEXT NOT NULL,
    answers TEXT,
    workflow TEXT,
    flags TEXT,
    routes TEXT,
    created_at TEXT NOT NULL
  );

  CREATE TABLE help_requests (
    id TEXT PRIMARY KEY,
    agent TEXT NOT NULL,
    run TEXT NOT NULL,
    chain TEXT NOT NULL,
    fatal INTEGER NOT NULL,
    category TEXT,
    question TEXT NOT NULL,
    at TEXT NOT NULL,
    day TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'answered', 'resolved')),
    workflow TEXT,
    flags TEXT,
    routes TEXT,
    answer TEXT,
    responder TEXT,
    answered_at TEXT,
    continued_as TEXT
  );
  CREATE INDEX help_requests_state ON help_requests (state, fatal, at);
  CREATE INDEX help_requests_chain ON help_requests (chain);
  CREATE INDEX help_requests_run ON help_requests (run);
  CREATE INDEX help_requests_day ON help_requests (day);

  -- Files the Desk must write after a commit (chain files for replies). A row is deleted only
  -- once its file is on disk, so a crash in between re-writes it at the next start.
  CREATE TABLE outbox (
    seq INTEGER PRIMARY KEY,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at TEXT NOT NULL
  );

  -- How far each events file has been read; committed with the effects of the lines read.
  CREATE TABLE event_files (
    name TEXT PRIMARY KEY,
    offset INTEGER NOT NULL,
    lines INTEGER NOT NULL
  );

  -- Agents whose learnings/<agent>.json must be re-written: marked in the same transaction as the
  -- change, cleared once the file is written, so a crash in between re-exports at the next start.
  CREATE TABLE export_pending (
    agent TEXT PRIMARY KEY
  );

  CREATE TABLE refused_lines (
    seq INTEGER PRIMARY KEY,
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    reason TEXT NOT NULL,
    excerpt TEXT NOT NULL,
    seen_at TEXT NOT NULL,
    day TEXT NOT NULL
  );

  CREATE TABLE sweeps (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    report TEXT NOT NULL
  );

  -- What the Desk remembers about itself between processes, by key (see store/meta.ts): e.g. the
  -- last good settings, in force while layover.toml is refused.
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 2: matching moves to an in-memory index (store/matchIndex.ts), so the word index, its counts
  // and the two columns only it read go; they were most of the ledger's size and of ingest's
  // cost. What the in-memory index needs from the ledger to stay in step with other processes is
  // the highest rowid (free) and a log of deleted learnings, kept here by a trigger.
  `
  DROP TRIGGER learning_words_fill_count;
  DROP TRIGGER learning_words_count_insert;
  DROP TRIGGER learning_words_count_delete;
  DROP TRIGGER learning_words_count_update;
  DROP TABLE learning_word_counts;
  DROP TABLE learning_words;
  ALTER TABLE learnings DROP COLUMN negated;
  ALTER TABLE learnings DROP COLUMN word_count;
  -- Stamped at every write of a learning (NEXT_CHANGED in learningRows.ts): what the window's
  -- in-memory list re-reads to stay current (learningList.ts).
  ALTER TABLE learnings ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX learnings_changed ON learnings (changed);
  -- A sweep asks for the lapsed learnings past their keep_lapsed_days only (sweep.ts).
  CREATE INDEX learnings_lapsed_clock ON learnings (coalesce(lapsed_at, last_at)) WHERE state = 'lapsed';
  -- The window's list sorts and counts in memory now (learningList.ts): these indexes only served
  -- it, and cost every insert and some 75 bytes a learning.
  DROP INDEX learnings_state_last;
  DROP INDEX learnings_last;
  -- A learning's search entry is written by insertLearning (learnings.ts) itself: through this
  -- trigger the same insert cost about three times as much, the largest single cost of ingest.
  DROP TRIGGER learnings_fts_insert;
  -- Every deleted learning, so in-memory views of other connections can follow (deletions.ts).
  CREATE TABLE learning_deletions (
    seq INTEGER PRIMARY KEY,
    learning_rowid INTEGER NOT NULL,
    agent TEXT NOT NULL
  );
  CREATE TRIGGER learnings_log_deleted AFTER DELETE ON learnings BEGIN
    INSERT INTO learning_deletions (learning_rowid, agent) VALUES (old.rowid, old.agent);
  END;
  `,
  // 3: the decisions journal (docs/factory-format.md#the-decisions-journal;
  // electron/node/journal.ts). Every person decision, as the line `.layover/decisions.jsonl` holds
  // for it, inserted in the transaction that commits the decision; `written` once the line is
  // appended to the file. The highest seq in a safety copy is the last decision it holds: a restore
  // replays the journal after it.
  `
  CREATE TABLE decision_journal (
    seq INTEGER PRIMARY KEY,
    line TEXT NOT NULL,
    written INTEGER NOT NULL DEFAULT 0
  );
  `,
  // 4: a day file is only ever appended to (docs/factory-format.md#reading-events; eventFiles.ts):
  // the seal on what was read of it, why it is refused when it no longer carries it, and whether it
  // is being read again.
  `
  ALTER TABLE event_files ADD COLUMN seal TEXT;
  ALTER TABLE event_files ADD COLUMN refused TEXT;
  ALTER TABLE event_files ADD COLUMN rereading INTEGER NOT NULL DEFAULT 0;
  `,
  // 5: which learnings each run was given, by integer keys (a learning's rowid, a run's seq)
  // instead of two texts: it was the largest table of the ledger (with its index, four tenths of
  // it) and a good share of ingest. Ids the ledger does not know link nothing (no learning can be
  // asked about); the run's own list (runs.learnings) keeps every id it was given. A deleted
  // learning takes its links along, so a rowid used again never inherits another's runs.
  `
  CREATE TABLE run_given (
    learning_rowid INTEGER NOT NULL,
    run_seq INTEGER NOT NULL,
    PRIMARY KEY (learning_rowid, run_seq)
  ) WITHOUT ROWID;
  CREATE INDEX run_given_run ON run_given (run_seq);
  INSERT OR IGNORE INTO run_given (learning_rowid, run_seq)
    SELECT l.rowid, r.seq FROM run_learnings g JOIN learnings l ON l.id = g.learning_id JOIN runs r ON r.run = g.run;
  DROP TABLE run_learnings;
  DROP TRIGGER learnings_log_deleted;
  CREATE TRIGGER learnings_log_deleted AFTER DELETE ON learnings BEGIN
    INSERT INTO learning_deletions (learning_rowid, agent) VALUES (old.rowid, old.agent);
    DELETE FROM run_given WHERE learning_rowid = old.rowid;
  END;
  `,
  // 6: a sweep asks, for every chain past the horizon, whether a request was answered into it;
  // without this index each question read every help request.
  `
  CREATE INDEX help_requests_continued ON help_requests (continued_as) WHERE continued_as IS NOT NULL;
  `,
  // 7: a reply that changes inherited flags on purpose records which, and what they were
  // (docs/rules.md#help-requests-and-replies): a JSON object of key -> inherited value (null: the key was not set). NULL when the
  // reply changed nothing.
  `
  ALTER TABLE help_requests ADD COLUMN flags_changed TEXT;
  `,
  // 8: the ledger at about 1 KB a learning (issue 9): the proposal log and the history were most
  // of it, repeating texts and names the ledger holds once elsewhere. Both move to tables that
  // keep each thing once, behind views with the old names and columns, so every reader (the
  // activity views, a learning's detail, undo, the tests, a person with the sqlite3 shell) reads
  // what it read before.
  // - The proposal log no longer repeats the text and impact of the learning a proposal made
  //   (NULL, read from the learning), nor its day (the first ten characters of its time). A
  //   learning's text and impact never change, and a learning deleted while its proposal stays
  //   gives the proposal both back first (the delete trigger), so the log reads the same whatever
  //   goes. Indexed by time, which also finds a learning's own proposal (same time, same id).
  // - The history names its learning by rowid, its kind and states by small codes (the two code
  //   tables, never changed: a code's meaning is fixed here), and its day from its time; a
  //   reason that is its kind's usual one (every lapse "ran out of runs") is kept once, there. A
  //   deleted learning takes its history along (the trigger), so a rowid used again never
  //   inherits another's. Lapses per day, the one count by kind, have a partial index of their own
  //   (`LAPSED_KIND`).
  // - No index names seq: every index ends with the rowid, which seq is, so one on (agent) is
  //   already in (agent, seq) order, without keeping seq twice.
  // - A learning's agent and state are looked up together (provisional ones of an agent, those a
  //   run is given, an agent's for the matching index), never sorted by last_at through this
  //   index: the column went.
  // - The search index keeps no token counts per text (columnsize = 0): only ranking reads them,
  //   and search only ever asks which learnings match (learningList.ts). detail = column would
  //   save more but cannot answer phrases, which a searched word with an underscore is.
  `
  CREATE TABLE history_kinds (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, usual_reason TEXT);
  INSERT INTO history_kinds (code, name, usual_reason) VALUES (1, 'proposed', NULL), (2, 'echoed', NULL),
    (${LAPSED_KIND}, 'lapsed', 'ran out of runs'), (4, 'rediscovered', NULL), (5, 'confirmed', NULL), (6, 'rejected', NULL),
    (7, 'kept', NULL), (8, 'undone', NULL);
  CREATE TABLE learning_states (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
  INSERT INTO learning_states (code, name) VALUES (1, 'provisional'), (2, 'confirmed'), (3, 'lapsed'), (4, 'rejected');

  CREATE TABLE learning_changes (
    seq INTEGER PRIMARY KEY,
    learning_rowid INTEGER NOT NULL,
    at TEXT NOT NULL,
    kind INTEGER NOT NULL,
    by TEXT,
    reason TEXT,
    run TEXT,
    state_before INTEGER,
    state_after INTEGER NOT NULL,
    undo TEXT
  );
  INSERT INTO learning_changes (seq, learning_rowid, at, kind, by, reason, run, state_before, state_after, undo)
    SELECT h.seq, l.rowid, h.at, k.code, h.by, nullif(h.reason, k.usual_reason), h.run, b.code, a.code, h.undo
    FROM learning_history h JOIN learnings l ON l.id = h.learning_id JOIN history_kinds k ON k.name = h.kind
    LEFT JOIN learning_states b ON b.name = h.state_before JOIN learning_states a ON a.name = h.state_after;
  DROP TABLE learning_history;
  CREATE INDEX learning_changes_learning ON learning_changes (learning_rowid);
  CREATE INDEX learning_changes_lapsed ON learning_changes (substr(at, 1, 10)) WHERE kind = ${LAPSED_KIND};
  CREATE VIEW learning_history AS
    SELECT h.seq, l.id AS learning_id, h.at, substr(h.at, 1, 10) AS day, k.name AS kind, h.by,
      coalesce(h.reason, k.usual_reason) AS reason, h.run,
      b.name AS state_before, a.name AS state_after, h.undo
    FROM learning_changes h JOIN learnings l ON l.rowid = h.learning_rowid JOIN history_kinds k ON k.code = h.kind
    LEFT JOIN learning_states b ON b.code = h.state_before JOIN learning_states a ON a.code = h.state_after;
  -- History written by hand, by its names (addHistory in learnings.ts writes the table directly,
  -- with these codes): an unknown learning, kind or state leaves a NULL in a NOT NULL column, and
  -- the insert fails.
  CREATE TRIGGER learning_history_insert INSTEAD OF INSERT ON learning_history BEGIN
    INSERT INTO learning_changes (learning_rowid, at, kind, by, reason, run, state_before, state_after, undo)
    VALUES ((SELECT rowid FROM learnings WHERE id = new.learning_id), new.at,
      (SELECT code FROM history_kinds WHERE name = new.kind), new.by,
      nullif(new.reason, (SELECT usual_reason FROM history_kinds WHERE name = new.kind)), new.run,
      (SELECT code FROM learning_states WHERE name = new.state_before),
      (SELECT code FROM learning_states WHERE name = new.state_after), new.undo);
  END;

  CREATE TABLE proposal_log (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    agent TEXT NOT NULL,
    run TEXT,
    text TEXT,
    impact TEXT,
    outcome TEXT NOT NULL,
    learning_id TEXT,
    reason TEXT
  );
  INSERT INTO proposal_log (seq, at, agent, run, text, impact, outcome, learning_id, reason)
    SELECT p.seq, p.at, p.agent, p.run, CASE WHEN made THEN NULL ELSE p.text END, CASE WHEN made THEN NULL ELSE p.impact END,
      p.outcome, p.learning_id, p.reason
    FROM (SELECT o.*, o.outcome = 'new' AND EXISTS (SELECT 1 FROM learnings l WHERE l.id = o.learning_id AND l.text = o.text
      AND l.impact = o.impact AND l.first_at = o.at) AS made FROM proposals o) p;
  DROP TABLE proposals;
  CREATE INDEX proposal_log_at ON proposal_log (at);
  CREATE INDEX proposal_log_agent ON proposal_log (agent);
  CREATE INDEX proposal_log_outcome ON proposal_log (outcome);
  CREATE VIEW proposals AS
    SELECT p.seq, p.at, substr(p.at, 1, 10) AS day, p.agent, p.run, coalesce(p.text, l.text) AS text,
      coalesce(p.impact, l.impact) AS impact, p.outcome, p.learning_id, p.reason
    FROM proposal_log p LEFT JOIN learnings l ON p.text IS NULL AND l.id = p.learning_id;

  DROP TRIGGER learnings_log_deleted;
  CREATE TRIGGER learnings_log_deleted AFTER DELETE ON learnings BEGIN
    INSERT INTO learning_deletions (learning_rowid, agent) VALUES (old.rowid, old.agent);
    DELETE FROM run_given WHERE learning_rowid = old.rowid;
    DELETE FROM learning_changes WHERE learning_rowid = old.rowid;
    UPDATE proposal_log SET text = old.text, impact = old.impact WHERE at = old.first_at AND learning_id = old.id AND text IS NULL;
  END;

  DROP INDEX learnings_agent_state;
  CREATE INDEX learnings_agent_state ON learnings (agent, state);

  DROP TABLE learnings_fts;
  CREATE VIRTUAL TABLE learnings_fts USING fts5 (
    text, content = 'learnings', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', columnsize = 0
  );
  INSERT INTO learnings_fts (learnings_fts) VALUES ('rebuild');
  `,
  // 9: finding runs and what they did (docs/window.md#runs).
  // - What a run proposed, by run (docs/rules.md#a-persons-decisions): rejecting by origin asks for
  //   the learnings a run or a chain's runs discovered, and a run's detail lists its proposals.
  //   Without it each question read the whole proposal log. Keyed (run, outcome) so the
  //   discoveries of a run (outcome 'new') are one range; proposals without a run are left out.
  // - Runs by outcome and by workflow, newest first: the failed runs are one filter away in the
  //   window, where before they were found by paging through every run.
  `
  CREATE INDEX proposal_log_run ON proposal_log (run, outcome) WHERE run IS NOT NULL;
  CREATE INDEX runs_outcome ON runs (outcome, seq);
  CREATE INDEX runs_workflow ON runs (workflow, seq);
  `,
  // 10: Worth a look (docs/rules.md#worth-a-look).
  // - The finished runs each learning was given, and each agent's, and how many succeeded, kept as counts: the
  //   section weighs every active learning at once, and counting run_given joined with runs for
  //   100,000 learnings took seconds (some 2.5 million rows), where reading these takes
  //   milliseconds. Kept by triggers, not by the code that finishes runs, so that every path that
  //   finishes a run or deletes what a run was given (ingest, a sweep, a deleted learning, a
  //   repair by hand) keeps them right. run_given is written at a run's start only (runs.ts),
  //   before it can finish, so a finish is the one moment a run is counted.
  // - The rediscoveries of each learning that came from the chain of its first proposal, and that
  //   chain: noted as a rediscovery is taken up (noteRediscovery in store/worth.ts), for the same
  //   reason as the counts (joining the proposal log with runs twice over took most of the
  //   section's time). A later sweep of old runs leaves them, as it leaves `rediscoveries`.
  // - A dismissal of a learning from the section, with the evidence fingerprint it was dismissed
  //   against. The section hides the learning while its fingerprint is still this one, so the
  //   entry comes back when the evidence against it grows. One row a learning (a new dismissal
  //   replaces the old). Not a decision on the learning: it is not journaled and changes nothing
  //   about the learning.
  // A deleted learning takes both along, so a rowid used again never inherits them.
  `
  CREATE TABLE learning_run_counts (
    learning_rowid INTEGER PRIMARY KEY,
    runs INTEGER NOT NULL,
    succeeded INTEGER NOT NULL
  );
  INSERT INTO learning_run_counts (learning_rowid, runs, succeeded)
    SELECT g.learning_rowid, count(*), coalesce(sum(r.outcome = 'succeeded'), 0)
    FROM run_given g JOIN runs r ON r.seq = g.run_seq WHERE r.finished_at IS NOT NULL GROUP BY g.learning_rowid;
  CREATE TABLE agent_run_counts (
    agent TEXT PRIMARY KEY,
    runs INTEGER NOT NULL,
    succeeded INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO agent_run_counts (agent, runs, succeeded)
    SELECT agent, count(*), coalesce(sum(outcome = 'succeeded'), 0) FROM runs WHERE finished_at IS NOT NULL GROUP BY agent;
  ${RUN_COUNT_TRIGGERS}

  CREATE TABLE learning_same_chain (
    learning_rowid INTEGER PRIMARY KEY,
    chain TEXT NOT NULL,
    rediscoveries INTEGER NOT NULL
  );
  INSERT INTO learning_same_chain (learning_rowid, chain, rediscoveries)
    SELECT l.rowid, ro.chain, count(*)
    FROM proposal_log p JOIN learnings l ON l.id = p.learning_id
    JOIN proposal_log o ON o.at = l.first_at AND o.learning_id = l.id AND o.outcome = 'new'
    JOIN runs ro ON ro.run = o.run JOIN runs rp ON rp.run = p.run
    WHERE p.outcome IN ('rediscovery', 'confirmed') AND rp.chain = ro.chain
    GROUP BY l.rowid;

  CREATE TABLE worth_dismissals (
    learning_rowid INTEGER PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    by TEXT NOT NULL,
    at TEXT NOT NULL
  );
  CREATE TRIGGER learnings_drop_worth AFTER DELETE ON learnings BEGIN
    DELETE FROM learning_run_counts WHERE learning_rowid = old.rowid;
    DELETE FROM learning_same_chain WHERE learning_rowid = old.rowid;
    DELETE FROM worth_dismissals WHERE learning_rowid = old.rowid;
  END;
  `,
  // 11: the Activity view lists the same refused proposal (an agent re-proposing a text a person
  // rejected, or one the screen refuses) once, with how many times and when last
  // (listProposals). This partial index holds the refused rows only, in the order of the
  // grouping, so grouping reads it and never the whole log nor a sort; it ends with the rowid,
  // which names each group's latest entry.
  `
  CREATE INDEX proposal_log_refused ON proposal_log (agent, text, reason, learning_id) WHERE outcome = 'refused';
  `,
  // 12: runs keyed by their seq. A run's seq was a column of its own beside the run id's key, with
  // an index to find the next one (max + 1), read before every run's start; now it is the table's
  // integer key, so a start takes it as SQLite numbers a new row (the same max + 1) and the row
  // and every index entry are one seq shorter. The other indexes name the column they filter
  // and end with the key, which keeps each newest first without a sort. One index less to write
  // a run (of seven), one read less a start. The triggers of migration 10 go with the old table
  // and come back as they were; the one on run_given names runs, so it is put back after.
  `
  CREATE TABLE runs_by_seq (
    run TEXT NOT NULL UNIQUE,
    seq INTEGER PRIMARY KEY,
    agent TEXT NOT NULL,
    chain TEXT NOT NULL,
    workflow TEXT NOT NULL,
    flags TEXT NOT NULL,
    routes TEXT NOT NULL,
    learnings TEXT NOT NULL,
    answers TEXT,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    outcome TEXT,
    day TEXT NOT NULL
  );
  INSERT INTO runs_by_seq (run, seq, agent, chain, workflow, flags, routes, learnings, answers, started_at, finished_at, outcome, day)
    SELECT run, seq, agent, chain, workflow, flags, routes, learnings, answers, started_at, finished_at, outcome, day FROM runs ORDER BY seq;
  DROP TRIGGER run_given_uncount;
  DROP TABLE runs;
  ALTER TABLE runs_by_seq RENAME TO runs;
  CREATE INDEX runs_agent ON runs (agent);
  CREATE INDEX runs_chain ON runs (chain);
  CREATE INDEX runs_day ON runs (day);
  CREATE INDEX runs_outcome ON runs (outcome);
  CREATE INDEX runs_workflow ON runs (workflow);
  ${RUN_COUNT_TRIGGERS}
  `,
  // 13: a run's links to what it was given are its own list (runs.learnings), no longer a table.
  // run_given held a row per learning a run was given, up to 25 a run: writing them at each start
  // (the row and its index entry) and counting them one trigger each at the finish was about 10 µs
  // a link, the largest share of a catch-up (3.6 million links in the benchmark's million events),
  // and a sweep took them out again one trigger a link. Now a finish counts the ids of its list
  // that name a learning of the run's agent. Only the agent's own learnings count: Worth a look
  // sets a learning's runs against the rest of its agent's runs (docs/rules.md#worth-a-look), which
  // another agent's run naming it is not part of. The counts are taken again from the runs under
  // that rule. A sweep takes back what the finished runs it deletes counted, in one statement for
  // all of them (sweep.ts, UNCOUNT_SWEPT_RUNS): one trigger a deleted run did it link by link, some
  // 300 ms of a day's sweep. The runs a learning was given are found by its agent's runs whose list
  // names it (learningDetail). The trigger's read of the list is a CROSS JOIN, which SQLite never
  // reorders: the ids of the list first, each looked up by the learnings' id. Left to itself the
  // planner read every learning of the agent (by learnings_agent_state) for each run.
  `
  DROP TRIGGER runs_count_finished;
  DROP TRIGGER run_given_uncount;
  DROP TABLE run_given;
  DROP TRIGGER learnings_log_deleted;
  CREATE TRIGGER learnings_log_deleted AFTER DELETE ON learnings BEGIN
    INSERT INTO learning_deletions (learning_rowid, agent) VALUES (old.rowid, old.agent);
    DELETE FROM learning_changes WHERE learning_rowid = old.rowid;
    UPDATE proposal_log SET text = old.text, impact = old.impact WHERE at = old.first_at AND learning_id = old.id AND text IS NULL;
  END;
  DELETE FROM learning_run_counts;
  INSERT INTO learning_run_counts (learning_rowid, runs, succeeded)
    SELECT l.rowid, count(*), coalesce(sum(r.outcome = 'succeeded'), 0)
    FROM runs r, json_each(r.learnings) j CROSS JOIN learnings l ON l.id = j.value AND l.agent = r.agent
    WHERE r.finished_at IS NOT NULL GROUP BY l.rowid;
  CREATE TRIGGER runs_count_finished AFTER UPDATE OF finished_at ON runs
    WHEN old.finished_at IS NULL AND new.finished_at IS NOT NULL BEGIN
    INSERT INTO learning_run_counts (learning_rowid, runs, succeeded)
      SELECT l.rowid, 1, coalesce(new.outcome = 'succeeded', 0)
      FROM json_each(new.learnings) j CROSS JOIN learnings l ON l.id = j.value WHERE l.agent = new.agent
      ON CONFLICT (learning_rowid) DO UPDATE SET runs = runs + 1, succeeded = succeeded + excluded.succeeded;
    INSERT INTO agent_run_counts (agent, runs, succeeded) VALUES (new.agent, 1, coalesce(new.outcome = 'succeeded', 0))
      ON CONFLICT (agent) DO UPDATE SET runs = runs + 1, succeeded = succeeded + excluded.succeeded;
  END;
  `,
  // 14: a finished run's counts for Worth a look are no longer a trigger's. The trigger looked up
  // every id of a run's list and upserted its learning's counts at each finish, a third of a
  // catch-up's time; the runs finished in an ingest batch are now tallied by their agent and list
  // and written once at the end of the batch, in its transaction (store/runTally.ts). The counts
  // kept so far are already right: nothing else changes.
  `
  DROP TRIGGER runs_count_finished;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
