import { describe, expect, it } from 'vitest';
import type { SweepReport } from '../../shared/domain.js';
import { BackupScheduler, type BackupInfo } from '../../electron/node/backup.js';
import { SweepScheduler, type SchedulerClock } from '../../electron/node/sweep.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A clock whose time moves only when the test says, firing due timers in order. */
class FakeClock implements SchedulerClock {
  time = 0;
  private next = 1;
  private timers = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.time + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  pending(): number {
    return this.timers.size;
  }
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].callback();
    }
    this.time = end;
  }
}

const REPORT: SweepReport = { at: '', help_requests: 0, runs: 0, proposals: 0, refused_lines: 0, event_files: 0, lapsed_learnings: 0, chains: 0 };

function sweeper() {
  const clock = new FakeClock();
  const times: number[] = [];
  const scheduler = new SweepScheduler({
    clock,
    sweep: () => {
      times.push(clock.now());
      return REPORT;
    },
  });
  return { clock, times, scheduler };
}

describe('when sweeps run', () => {
  it('a sweep runs when the Desk starts, then hourly', () => {
    const { clock, times, scheduler } = sweeper();
    scheduler.start();
    expect(times).toEqual([0]);
    clock.advance(3 * HOUR);
    expect(times).toEqual([0, HOUR, 2 * HOUR, 3 * HOUR]);
    scheduler.stop();
  });

  it('finished runs trigger a sweep at most once a minute, and a burst is not lost', () => {
    const { clock, times, scheduler } = sweeper();
    scheduler.start();
    clock.advance(10_000);
    scheduler.noteRunsFinished();
    scheduler.noteRunsFinished();
    expect(times).toEqual([0]);
    clock.advance(50_000);
    expect(times).toEqual([0, MINUTE]);
    clock.advance(5 * MINUTE);
    scheduler.noteRunsFinished();
    expect(times).toEqual([0, MINUTE, 6 * MINUTE]);
    scheduler.stop();
  });

  it('after a sweep triggered by runs, the hourly one counts from it', () => {
    const { clock, times, scheduler } = sweeper();
    scheduler.start();
    clock.advance(30 * MINUTE);
    scheduler.noteRunsFinished();
    clock.advance(HOUR);
    expect(times).toEqual([0, 30 * MINUTE, 90 * MINUTE]);
    scheduler.stop();
  });

  it('a sweep that fails is reported and the schedule goes on', () => {
    const clock = new FakeClock();
    const errors: unknown[] = [];
    let calls = 0;
    const scheduler = new SweepScheduler({
      clock,
      sweep: () => {
        calls++;
        throw new Error('database is locked');
      },
      onError: (e) => errors.push(e),
    });
    scheduler.start();
    clock.advance(HOUR);
    expect(calls).toBe(2);
    expect(errors).toHaveLength(2);
    scheduler.stop();
  });

  it('after stop nothing more runs and no timer is left', () => {
    const { clock, times, scheduler } = sweeper();
    scheduler.start();
    scheduler.stop();
    scheduler.noteRunsFinished();
    clock.advance(5 * HOUR);
    expect(times).toEqual([0]);
    expect(clock.pending()).toBe(0);
  });
});

describe('when safety copies are made', () => {
  function backuper(newestAt: number | null) {
    const clock = new FakeClock();
    const made: number[] = [];
    let newest = newestAt;
    const scheduler = new BackupScheduler({
      clock,
      newestAt: () => newest,
      backup: async () => {
        made.push(clock.now());
        newest = clock.now();
        return { name: 'x', file: 'x', at: '', size: 0 } satisfies BackupInfo;
      },
    });
    return { clock, made, scheduler };
  }

  it('a copy is made at start when there is none, then every day', async () => {
    const { clock, made, scheduler } = backuper(null);
    scheduler.start();
    await scheduler.idle();
    for (let day = 0; day < 2; day++) {
      clock.advance(DAY);
      await scheduler.idle();
    }
    expect(made).toEqual([0, DAY, 2 * DAY]);
    scheduler.stop();
  });

  it('a start within a day of the newest copy waits for the rest of the day', async () => {
    const { clock, made, scheduler } = backuper(-5 * HOUR);
    scheduler.start();
    await scheduler.idle();
    expect(made).toEqual([]);
    clock.advance(19 * HOUR);
    await scheduler.idle();
    expect(made).toEqual([19 * HOUR]);
    scheduler.stop();
  });

  it('a start more than a day after the newest copy makes one at once', async () => {
    const { made, scheduler } = backuper(-25 * HOUR);
    scheduler.start();
    await scheduler.idle();
    expect(made).toEqual([0]);
    scheduler.stop();
  });
});
