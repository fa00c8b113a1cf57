/** The Desk's `desk.info` answer for tests: a browser host on a healthy, watching factory. */
import type { DeskInfo } from '../../shared/api.js';

export function testDeskInfo(patch: Partial<DeskInfo> = {}): DeskInfo {
  return {
    version: '0.0.0-test',
    host: 'browser',
    factory: '/tmp/factory',
    factory_error: null,
    ledger_problem: null,
    ledger_check: 'passed',
    os_user: 'tester',
    settings: {
      learnings: { provisional_runs: 20, confirm_after: 3, max_text: 400, max_per_run: 25, keep_lapsed_days: 14 },
      retention: { days: 90 },
    },
    settings_error: null,
    settings_warnings: [],
    watcher: { state: 'watching', done_bytes: 0, total_bytes: 0, last_event_at: null, error: null, polling: false },
    last_sweep: null,
    ...patch,
  };
}
