/** All stores of one window, created over one DeskApi, and the live wiring to the Desk's pushes. */
import type { DeskApi } from '../../shared/api.js';
import type { HelpRequest } from '../../shared/domain.js';
import { createActivityStore } from './activity.js';
import { createDeskStore } from './desk.js';
import { createHelpStore } from './help.js';
import { createLearningsStore } from './learnings.js';
import { createNavStore } from './nav.js';
import { createRunsStore } from './runs.js';
import { createUiStore } from './ui.js';
import { createWorthStore } from './worth.js';

export function createStores(api: DeskApi) {
  return {
    api,
    nav: createNavStore(),
    desk: createDeskStore(api),
    help: createHelpStore(api),
    learnings: createLearningsStore(api),
    runs: createRunsStore(api),
    activity: createActivityStore(api),
    ui: createUiStore(),
    worth: createWorthStore(api),
  };
}
export type Stores = ReturnType<typeof createStores>;

/** Re-reads everything the operator may be looking at; selection, drafts and scroll stay. */
export async function refreshAll(stores: Stores): Promise<void> {
  const jobs: Promise<unknown>[] = [stores.help.getState().load(), stores.learnings.getState().refresh()];
  const learnings = stores.learnings.getState();
  if (learnings.detailId) jobs.push(learnings.loadDetail());
  if (stores.runs.getState().loaded) jobs.push(stores.runs.getState().refresh());
  if (stores.activity.getState().loaded) jobs.push(stores.activity.getState().load());
  if (stores.worth.getState().loaded) jobs.push(stores.worth.getState().load());
  await Promise.all(jobs);
}

export interface LiveOptions {
  /** Debounce for bursts of pushes (a catch-up sends many). */
  delayMs?: number;
  onFatal?: (request: HelpRequest) => void;
}

export function wireLive(stores: Stores, options: LiveOptions = {}): () => void {
  const delay = options.delayMs ?? 250;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      void refreshAll(stores);
    }, delay);
  };
  const offs = [
    stores.api.on('ledger.changed', schedule),
    stores.api.on('help.fatal', (request) => {
      schedule();
      options.onFatal?.(request);
    }),
    stores.api.on('watcher.status', (status) => stores.desk.getState().setWatcher(status)),
    stores.api.on('desk.changed', (info) => {
      stores.desk.getState().setInfo(info);
      schedule();
    }),
    // Connected (again): what was pushed meanwhile is read afresh (DeskApi.onConnected).
    stores.api.onConnected?.(() => {
      void stores.desk.getState().load();
      schedule();
    }) ?? (() => undefined),
  ];
  return () => {
    if (timer) clearTimeout(timer);
    for (const off of offs) off();
  };
}
