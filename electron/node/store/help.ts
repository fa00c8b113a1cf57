/**
 * Help requests, the chains they belong to, and the replies that start new chains.
 *
 * The rules (docs/rules.md#help-requests-and-replies), and where each one lives here:
 * - A request's `workflow`, `flags` and `routes` are copied from the asking run's own
 *   `run.started` record (`applyHelpRequested`), never from what the agent wrote: an agent that
 *   claims more than it was given gains nothing. Without that record they stay NULL — unknown
 *   flags — and a reply must state them (`reply`), because inheriting the workflow's defaults
 *   would silently downgrade the chain (e.g. from allowed to publish to not).
 * - A chain is `awaiting_human` exactly while an open fatal request was filed by its last run
 *   (`HOLDS` below; the state itself is the pure rule in `rules/chains.ts`).
 * - A reply is committed in one IMMEDIATE transaction that re-reads the request's state, so of
 *   two processes replying at once exactly one wins and the other is told who did. Its chain file
 *   is written from the outbox after the commit (`outbox.ts`), so a crash in between re-writes
 *   the file at the next start instead of losing it.
 */
import { ulid } from 'ulid';
import { ApiError } from '../../../shared/api.js';
import { z } from 'zod';
import { Chain, Flags, FlagsChanged, HelpRequest, Run } from '../../../shared/domain.js';
import { chainState } from '../../rules/chains.js';
import { humanTime, utcDay } from '../../rules/time.js';
import type { HelpRequested } from '../../rules/events.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { equalsWhere, idSearch } from './where.js';
import { flushOutbox } from '../outbox.js';
import { journalDecision, type Replaying } from './journal.js';
import { EventRefused, normTime } from './learnings.js';
import { RUN_COLUMNS, toRun } from './runs.js';
import { jsonColumn, rowReader } from './rowCheck.js';

/** A `help.requested` event as this module reads it: the event's one declaration, without its type tag. */
export type HelpRequestedFields = Omit<HelpRequested, 'type'>;

/** The fields of a `run.started` event this module reads. */
export interface RunStartedFields {
  run: string;
  agent: string;
  chain: string;
  workflow: string;
  flags: Flags;
  routes: readonly string[];
  at: string;
  answers?: string | undefined;
}

// ---------------------------------------------------------------------------------------------
// SQL fragments. `r` is a help_requests row.

/** The request was filed by its chain's last run: no run of the chain started after the asking
 * one (by ingest order when the asking run is recorded, else by time). */
const ON_LAST_RUN = `NOT EXISTS (
  SELECT 1 FROM runs l
  WHERE l.chain = r.chain AND l.run <> r.run AND (
    CASE WHEN EXISTS (SELECT 1 FROM runs a WHERE a.run = r.run)
      THEN l.seq > (SELECT a.seq FROM runs a WHERE a.run = r.run)
      ELSE l.started_at > r.at
    END))`;

/** The request holds its chain awaiting a person. */
const HOLDS = `(r.state = 'open' AND r.fatal = 1 AND ${ON_LAST_RUN})`;

const HELP_SELECT = `SELECT r.*, ${HOLDS} AS awaiting FROM help_requests r`;

const CHAIN_SELECT = `
  SELECT c.chain, c.agent, c.answers, c.workflow, c.flags, c.routes, c.created_at,
    (SELECT COUNT(*) FROM runs x WHERE x.chain = c.chain) AS run_count,
    (SELECT x.finished_at IS NOT NULL FROM runs x WHERE x.chain = c.chain ORDER BY x.seq DESC LIMIT 1)
      AS last_finished,
    EXISTS (SELECT 1 FROM help_requests r WHERE r.chain = c.chain AND ${HOLDS}) AS held,
    EXISTS (SELECT 1 FROM help_requests r
      WHERE r.chain = c.chain AND r.fatal = 1 AND r.state <> 'open' AND ${ON_LAST_RUN}) AS closed_fatal,
    (SELECT r.continued_as FROM help_requests r
      WHERE r.chain = c.chain AND r.continued_as IS NOT NULL ORDER BY r.answered_at DESC LIMIT 1)
      AS continued_as
  FROM chains c`;

