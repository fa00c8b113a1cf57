import { describe, expect, it } from 'vitest';
import { sweptPhrase } from '../../shared/sweep.js';

const NOTHING = { at: '2026-11-09T10:00:00.000Z', help_requests: 0, runs: 0, proposals: 0, refused_lines: 0, event_files: 0, lapsed_learnings: 0, chains: 0 };

describe('what a sweep deleted, in the one wording of the CLI and the status bar', () => {
  it('a sweep that deleted nothing says so in a few words', () => {
    expect(sweptPhrase(NOTHING)).toBe('nothing to delete');
  });

  it('only the counts that are not zero are named, singular or plural as they are', () => {
    expect(sweptPhrase({ ...NOTHING, runs: 3, proposals: 1, chains: 1_204 })).toBe('deleted 3 runs, 1 log entry, 1,204 chains');
  });
});
