/**
 * The rules of "Worth a look" (docs/rules.md#worth-a-look): which evidence singles a learning out.
 */
import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../electron/rules/wilson.js';
import {
  ECHO_FLOOR,
  ECHO_TIMES_MEDIAN,
  MIN_RUNS_EACH_SIDE,
  echoThreshold,
  echoesFarAboveNorm,
  evidenceFingerprint,
  failsMoreOften,
  medianOfCounts,
  sameChain,
  worthReasons,
  type WorthEvidence,
} from '../../electron/rules/worth.js';

const QUIET: WorthEvidence = {
  given: { runs: 0, failed: 0 },
  other: { runs: 0, failed: 0 },
  echoes: 0,
  agentMedianEchoes: 0,
  sameChainRediscoveries: 0,
  originalChain: null,
};

describe('the Wilson interval', () => {
  it('of no trials is the whole of 0 to 1: nothing is known', () => {
    expect(wilsonInterval(0, 0)).toEqual({ lower: 0, upper: 1 });
  });

  it('of a 0% rate starts at 0 and still has room above it, and of a 100% rate ends at 1 with room below', () => {
    const none = wilsonInterval(0, 5);
    expect(none.lower).toBe(0);
    expect(none.upper).toBeCloseTo(0.4345, 3);
    const all = wilsonInterval(5, 5);
    expect(all.upper).toBe(1);
    expect(all.lower).toBeCloseTo(0.5655, 3);
  });

  it('of one trial is wide, and narrows around the rate as the trials grow', () => {
    const one = wilsonInterval(1, 1);
    const many = wilsonInterval(500, 1000);
    expect(one.lower).toBeCloseTo(0.2065, 3);
    expect(many.upper - many.lower).toBeLessThan(0.07);
    expect(many.lower).toBeLessThan(0.5);
    expect(many.upper).toBeGreaterThan(0.5);
  });
});

describe('runs given a learning fail clearly more often', () => {
  it('when the failure intervals given it and not given it do not overlap', () => {
    expect(failsMoreOften({ runs: 10, failed: 9 }, { runs: 100, failed: 10 })).toBe(true);
  });

  it('not when the intervals overlap, even if the rate given it is higher', () => {
    expect(failsMoreOften({ runs: 10, failed: 4 }, { runs: 100, failed: 20 })).toBe(false);
  });

  it('not when the runs given it fail less often than the others', () => {
    expect(failsMoreOften({ runs: 50, failed: 0 }, { runs: 50, failed: 50 })).toBe(false);
  });

  it(`not with fewer than ${MIN_RUNS_EACH_SIDE} finished runs on either side, however stark the rates`, () => {
    const below = MIN_RUNS_EACH_SIDE - 1;
    expect(failsMoreOften({ runs: below, failed: below }, { runs: 1000, failed: 0 })).toBe(false);
    expect(failsMoreOften({ runs: 1000, failed: 1000 }, { runs: below, failed: 0 })).toBe(false);
    expect(failsMoreOften({ runs: MIN_RUNS_EACH_SIDE, failed: MIN_RUNS_EACH_SIDE }, { runs: MIN_RUNS_EACH_SIDE, failed: 0 })).toBe(true);
  });

  it('at the boundary: 5 of 5 failing against 0 of 5 separates, 4 of 5 against 0 of 5 does not', () => {
    expect(failsMoreOften({ runs: 5, failed: 5 }, { runs: 5, failed: 0 })).toBe(true);
    expect(failsMoreOften({ runs: 5, failed: 4 }, { runs: 5, failed: 0 })).toBe(false);
  });

  it('never when every run fails on both sides (100% against 100%)', () => {
    expect(failsMoreOften({ runs: 100, failed: 100 }, { runs: 100, failed: 100 })).toBe(false);
  });
});

