/**
 * The agent side, one implementation: proposing a learning, asking for help, starting and
 * finishing a run. The CLI commands (`propose`, `ask`, `run start|finish`) and the MCP server
 * (`mcp`) both call these functions, so an agent is held to the same rules whichever way it
 * talks to the Desk; a second copy would drift, and an agent would find the laxer door.
 *
 * Each builds its event, serializes it, and reads it back with the very parser ingest uses
 * before one line is appended, so nothing can write a line the Desk would refuse; the refusal
 * (a `Refusal`, in words the agent can act on) reaches the agent at once instead.
 */
import fs from 'node:fs';
import { ulid } from 'ulid';
import { agentNameProblem, parseEventLine, serializeEvent, type FactoryEvent } from '../../rules/events.js';
import { screen } from '../../rules/screen.js';
import type { Flags } from '../../../shared/domain.js';
import { appendEventLine, learningsFileFor } from '../../node/factory.js';
import { readLearningsFile, type LearningsFile } from '../../node/exporter.js';
import { helpIdTakenAsIngestWillSee, runAsIngestWillSee } from '../../node/ingest.js';
import { matchingLearnings } from '../../node/store/matching.js';
import { whyHelpRequestRefused } from '../../node/store/help.js';
import { whyRunFinishRefused, whyRunStartRefused, type RecordedRun } from '../../node/store/runs.js';
import { Refusal, requiredOption, type CliIo, type ParsedArgs } from '../command.js';
import { existingFactory, peekLedger, peekLedgerOrNone, peekSettings } from '../ledgerAccess.js';
import { humanDay } from '../../rules/time.js';

/** Checks `raw` exactly as ingest would: the event and the line that would be appended, or a refusal. */
export function validatedLine(raw: Record<string, unknown>): { event: FactoryEvent; line: string } {
  const parsed = parseEventLine(JSON.stringify(raw));
  if (!parsed.ok) throw new Refusal(parsed.reason);
  const line = serializeEvent(parsed.event);
  const again = parseEventLine(line);
  if (!again.ok) throw new Refusal(again.reason);
  return { event: again.event, line };
}

/** Appends a validated line to today's events file; a line too long to be read is refused. Returns the file. */
export function appendLine(root: string, line: string): string {
  try {
    return appendEventLine(root, line);
  } catch (error) {
    const message = (error as Error).message;
    if (/an event line holds at most/.test(message)) throw new Refusal(message);
    throw error;
  }
}

/** Validates `raw` exactly as ingest would and appends it; returns the event and file. */
export function appendValidated(root: string, raw: Record<string, unknown>): { event: FactoryEvent; file: string } {
  const { event, line } = validatedLine(raw);
  return { event, file: appendLine(root, line) };
}

export function checkAgent(agent: string): void {
  const problem = agentNameProblem(agent);
  if (problem !== null) throw new Refusal(`--agent ${JSON.stringify(agent)} ${problem}`);
}

/** `--agent A`, required and checked as a name (it becomes a file name). */
export function agentOption(args: ParsedArgs): string {
  const agent = requiredOption(args, 'agent');
  checkAgent(agent);
  return agent;
}