interface HelpRow {
  id: string;
  agent: string;
  run: string;
  chain: string;
  fatal: number;
  category: string | null;
  question: string;
  at: string;
  state: string;
  workflow: string | null;
  flags: string | null;
  routes: string | null;
  answer: string | null;
  responder: string | null;
  answered_at: string | null;
  continued_as: string | null;
  flags_changed: string | null;
  awaiting: number;
}

interface ChainRow {
  chain: string;
  agent: string;
  answers: string | null;
  workflow: string | null;
  flags: string | null;
  routes: string | null;
  created_at: string;
  run_count: number;
  last_finished: number | null;
  held: number;
  closed_fatal: number;
  continued_as: string | null;
}

/**
 * A stored JSON value of `schema`, or `fallback` when there is none or it cannot be read (not
 * JSON, or not of the schema). Unreadable flags read as unknown, as missing ones do: the request
 * stays visible and answerable, and a reply never inherits what it cannot read (`storedFlags`).
 */
function json<S extends z.ZodType, F>(text: string | null, column: S, fallback: F): z.output<S> | F {
  if (text === null) return fallback;
  const parsed = column.safeParse(text);
  return parsed.success ? parsed.data : fallback;
}

/** Flags and routes as stored JSON columns; made once, as building a zod schema costs far more than using one. */
const FLAGS_COLUMN = jsonColumn(Flags);
const ROUTES_COLUMN = jsonColumn(Run.shape.routes);

/**
 * A help request assembled from its row, checked by the `HelpRequest` schema (rowCheck.ts), its
 * stored `flags_changed` decoded on the way. Unlike the flags it asked with, the record of a flag a
 * person changed is not read as "none" when it cannot be read: that would tell the operator the
 * reply changed nothing while the chain file says it did. The request fails its read, naming the
 * field, and the change stays in the decisions journal (docs/factory-format.md#the-decisions-journal).
 */
const checkedHelpRequest = rowReader(HelpRequest.extend({ flags_changed: jsonColumn(FlagsChanged).nullable() }), (row) => `help request ${String(row.id)}`);

/** A chain assembled from its row, checked by the `Chain` schema (rowCheck.ts). */
const checkedChain = rowReader(Chain, (row) => `chain ${String(row.chain)}`);

function toHelpRequest(row: HelpRow): HelpRequest {
  return checkedHelpRequest({
    id: row.id,
    agent: row.agent,
    run: row.run,
    chain: row.chain,
    fatal: row.fatal === 1,
    category: row.category,
    question: row.question,
    at: row.at,
    state: row.state,
    workflow: row.workflow,
    flags: json(row.flags, FLAGS_COLUMN, null),
    routes: json(row.routes, ROUTES_COLUMN, null),
    awaiting_human: row.awaiting === 1,
    answer: row.answer,
    responder: row.responder,
    answered_at: row.answered_at,
    continued_as: row.continued_as,
    flags_changed: row.flags_changed,
  });
}

function toChain(row: ChainRow): Chain {
  return checkedChain({
    chain: row.chain,
    agent: row.agent,
    state: chainState({
      heldByOpenFatal: row.held === 1,
      lastRun: row.run_count > 0 ? { finished: row.last_finished === 1 } : null,
      lastRunClosedFatal: row.closed_fatal === 1,
      startedByReply: row.answers !== null,
    }),
    answers: row.answers,
    continued_as: row.continued_as,
    workflow: row.workflow,
    flags: json(row.flags, FLAGS_COLUMN, null),
    routes: json(row.routes, ROUTES_COLUMN, null),
    created_at: row.created_at,
    runs: row.run_count,
  });
}

// ---------------------------------------------------------------------------------------------
// Ingest side: called by ingest inside its transaction, once per valid event.

