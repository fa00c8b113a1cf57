import { describe, expect, it } from 'vitest';
import {
  addDays,
  eventFileDay,
  isLapsedExpired,
  lapsedDeadline,
  retentionHorizon,
} from '../../electron/rules/retention.js';
import { DEFAULT_SETTINGS, type Settings } from '../../electron/rules/settings.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-11-29T20:33:37.000Z');

function settings(days = 90, keep = 14): Settings {
  return {
    learnings: { ...DEFAULT_SETTINGS.learnings, keep_lapsed_days: keep },
    retention: { days },
  };
}

function ago(ms: number): Date {
  return new Date(NOW.getTime() - ms);
}

describe('retention of event records, a whole UTC day at a time', () => {
  it('the horizon is the UTC day retention.days before today', () => {
    expect(retentionHorizon(NOW, settings(90))).toBe(addDays('2026-11-29', -90));
    expect(retentionHorizon(NOW, settings(1))).toBe('2026-11-28');
  });

  it('a deleted day ended at least retention.days before now, whatever the time of day', () => {
    for (const now of [new Date('2026-11-29T00:00:00.000Z'), new Date('2026-11-29T23:59:59.999Z')]) {
      const lastDeleted = addDays(retentionHorizon(now, settings()), -1);
      const endOfDay = Date.parse(`${addDays(lastDeleted, 1)}T00:00:00.000Z`);
      expect(now.getTime() - endOfDay).toBeGreaterThanOrEqual(90 * DAY);
    }
  });

  it('day arithmetic crosses month and year ends', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
  });

  it('an events file is dated by its name, and other names are not events files', () => {
    expect(eventFileDay('2026-08-01.jsonl')).toBe('2026-08-01');
    expect(eventFileDay('2026-02-31.jsonl')).toBeNull();
    expect(eventFileDay('notes.jsonl')).toBeNull();
    expect(eventFileDay('2026-08-01.jsonl.tmp')).toBeNull();
  });
});

describe('lapsed learnings are deleted keep_lapsed_days after they lapsed', () => {
  it('a learning lapsed 13 days ago is kept and one lapsed 15 days ago is deleted', () => {
    const s = settings(90, 14);
    expect(isLapsedExpired({ state: 'lapsed', lapsed_at: ago(13 * DAY).toISOString(), last_at: ago(40 * DAY).toISOString() }, NOW, s)).toBe(false);
    expect(isLapsedExpired({ state: 'lapsed', lapsed_at: ago(15 * DAY).toISOString(), last_at: ago(40 * DAY).toISOString() }, NOW, s)).toBe(true);
  });

  it('the deadline is exactly keep_lapsed_days after lapsed_at', () => {
    const lapsed_at = ago(14 * DAY).toISOString();
    expect(lapsedDeadline({ state: 'lapsed', lapsed_at, last_at: lapsed_at }, settings())?.toISOString()).toBe(NOW.toISOString());
    expect(isLapsedExpired({ state: 'lapsed', lapsed_at, last_at: lapsed_at }, NOW, settings())).toBe(true);
    expect(isLapsedExpired({ state: 'lapsed', lapsed_at, last_at: lapsed_at }, new Date(NOW.getTime() - 1), settings())).toBe(false);
  });

  it('a lapsed learning with no lapsed_at is judged by last_at', () => {
    const s = settings(90, 14);
    expect(isLapsedExpired({ state: 'lapsed', lapsed_at: null, last_at: ago(15 * DAY).toISOString() }, NOW, s)).toBe(true);
    expect(isLapsedExpired({ state: 'lapsed', lapsed_at: null, last_at: ago(13 * DAY).toISOString() }, NOW, s)).toBe(false);
  });

  it('with keep_lapsed_days = 0 a lapsed learning is deleted at the first sweep, even if it lapsed by a clock ahead of ours', () => {
    const s = settings(90, 0);
    expect(isLapsedExpired({ state: 'lapsed', lapsed_at: NOW.toISOString(), last_at: NOW.toISOString() }, NOW, s)).toBe(true);
    const ahead = new Date(NOW.getTime() + 60_000).toISOString();
    expect(isLapsedExpired({ state: 'lapsed', lapsed_at: ahead, last_at: ahead }, NOW, s)).toBe(true);
  });

  it('rejected, confirmed and provisional learnings are never due, however old', () => {
    const ancient = '2000-01-01T00:00:00.000Z';
    for (const state of ['rejected', 'confirmed', 'provisional'] as const) {
      expect(lapsedDeadline({ state, lapsed_at: ancient, last_at: ancient }, settings(1, 0))).toBeNull();
      expect(isLapsedExpired({ state, lapsed_at: ancient, last_at: ancient }, NOW, settings(1, 0))).toBe(false);
    }
  });

  it('a lapsed learning whose time cannot be read is due rather than kept for ever', () => {
    expect(isLapsedExpired({ state: 'lapsed', lapsed_at: 'garbage', last_at: 'garbage' }, NOW, settings())).toBe(true);
  });
});
