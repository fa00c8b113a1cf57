/**
 * Recognising lines the ledger already applied, when an events file is read again from the start
 * (docs/factory-format.md#reading-events): the operator's way back after a rewritten file was
 * refused. Runs and help requests carry ids; a proposal carries none, so it is recognised by its
 * agent, time and text in the proposal log.
 */
import type { FactoryEvent } from '../../rules/events.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { normTime } from './learnings.js';

/** Whether the ledger already holds what `event` says. */
export function alreadyApplied(db: Db, event: FactoryEvent): boolean {
  switch (event.type) {
    case 'run.started':
      return stmt(db, 'SELECT 1 FROM runs WHERE run = ?').get(event.run) !== undefined;
    case 'run.finished':
      return stmt(db, 'SELECT 1 FROM runs WHERE run = ? AND finished_at IS NOT NULL').get(event.run) !== undefined;
    case 'help.requested':
      return stmt(db, 'SELECT 1 FROM help_requests WHERE id = ?').get(event.id) !== undefined;
    case 'learning.proposed': {
      const at = normTime(event.at);
      // Found by its time (an index lookup); `+agent` keeps the planner off the agent's index,
      // which would read every proposal of the agent.
      return (
        stmt(db, 'SELECT 1 FROM proposals WHERE at = ? AND +agent = ? AND text = ?').get(at, event.agent, event.text.trim()) !== undefined
      );
    }
  }
}