/** The agent's current learnings file; none yet means no learnings. */
export function currentLearnings(root: string, agent: string): LearningsFile {
  checkAgent(agent);
  const file = learningsFileFor(root, agent);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { agent, generated_at: '', learnings: [] };
    throw error;
  }
  try {
    return readLearningsFile(text);
  } catch (error) {
    throw new Error(`${file} cannot be read: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * What the ledger (if it exists and opens; else ingest judges) already holds that this proposal
 * is the same as: a rejection, which refuses it, worded so the agent stops proposing it (a
 * person's no is final); else an active learning, which makes it an echo, said so the agent
 * knows it proved nothing new. The ledger is as of its last ingest: lines not yet read count at
 * ingest, not here.
 */
function ledgerMatch(root: string, agent: string, text: string): { rejected: string | null; echoOf: string | null } {
  const found = peekLedger(root, (db) => {
    const matches = matchingLearnings(db, agent, text);
    const hit = matches.find((l) => l.state === 'rejected');
    const active = matches.find((l) => l.state === 'provisional' || l.state === 'confirmed');
    if (!hit) return { rejected: null, echoOf: active?.id ?? null };
    const day = humanDay(hit.decided_at);
    return {
      rejected: `a person rejected this on ${day} (the same as learning ${hit.id}, rejected by ${hit.decided_by ?? 'a person'}); do not propose it again`,
      echoOf: null,
    };
  });
  return found ?? { rejected: null, echoOf: null };
}

export interface Proposal {
  agent: string;
  text: string;
  impact: string;
  run?: string;
}

/**
 * Proposes a learning as ingest will judge it: the screen (with the factory's `max_text`), then
 * a rejection by a person, then the event's own checks; appends it and returns the event, the
 * events file, and the active learning it echoes as far as the ledger knows (or null).
 */
export function proposeLearning(factory: string, io: CliIo, proposal: Proposal): { event: FactoryEvent; file: string; echoOf: string | null } {
  checkAgent(proposal.agent);
  const root = existingFactory(factory);
  const { settings } = peekSettings(root, io);
  const screened = screen(proposal.text, settings.learnings.max_text);
  if (!screened.ok) throw new Refusal(screened.reason);
  const { rejected, echoOf } = ledgerMatch(root, proposal.agent, screened.text);
  if (rejected) throw new Refusal(`refused: ${rejected}`);
  const raw: Record<string, unknown> = {
    type: 'learning.proposed',
    at: new Date().toISOString(),
    agent: proposal.agent,
    text: screened.text,
    impact: proposal.impact,
  };
  if (proposal.run !== undefined) raw.run = proposal.run;
  return { ...appendValidated(root, raw), echoOf };
}

export interface HelpAsk {
  agent: string;
  run: string;
  chain: string;
  fatal: boolean;
  question: string;
  category?: string;
  /** The request id; a new `hlp_` + ULID when absent. */
  id?: string;
}

/**
 * True when ingest would refuse this id as a duplicate: the ledger holds it, or a line not yet
 * ingested files it. A ledger that cannot be read must not stop an agent from asking: ingest
 * checks again.
 */
function alreadyFiled(root: string, id: string): boolean {
  return peekLedgerOrNone(root, (db) => helpIdTakenAsIngestWillSee(db, root, id)) ?? false;
}

/**
 * Files a help request as ingest will judge it (a category not among the six is refused naming
 * them all); returns the event and the request's id.
 */
export function askForHelp(factory: string, ask: HelpAsk): { event: FactoryEvent; id: string } {
  const id = ask.id ?? `hlp_${ulid()}`;
  const raw: Record<string, unknown> = {
    type: 'help.requested',
    at: new Date().toISOString(),
    id,
    agent: ask.agent,
    run: ask.run,
    chain: ask.chain,
    fatal: ask.fatal,
    question: ask.question,
  };
  if (ask.category !== undefined) raw.category = ask.category;
  const { event, line } = validatedLine(raw);
  const root = existingFactory(factory);
  const refused = whyHelpRequestRefused(alreadyFiled(root, id), id);
  if (refused !== null) throw new Refusal(`help.requested: ${refused}`);
  appendLine(root, line);
  return { event, id };
}

/**
 * Refuses at once a run event ingest would refuse: `why` is the store's own rule, asked of what
 * the ledger will hold for the run when ingest reaches this line (the ledger read-only, with the
 * lines appended but not yet ingested applied on top, so a `run finish` right after its `run
 * start` is not refused for a Desk that has not caught up). A ledger that cannot be read leaves
 * the judging to ingest: the agent is not held up by it.
 */
function refuseAsIngestWould(root: string, run: string, why: (recorded: RecordedRun | undefined) => string | null): void {
  const reason = peekLedgerOrNone(root, (db) => why(runAsIngestWillSee(db, root, run)));
  if (reason) throw new Refusal(reason);
}

export interface RunStart {
  agent: string;
  run: string;
  chain: string;
  workflow: string;
  flags: Flags;
  routes: string[];
  answers?: string;
}

/**
 * Records that a run starts, with the ids of the learnings `learnings/<agent>.json` gives it at
 * this moment, and returns that file: what the run is given is exactly what is recorded, so the
 * ledger can later say what a run was told.
 */
export function startRun(factory: string, start: RunStart): LearningsFile {
  checkAgent(start.agent);
  const root = existingFactory(factory);
  const file = currentLearnings(root, start.agent);
  const given = file.learnings;
  const raw: Record<string, unknown> = {
    type: 'run.started',
    at: new Date().toISOString(),
    run: start.run,
    agent: start.agent,
    chain: start.chain,
    workflow: start.workflow,
    flags: start.flags,
    routes: start.routes,
    learnings: given.map((l) => l.id),
  };
  if (start.answers !== undefined) raw.answers = start.answers;
  const { line } = validatedLine(raw);
  refuseAsIngestWould(root, start.run, (recorded) => whyRunStartRefused(recorded, { run: start.run }));
  appendLine(root, line);
  return file;
}

/** Records that a run finished and how, refused as ingest would refuse it; returns the event and file. */
export function finishRun(factory: string, finish: { agent: string; run: string; outcome: string }): { event: FactoryEvent; file: string } {
  checkAgent(finish.agent);
  const root = existingFactory(factory);
  const { event, line } = validatedLine({ type: 'run.finished', at: new Date().toISOString(), ...finish });
  refuseAsIngestWould(root, finish.run, (recorded) => whyRunFinishRefused(recorded, { run: finish.run, agent: finish.agent }));
  return { event, file: appendLine(root, line) };
}