/** Whether the ledger holds a help request with this id. */
export function helpIdRecorded(db: Db, id: string): boolean {
  return stmt(db, 'SELECT 1 FROM help_requests WHERE id = ?').get(id) !== undefined;
}

/**
 * Why a `help.requested` cannot be filed given whether its id is already taken, or null when it
 * can. One id is one question: a second request under it would let one reply answer a question
 * the person never read. The one rule and message, asked by ingest (`applyHelpRequested`) and by
 * the agent side's `ask` before it appends (with the lines not yet ingested on top).
 */
export function whyHelpRequestRefused(taken: boolean, id: string): string | null {
  return taken ? `duplicate help request id ${id}: a request with this id was already filed` : null;
}

/**
 * Records a `help.requested` event as an open request. Its workflow, flags and routes come from
 * the asking run's `run.started` record (same run id and agent), never from the event; without
 * that record they are NULL (unknown). A request id seen before throws `EventRefused`, so ingest
 * refuses the line.
 */
export function applyHelpRequested(db: Db, event: HelpRequestedFields): void {
  const refused = whyHelpRequestRefused(helpIdRecorded(db, event.id), event.id);
  if (refused !== null) throw new EventRefused(refused);
  const asked = stmt(db, 'SELECT workflow, flags, routes FROM runs WHERE run = ? AND agent = ?')
    .get(event.run, event.agent) as { workflow: string; flags: string; routes: string } | undefined;
  const at = normTime(event.at);
  stmt(
    db,
    `INSERT INTO help_requests (id, agent, run, chain, fatal, category, question, at, day, state,
       workflow, flags, routes)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?)`,
  ).run(
    event.id,
    event.agent,
    event.run,
    event.chain,
    event.fatal ? 1 : 0,
    event.category ?? null,
    event.question,
    at,
    utcDay(at),
    asked?.workflow ?? null,
    asked?.flags ?? null,
    asked?.routes ?? null,
  );
  // A request whose run was never recorded still names a chain the operator must see.
  stmt(db, 'INSERT OR IGNORE INTO chains (chain, agent, created_at) VALUES (?, ?, ?)').run(
    event.chain,
    event.agent,
    at,
  );
}

/**
 * Records the chain a `run.started` belongs to. The first run seen creates the row with how the
 * work was asked for (workflow, flags, routes) and, for a chain a reply started, the request it
 * answers; later runs change nothing, except filling what a row created without a run lacked.
 * The update is skipped when it would change nothing (nearly every run continues a chain already
 * recorded): SQLite writes a row an update names even when its values stay the same.
 */
export function recordChainRun(db: Db, event: RunStartedFields): void {
  stmt(
    db,
    `INSERT INTO chains (chain, agent, answers, workflow, flags, routes, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (chain) DO UPDATE SET
       answers = COALESCE(chains.answers, excluded.answers),
       flags = CASE WHEN chains.workflow IS NULL THEN excluded.flags ELSE chains.flags END,
       routes = CASE WHEN chains.workflow IS NULL THEN excluded.routes ELSE chains.routes END,
       workflow = COALESCE(chains.workflow, excluded.workflow)
     WHERE chains.workflow IS NULL OR (chains.answers IS NULL AND excluded.answers IS NOT NULL)`,
  ).run(
    event.chain,
    event.agent,
    event.answers ?? null,
    event.workflow,
    JSON.stringify(event.flags),
    JSON.stringify(event.routes),
    normTime(event.at),
  );
}

// ---------------------------------------------------------------------------------------------
// Reading.

export function getHelp(db: Db, id: string): HelpRequest | undefined {
  const row = stmt(db, `${HELP_SELECT} WHERE r.id = ?`).get(id) as HelpRow | undefined;
  return row ? toHelpRequest(row) : undefined;
}

/** The help requests one run filed, oldest first (through the requests' index by run). */
export function helpOfRun(db: Db, run: string): HelpRequest[] {
  return (stmt(db, `${HELP_SELECT} WHERE r.run = ? ORDER BY r.at, r.id`).all(run) as HelpRow[]).map(toHelpRequest);
}

