/**
 * What the agent-side commands share: an event is built, serialized, and read back with the
 * very parser ingest uses before one line is appended, so a command can never write a line
 * the Desk would refuse; the refusal reaches the agent at once instead (exit 2).
 */
import fs from 'node:fs';
import { agentNameProblem, parseEventLine, serializeEvent, type FactoryEvent } from '../../rules/events.js';
import { appendEventLine, learningsFileFor } from '../../node/factory.js';
import { readLearningsFile, type LearningsFile } from '../../node/exporter.js';
import { Refusal, requiredOption, type ParsedArgs } from '../command.js';

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
