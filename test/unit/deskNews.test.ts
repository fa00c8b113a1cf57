/**
 * The window's record of the Desk keeps the newest news (renderer/state/desk.ts): an answer that
 * comes back after a newer push does not put back what the push already moved past, and keeps
 * what the push does not say.
 */
import { describe, expect, it } from 'vitest';
import type { DeskApi, DeskInfo } from '../../shared/api.js';
import type { SweepReport, WatcherStatus } from '../../shared/domain.js';
import { createDeskStore } from '../../renderer/state/desk.js';

const status = (state: WatcherStatus['state']): WatcherStatus => ({ state, done_bytes: 0, total_bytes: 0, last_event_at: null, error: null, polling: false });
const infoWith = (watcher: WatcherStatus, last_sweep: SweepReport | null = null): DeskInfo => ({ watcher, last_sweep }) as DeskInfo;
const sweepAt = (at: string): SweepReport => ({ at, help_requests: 0, runs: 0, proposals: 0, refused_lines: 0, event_files: 0, lapsed_learnings: 5, chains: 0 });

/** A door whose `desk.info` answers only when the test says, with what the test gives. */
function slowDoor() {
  const pending: ((info: DeskInfo) => void)[] = [];
  const api = {
    call: () => new Promise((resolve) => pending.push(resolve)),
    on: () => () => undefined,
  } as unknown as DeskApi;
  return { api, pending, answer: (info: DeskInfo) => pending.shift()!(info) };
}

describe('the window keeps the newest news of the Desk', () => {
  it('an answer asked before a push and answered after it does not put back the older state', async () => {
    const { api, answer } = slowDoor();
    const desk = createDeskStore(api);
    const loading = desk.getState().load();
    desk.getState().setWatcher(status('watching'));
    answer(infoWith(status('starting')));
    await loading;
    expect(desk.getState().watcher?.state).toBe('watching');
  });

  it('of two answers, the one asked last is kept, whichever comes back first', async () => {
    const { api, pending } = slowDoor();
    const desk = createDeskStore(api);
    const first = desk.getState().load();
    const second = desk.getState().load();
    pending[1]!(infoWith(status('watching')));
    pending[0]!(infoWith(status('starting')));
    await Promise.all([first, second]);
    expect(desk.getState().watcher?.state).toBe('watching');
  });

  it('an answer that comes back after a push of the watcher alone still shows the rest of what it says', async () => {
    // The read made when the event stream connects is the only news of a sweep pushed before.
    const { api, answer } = slowDoor();
    const desk = createDeskStore(api);
    const loading = desk.getState().load();
    desk.getState().setWatcher(status('watching'));
    answer(infoWith(status('catching_up'), sweepAt('2026-12-02T01:00:00.000Z')));
    await loading;
    expect(desk.getState().info?.last_sweep?.at).toBe('2026-12-02T01:00:00.000Z');
    expect(desk.getState().watcher?.state).toBe('watching');
  });

  it('an answer that comes back after a push of the whole Desk is dropped whole', async () => {
    const { api, answer } = slowDoor();
    const desk = createDeskStore(api);
    const loading = desk.getState().load();
    desk.getState().setInfo(infoWith(status('watching'), sweepAt('2026-12-02T02:00:00.000Z')));
    answer(infoWith(status('starting'), sweepAt('2026-12-02T01:00:00.000Z')));
    await loading;
    expect(desk.getState().info?.last_sweep?.at).toBe('2026-12-02T02:00:00.000Z');
    expect(desk.getState().watcher?.state).toBe('watching');
  });

  it('an answer with no push since it was asked is shown', async () => {
    const { api, answer } = slowDoor();
    const desk = createDeskStore(api);
    const loading = desk.getState().load();
    answer(infoWith(status('catching_up')));
    await loading;
    expect(desk.getState().info?.watcher.state).toBe('catching_up');
  });
});