export function getChain(db: Db, chain: string): Chain | undefined {
  const row = stmt(db, `${CHAIN_SELECT} WHERE c.chain = ?`).get(chain) as ChainRow | undefined;
  return row ? toChain(row) : undefined;
}

export interface HelpQuery {
  /** true: only open requests; otherwise all. */
  open?: boolean | undefined;
  agent?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/**
 * Help requests, those a person is needed for first: open fatal requests holding their chain,
 * then other open ones, then the rest; newest first within each.
 */
export function listHelp(db: Db, query: HelpQuery = {}): { total: number; rows: HelpRequest[] } {
  const where = equalsWhere({ state: query.open === true ? 'open' : undefined, agent: query.agent }, 'r');
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM help_requests r ${where.sql}`).get(where.params) as { n: number }).n;
  const rows = stmt(
    db,
    `${HELP_SELECT} ${where.sql}
     ORDER BY CASE WHEN ${HOLDS} THEN 0 WHEN r.state = 'open' THEN 1 ELSE 2 END, r.at DESC, r.id DESC
     LIMIT @limit OFFSET @offset`,
  ).all({ ...where.params, limit: query.limit ?? 100, offset: query.offset ?? 0 }) as HelpRow[];
  return { total, rows: rows.map(toHelpRequest) };
}

export interface ChainQuery {
  agent?: string | undefined;
  /** A chain or help request id, or the start of one. */
  search?: string | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
}

/**
 * Chains, those awaiting a person first, then newest first. A search finds a chain by its id or
 * the start of it, or by a help request's: the chain that asked and the chain its reply started.
 * Ranges of keys (`idSearch`), so the search goes through the chains' and requests' keys.
 */
export function listChains(db: Db, query: ChainQuery = {}): { total: number; rows: Chain[] } {
  const search = idSearch(
    `c.chain >= @lo AND c.chain < @hi OR c.chain IN (SELECT h.chain FROM help_requests h WHERE h.id >= @lo AND h.id < @hi
     UNION ALL SELECT h.continued_as FROM help_requests h WHERE h.id >= @lo AND h.id < @hi)`,
    query.search,
  );
  const { sql, params } = equalsWhere({ agent: query.agent }, 'c', [search]);
  const clause = sql ? ` ${sql}` : '';
  const total = (stmt(db, `SELECT COUNT(*) AS n FROM chains c${clause}`).get(params) as { n: number }).n;
  const rows = stmt(db, `${CHAIN_SELECT}${clause} ORDER BY held DESC, c.created_at DESC, c.chain DESC LIMIT @limit OFFSET @offset`)
    .all({ ...params, limit: query.limit ?? 100, offset: query.offset ?? 0 }) as ChainRow[];
  return { total, rows: rows.map(toChain) };
}

function runsOfChain(db: Db, chain: string): Run[] {
  const rows = stmt(db, `SELECT ${RUN_COLUMNS} FROM runs WHERE chain = ? ORDER BY seq`).all(chain);
  return rows.map(toRun);
}

/** One request with its chain, that chain's runs, and the chain a reply to it started. */
export function helpDetail(
  db: Db,
  id: string,
): { request: HelpRequest; chain: Chain | null; runs: Run[]; continued: Chain | null } {
  const request = getHelp(db, id);
  if (!request) throw new ApiError('not_found', `no help request ${id}`);
  return {
    request,
    chain: getChain(db, request.chain) ?? null,
    runs: runsOfChain(db, request.chain),
    continued: request.continued_as ? (getChain(db, request.continued_as) ?? null) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// A person's decisions.

export interface ReplyInput {
  id: string;
  answer: string;
  by?: string | undefined;
  workflow?: string | undefined;
  flags?: Flags | undefined;
  /** Inherited flags to change on purpose (`--set-flag k=v`); the rest are inherited unchanged. */
  set_flags?: Flags | undefined;
  routes?: readonly string[] | undefined;
}

/** What a chain file (`chains/<chain>.json`) holds: a chain the Tower should start. */
export interface ChainFile {
  chain: string;
  agent: string;
  workflow: string;
  flags: Flags;
  routes: string[];
  answers: string;
  answer: string;
  responder: string;
  at: string;
  /** Present when the reply changed inherited flags: the keys and their inherited values. */
  flags_changed?: FlagsChanged;
}

export function chainFilePath(chain: string): string {
  return `chains/${chain}.json`;
}

function closedRefusal(row: { state: string; responder: string | null; answered_at: string | null }): ApiError {
  const verb = row.state === 'answered' ? 'answered' : 'resolved';
  const who = row.responder ?? 'someone';
  const when = row.answered_at ? ` on ${humanTime(row.answered_at)}` : '';
  return new ApiError('refused', `already ${verb} by ${who}${when}`);
}

function responderOf(by: string | undefined, osUser: string): string {
  const typed = by?.trim();
  return typed ? typed : osUser;
}

/**
 * The flags stored with a request, read strictly. A value that is not a flag object (a damaged
 * row, a hand edit) refuses the reply: falling back to no flags would start the new chain with
 * fewer permissions than the work had, silently — the downgrade docs/rules.md#help-requests-and-replies forbids.
 */
function storedFlags(text: string, id: string): Flags {
  const parsed = FLAGS_COLUMN.safeParse(text);
  if (!parsed.success) {
    throw new ApiError(
      'refused',
      `the stored flags of help request ${id} cannot be read (${JSON.stringify(text.slice(0, 80))}): ` +
        'state the workflow and its flags with the reply instead of inheriting them',
    );
  }
  return parsed.data;
}

/**
 * Applies the changes a person made on purpose to the inherited flags and says what each changed
 * key was (docs/rules.md#help-requests-and-replies). A change that changes nothing is refused: the person meant to change
 * something, and recording a non-change would make the history say otherwise.
 */
function changeFlags(inherited: Flags, changes: Flags, id: string): { flags: Flags; changed: FlagsChanged } {
  const changed: FlagsChanged = {};
  for (const [key, value] of Object.entries(changes)) {
    const before = Object.hasOwn(inherited, key) ? inherited[key]! : null;
    if (before === value) {
      throw new ApiError('refused', `--set-flag ${key}=${String(value)} changes nothing: ${id} already has ${key}=${String(value)}`);
    }
    changed[key] = before;
  }
  return { flags: { ...inherited, ...changes }, changed };
}

/**
 * Answers an open request: starts a new chain of the agent that asked, inheriting how the work
 * was asked for, and links the two both ways. Refused (`ApiError('refused')`) for an empty answer,
 * a request no longer open (naming who closed it and when), or unknown flags not stated.
 * The chain file is written from the outbox after the commit.
 */
export function reply(
  db: Db,
  factory: string,
  input: ReplyInput,
  osUser: string,
  now: () => Date = () => new Date(),
  replaying?: Replaying,
): HelpRequest {
  const answer = input.answer.trim();
  if (answer === '') throw new ApiError('refused', 'the answer is empty: write what the agent should know');
  const responder = responderOf(input.by, osUser);
  const chain = replaying?.chain ?? `chn_${ulid()}`;

  db.transaction(() => {
    const row = stmt(db, 'SELECT agent, state, workflow, flags, routes, responder, answered_at FROM help_requests WHERE id = ?')
      .get(input.id) as
      | {
          agent: string;
          state: string;
          workflow: string | null;
          flags: string | null;
          routes: string | null;
          responder: string | null;
          answered_at: string | null;
        }
      | undefined;
    if (!row) throw new ApiError('not_found', `no help request ${input.id}`);
    if (row.state !== 'open') throw closedRefusal(row);

    const known = row.workflow !== null && row.flags !== null;
    const setFlags = input.set_flags && Object.keys(input.set_flags).length > 0 ? input.set_flags : undefined;
    if (setFlags && input.flags !== undefined) {
      throw new ApiError('refused', 'state the flags (--flag) or change inherited ones (--set-flag), not both');
    }
    if (setFlags && !known) {
      throw new ApiError(
        'refused',
        `the flags of the run that asked ${input.id} are unknown, so there is nothing to change: state them all with --flag`,
      );
    }
    if (!known && (input.workflow === undefined || input.workflow.trim() === '' || input.flags === undefined)) {
      throw new ApiError(
        'refused',
        `the flags of the run that asked ${input.id} are unknown (it has no recorded start): ` +
          'state the workflow and its flags with the reply, or the new chain would run on defaults',
      );
    }
    // What a person states explicitly wins; otherwise the request's own record is inherited.
    const workflow = input.workflow?.trim() || row.workflow!;
    const inherited = input.flags ?? storedFlags(row.flags!, input.id);
    const { flags, changed: flagsChanged } = setFlags ? changeFlags(inherited, setFlags, input.id) : { flags: inherited, changed: null };
    const routes: string[] = input.routes ? [...input.routes] : json(row.routes, ROUTES_COLUMN, []);
    const at = now().toISOString();

    const changed = stmt(
      db,
      `UPDATE help_requests SET state = 'answered', answer = ?, responder = ?, answered_at = ?, continued_as = ?,
         flags_changed = ?
       WHERE id = ? AND state = 'open'`,
    ).run(answer, responder, at, chain, flagsChanged ? JSON.stringify(flagsChanged) : null, input.id).changes;
    if (changed !== 1) throw new ApiError('refused', `help request ${input.id} is no longer open`);
    stmt(
      db,
      `INSERT INTO chains (chain, agent, answers, workflow, flags, routes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(chain, row.agent, input.id, workflow, JSON.stringify(flags), JSON.stringify(routes), at);
    const file: ChainFile = { chain, agent: row.agent, workflow, flags, routes, answers: input.id, answer, responder, at };
    if (flagsChanged) file.flags_changed = flagsChanged;
    stmt(db, 'INSERT INTO outbox (path, content, created_at) VALUES (?, ?, ?)').run(
      chainFilePath(chain),
      `${JSON.stringify(file, null, 2)}\n`,
      at,
    );
    journalDecision(
      db,
      { what: 'reply', at, by: responder, id: input.id, answer, workflow, flags, routes, chain, ...(flagsChanged ? { flags_changed: flagsChanged } : {}) },
      replaying,
    );
  }).immediate();