describe('an echo count far above its agent norm', () => {
  it(`is at least ${ECHO_FLOOR} echoes while the agent's median is low, and one fewer is not`, () => {
    expect(echoThreshold(0)).toBe(ECHO_FLOOR);
    expect(echoesFarAboveNorm(ECHO_FLOOR, 0)).toBe(true);
    expect(echoesFarAboveNorm(ECHO_FLOOR - 1, 0)).toBe(false);
    expect(echoesFarAboveNorm(ECHO_FLOOR - 1, 1)).toBe(false);
  });

  it(`is at least ${ECHO_TIMES_MEDIAN} times the agent's median once that is above the floor, and one fewer is not`, () => {
    expect(echoThreshold(4)).toBe(12);
    expect(echoesFarAboveNorm(12, 4)).toBe(true);
    expect(echoesFarAboveNorm(11, 4)).toBe(false);
    expect(echoesFarAboveNorm(8, 2.5)).toBe(true);
    expect(echoesFarAboveNorm(7, 2.5)).toBe(false);
  });

  it('reads the median from a histogram of echo counts, the middle value or the mean of the two middle ones', () => {
    expect(medianOfCounts([])).toBe(0);
    expect(medianOfCounts([{ value: 7, count: 1 }])).toBe(7);
    expect(medianOfCounts([{ value: 9, count: 1 }, { value: 0, count: 3 }])).toBe(0);
    expect(medianOfCounts([{ value: 4, count: 2 }, { value: 2, count: 2 }])).toBe(3);
    expect(medianOfCounts([{ value: 1, count: 2 }, { value: 50, count: 1 }, { value: 3, count: 2 }])).toBe(3);
  });

  it('is not raised by the few learnings the agent parrots: one outlier leaves the median where it was', () => {
    const norm = medianOfCounts([{ value: 1, count: 9 }, { value: 40, count: 1 }]);
    expect(norm).toBe(1);
    expect(echoesFarAboveNorm(40, norm)).toBe(true);
  });
});

describe('a rediscovery from the same chain', () => {
  it('is one whose chain is the chain of the first proposal', () => {
    expect(sameChain('chn_a', 'chn_a')).toBe(true);
    expect(sameChain('chn_a', 'chn_b')).toBe(false);
  });

  it('is never assumed when either chain is unknown', () => {
    expect(sameChain(null, 'chn_a')).toBe(false);
    expect(sameChain('chn_a', null)).toBe(false);
    expect(sameChain(null, null)).toBe(false);
  });
});

describe('the reasons a learning is worth a look', () => {
  it('are none for a learning the evidence does not single out', () => {
    expect(worthReasons(QUIET)).toEqual([]);
  });

  it('say, one line each, what the evidence is', () => {
    const reasons = worthReasons({
      given: { runs: 10, failed: 9 },
      other: { runs: 100, failed: 10 },
      echoes: 6,
      agentMedianEchoes: 1,
      sameChainRediscoveries: 1,
      originalChain: 'chn_a',
    });
    expect(reasons).toEqual([
      "runs given it fail more often: 9 of 10 did not succeed (90%), against 10% of the agent's 100 other runs",
      "echoed 6 times while it was being given: the agent's median is 1 (flagged from 5)",
      'a rediscovery came from chain chn_a, where it was first proposed: not independent',
    ]);
  });
});

describe('the evidence fingerprint a dismissal is remembered against', () => {
  it('changes when a run given the learning fails, it is echoed again, or another same-chain rediscovery arrives', () => {
    const base = { ...QUIET, given: { runs: 10, failed: 9 }, other: { runs: 100, failed: 10 }, echoes: 6, sameChainRediscoveries: 1 };
    const print = evidenceFingerprint(base);
    expect(evidenceFingerprint({ ...base, given: { runs: 11, failed: 10 } })).not.toBe(print);
    expect(evidenceFingerprint({ ...base, echoes: 7 })).not.toBe(print);
    expect(evidenceFingerprint({ ...base, sameChainRediscoveries: 2 })).not.toBe(print);
  });

  it('stays the same when only runs that succeed, or the agent other runs, are added', () => {
    const base = { ...QUIET, given: { runs: 10, failed: 9 }, other: { runs: 100, failed: 10 }, echoes: 6 };
    const print = evidenceFingerprint(base);
    expect(evidenceFingerprint({ ...base, given: { runs: 11, failed: 9 } })).toBe(print);
    expect(evidenceFingerprint({ ...base, other: { runs: 300, failed: 12 } })).toBe(print);
  });
});
