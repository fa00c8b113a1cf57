/**
 * Taking up a proposal (docs/rules.md#learnings): screen, match, decide, write, log. Apart from
 * the rest of the ledger of learnings because only ingest needs it (and so only ingest loads the
 * screen's many rules): the hosts, which ingest in their own thread, never do.
 */
import { ulid } from 'ulid';
import type { Impact, Learning, ProposalOutcome } from '../../../shared/domain.js';
import { decideProposal, type LedgerSettings, type ScreenedProposal } from '../../rules/ledger.js';
import { fingerprint } from '../../rules/sameness.js';
import { screen, type ScreenResult } from '../../rules/screen.js';
import type { Db } from './db.js';
import { stmt } from './statements.js';
import { addHistory, insertLearning, normTime } from './learnings.js';
import { matchesInStep } from './matching.js';
import { saveLearning } from './learningWrites.js';
import { noteRediscovery } from './worth.js';

export interface ProposalInput {
  agent: string;
  text: string;
  impact: Impact;
  at: string;
  run?: string | null | undefined;
}

export interface ProposalResult {
  outcome: ProposalOutcome;
  learning_id: string | null;
  reason: string | null;
  /** Whether the agent's active set (what its runs are given) changed. */
  activeChanged: boolean;
}

/**
 * Logs a proposal. The one that made a learning is logged without its text and impact, which are
 * the learning's (read back through the `proposals` view; schema migration 8): a tenth of the
 * ledger's size was texts kept twice. Only when the learning has exactly those and was first seen
 * at exactly that time, which is how its delete trigger finds the proposal to give them back to.
 */
function logProposal(db: Db, p: ProposalInput, at: string, text: string, r: Omit<ProposalResult, 'activeChanged'>, made?: Learning): void {
  const shared = made !== undefined && made.text === text && made.impact === p.impact && made.first_at === at;
  stmt(
    db,
    `INSERT INTO proposal_log (at, agent, run, text, impact, outcome, learning_id, reason)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(at, p.agent, p.run ?? null, shared ? null : text, shared ? null : p.impact, r.outcome, r.learning_id, r.reason);
}

const randomPool = new Uint8Array(4096);
let randomLeft = 0;

/**
 * The randomness of new learning ids, as `ulid` wants it (a byte / 256), drawn from the system's
 * secure generator a pool at a time. `ulid`'s own default asks the system for one byte at a
 * time, 16 calls per id, which was a visible share of ingesting proposals.
 */
function pooledRandom(): number {
  if (randomLeft === 0) {
    globalThis.crypto.getRandomValues(randomPool);
    randomLeft = randomPool.length;
  }
  return randomPool[--randomLeft]! / 256;
}

/**
 * Takes up one proposal (docs/rules.md#learnings): screen, match, decide, write, log. The caller's
 * transaction has called `syncMatchIndex` (see the module comment). `screened` is the screen's
 * answer for `p.text` when the caller has it already (ingest screens ahead: screenAhead.ts).
 */
export function applyProposal(
  db: Db,
  p: ProposalInput,
  settings: LedgerSettings & { max_text: number },
  screened: ScreenResult = screen(p.text, settings.max_text),
): ProposalResult {
  const at = normTime(p.at);
  if (!screened.ok) {
    const result = { outcome: 'refused' as const, learning_id: null, reason: screened.reason };
    logProposal(db, p, at, p.text.trim(), result);
    return { ...result, activeChanged: false };
  }
  const proposal: ScreenedProposal = { agent: p.agent, text: screened.text, impact: p.impact, at, run: p.run ?? null };
  const fp = fingerprint(screened.text);
  const matches = matchesInStep(db, p.agent, fp);
  const decision = decideProposal(proposal, matches, settings, () => `lrn_${ulid(Date.parse(at), pooledRandom)}`);
  const run = p.run ?? null;
  let result: Omit<ProposalResult, 'activeChanged'>;
  let activeChanged = false;
  let made: Learning | undefined;
  switch (decision.outcome) {
    case 'refused':
      result = { outcome: 'refused', learning_id: decision.learning_id, reason: decision.reason };
      break;
    case 'echo':
      saveLearning(db, decision.learning, decision.before);
      addHistory(db, { learning_id: decision.learning.id, at, kind: 'echoed', run, state_before: decision.before.state, state_after: decision.learning.state });
      result = { outcome: 'echo', learning_id: decision.learning.id, reason: null };
      break;
    case 'rediscovery':
    case 'confirmed': {
      // The same reason in the learning's history and in the proposal log: the log's "why" column
      // was empty for every rediscovery because only the history kept it.
      const reason = `rediscovery ${decision.learning.rediscoveries} of ${settings.confirm_after}`;
      saveLearning(db, decision.learning, decision.before);
      addHistory(db, {
        learning_id: decision.learning.id,
        at,
        kind: decision.outcome === 'confirmed' ? 'confirmed' : 'rediscovered',
        run,
        reason,
        state_before: decision.before.state,
        state_after: decision.learning.state,
      });
      noteRediscovery(db, decision.learning, run);
      result = { outcome: decision.outcome, learning_id: decision.learning.id, reason };
      activeChanged = true;
      break;
    }
    case 'new':
      insertLearning(db, decision.learning, fp);
      made = decision.learning;
      addHistory(db, { learning_id: decision.learning.id, at, kind: 'proposed', run, state_before: null, state_after: 'provisional' });
      result = { outcome: 'new', learning_id: decision.learning.id, reason: null };
      activeChanged = true;
      break;
  }
  logProposal(db, p, at, proposal.text, result, made);
  return { ...result, activeChanged };
}

