import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, parsedFlagChanges, replyProblem } from '../../renderer/state/help.js';
import type { HelpRequest } from '../../shared/domain.js';

const REQUEST: HelpRequest = {
  id: 'hlp_1', agent: 'publisher', run: 'run_1', chain: 'chn_1', fatal: true, category: 'decision', question: 'May I publish?',
  at: '2026-11-09T10:00:00.000Z', workflow: 'publisher-daily', flags: { publish: false, version: '1.10' }, routes: [],
  state: 'open', awaiting_human: true, answer: null, responder: null, answered_at: null, continued_as: null, flags_changed: null,
};
const draft = (flagChanges: Array<{ key: string; value: string }>) => ({ ...EMPTY_DRAFT, answer: 'Yes.', flagChanges });

describe('the reply form’s flag changes', () => {
  it('a form whose flag control was not used has no change to send and nothing to object to', () => {
    expect(parsedFlagChanges(draft([])).flags).toEqual({});
    expect(replyProblem(REQUEST, draft([]))).toBeNull();
  });

  it('a change is read by the shared parser: true is a boolean, 1.10 stays the text it was typed as, 2 is a number', () => {
    const changes = draft([{ key: 'publish', value: 'true' }, { key: 'version', value: '1.10' }, { key: 'tier', value: ' 2 ' }]);
    expect(parsedFlagChanges(changes)).toEqual({ flags: { publish: true, version: '1.10', tier: 2 }, problems: [] });
  });

  it('a flag changed twice, a change with no name or a name holding = refuses Send, naming the change', () => {
    expect(replyProblem(REQUEST, draft([{ key: 'publish', value: 'true' }, { key: 'publish', value: 'false' }]))).toMatch(
      /change 2: the flag "publish" is given more than once/,
    );
    expect(replyProblem(REQUEST, draft([{ key: ' ', value: 'true' }]))).toMatch(/change 1: the key is empty/);
    expect(replyProblem(REQUEST, draft([{ key: 'a=b', value: 'c' }]))).toMatch(/change 1: a flag name cannot hold “=”/);
  });
});
