/**
 * Factory events as the tests write them (docs/factory-format.md): one builder per type, with the fields a test
 * does not care about filled in. Any other field given is written too (a newer writer's field,
 * or what an agent wrongly claims about itself), so tests can check it is ignored.
 */

export type EventLine = Record<string, unknown> & { type: string; at: string };
type Extra = Record<string, unknown>;

export function runStarted(
  fields: { at: string; run: string; agent: string; chain?: string; workflow?: string; flags?: Extra; routes?: string[]; learnings?: string[] } & Extra,
): EventLine {
  const { at, run, agent, chain = `chn_${fields.run}`, workflow = 'w', flags = {}, routes = [], learnings = [], ...extra } = fields;
  return { type: 'run.started', at, run, agent, chain, workflow, flags, routes, learnings, ...extra };
}

export function runFinished(fields: { at: string; run: string; agent: string; outcome?: string } & Extra): EventLine {
  const { at, run, agent, outcome = 'succeeded', ...extra } = fields;
  return { type: 'run.finished', at, run, agent, outcome, ...extra };
}

/** A whole run: started at `startedAt`, finished at `finishedAt`. */
export function fullRun(
  agent: string,
  run: string,
  startedAt: string,
  finishedAt: string,
  fields: Omit<Parameters<typeof runStarted>[0], 'at' | 'run' | 'agent'> = {},
): EventLine[] {
  return [runStarted({ at: startedAt, run, agent, ...fields }), runFinished({ at: finishedAt, run, agent })];
}

export function proposed(fields: { at: string; agent: string; text: string; impact?: string } & Extra): EventLine {
  const { at, agent, text, impact = 'medium', ...extra } = fields;
  return { type: 'learning.proposed', at, agent, text, impact, ...extra };
}

export function helpRequested(
  fields: { at: string; id: string; agent: string; run: string; chain: string; fatal?: boolean; question?: string } & Extra,
): EventLine {
  const { at, id, agent, run, chain, fatal = true, question = 'Which token may I use?', ...extra } = fields;
  return { type: 'help.requested', at, id, agent, run, chain, fatal, question, ...extra };
}
