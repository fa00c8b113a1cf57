/**
 * What a retention sweep may delete, as pure rules: given the time and the settings, which UTC
 * days of event-like records are past the horizon, and when a lapsed learning is due.
 *
 * Why the rules are what they are:
 * - Help requests, runs, the proposal log and refused lines are events: each happened at a moment
 *   and stops mattering. They are kept `retention.days` and then deleted a whole UTC day at a
 *   time, so a day is either all there or all gone, never half-swept.
 * - Learnings are state, not events, and are exempt: a confirmed learning deleted for being old
 *   would be the one thing that got worse the longer it was right. Provisional ones are in use.
 * - Rejected learnings are never deleted: they are what stops an agent re-proposing what a
 *   person refused. Deleting one would quietly undo the person's no.
 * - A lapsed learning is kept `keep_lapsed_days` so that an agent arriving at it again counts as
 *   a rediscovery (the only path to confirmation without a person), then deleted so the list
 *   does not fill with what no longer applies. The period counts from `lapsed_at`; a learning
 *   that lapsed before that was recorded counts from `last_at`, which is earlier, so it never
 *   stays longer than the setting says.
 *
 * Pure: no clock, no I/O. The sweep passes `now`.
 */
import type { LearningState } from '../../shared/domain.js';
import type { Settings } from './settings.js';
import { utcDay } from './time.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day `days` whole days before `day`. */
export function addDays(day: string, days: number): string {
  const ms = Date.parse(`${day}T00:00:00.000Z`);
  if (Number.isNaN(ms)) throw new RangeError(`not a UTC day: ${day}`);
  return utcDay(new Date(ms + days * DAY_MS));
}

/**
 * The first UTC day that is kept: every day strictly before it is deleted.
 *
 * With today = the UTC day of `now`, the horizon is today − `retention.days`, and a day D is
 * deleted when D < horizon. Such a day ended (at D + 1, 00:00 UTC) no later than the start of the
 * horizon day, which is at or before `now − days`: the whole day is older than `days` days. The
 * horizon day itself still holds moments younger than that and is kept whole. With 90 days, a
 * record 89 days old is kept, one 90 days old is kept (its day is the horizon), one 91 days old
 * is deleted.
 */
export function retentionHorizon(now: Date, settings: Pick<Settings, 'retention'>): string {
  return addDays(utcDay(now), -settings.retention.days);
}

/** The UTC day an events file holds, from its name `YYYY-MM-DD.jsonl`; null for other names. */
export function eventFileDay(name: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})\.jsonl$/.exec(name);
  if (!match) return null;
  const day = match[1]!;
  const ms = Date.parse(`${day}T00:00:00.000Z`);
  // Reject impossible dates (2026-02-31) rather than let them sort somewhere odd.
  if (Number.isNaN(ms) || utcDay(new Date(ms)) !== day) return null;
  return day;
}

export interface LapsedClock {
  state: LearningState;
  lapsed_at: string | null;
  last_at: string;
}

/**
 * When a learning becomes due for deletion, or null when it never does (every state but
 * lapsed). The deadline is `keep_lapsed_days` × 24 h after `lapsed_at`, after `last_at` when
 * `lapsed_at` is unknown. An unreadable time counts as due: the setting is an upper bound on how
 * long a lapsed learning stays, and a learning nobody can date must not stay for ever.
 */
export function lapsedDeadline(learning: LapsedClock, settings: Pick<Settings, 'learnings'>): Date | null {
  if (learning.state !== 'lapsed') return null;
  const from = Date.parse(learning.lapsed_at ?? learning.last_at);
  if (Number.isNaN(from)) return new Date(0);
  return new Date(from + settings.learnings.keep_lapsed_days * DAY_MS);
}

/**
 * Whether a sweep at `now` deletes this learning. Only lapsed ones ever are, once `now` has
 * reached their deadline. With `keep_lapsed_days = 0` every lapsed learning is deleted at the
 * first sweep after it lapsed, even if the factory's clock (which dated the lapse) runs ahead of
 * the Desk's: 0 means "do not keep", not "keep until the clocks agree".
 */
/**
 * The latest instant a lapsed learning's clock (`lapsed_at`, else `last_at`) may show and the
 * learning be expired at `now`, or null when every lapsed learning is (`keep_lapsed_days = 0`).
 * It lets a sweep ask the ledger for the expired ones only, through an index, instead of reading
 * every lapsed learning; {@link isLapsedExpired} still decides each one it finds.
 */
export function lapsedCutoff(now: Date, settings: Pick<Settings, 'learnings'>): Date | null {
  if (settings.learnings.keep_lapsed_days === 0) return null;
  return new Date(now.getTime() - settings.learnings.keep_lapsed_days * DAY_MS);
}

export function isLapsedExpired(learning: LapsedClock, now: Date, settings: Pick<Settings, 'learnings'>): boolean {
  const deadline = lapsedDeadline(learning, settings);
  if (deadline === null) return false;
  if (settings.learnings.keep_lapsed_days === 0) return true;
  return now.getTime() >= deadline.getTime();
}