  try {
    flushOutbox(db, factory);
  } catch (error) {
    throw new ApiError(
      'failure',
      `the reply is recorded, but ${chainFilePath(chain)} could not be written yet ` +
        `(it is written again at the next start): ${(error as Error).message}`,
    );
  }
  return getHelp(db, input.id)!;
}

/** Closes an open request without an answer: nothing more is needed, and its chain finishes. */
export function resolve(
  db: Db,
  input: { id: string; by?: string | undefined },
  osUser: string,
  now: () => Date = () => new Date(),
  replaying?: Replaying,
): HelpRequest {
  const responder = responderOf(input.by, osUser);
  db.transaction(() => {
    const row = stmt(db, 'SELECT state, responder, answered_at FROM help_requests WHERE id = ?').get(input.id) as
      | { state: string; responder: string | null; answered_at: string | null }
      | undefined;
    if (!row) throw new ApiError('not_found', `no help request ${input.id}`);
    if (row.state !== 'open') throw closedRefusal(row);
    const at = now().toISOString();
    stmt(
      db,
      `UPDATE help_requests SET state = 'resolved', responder = ?, answered_at = ? WHERE id = ? AND state = 'open'`,
    ).run(responder, at, input.id);
    journalDecision(db, { what: 'resolve', at, by: responder, id: input.id }, replaying);
  }).immediate();
  return getHelp(db, input.id)!;
}
