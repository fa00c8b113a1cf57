// @vitest-environment happy-dom
/**
 * What the window asks the Desk for, counted on the real Desk's door (`sent`): the Learnings list
 * opened on a filtered address, and the Runs view as its filter changes and the ledger grows.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../renderer/App.js';
import { createStores } from '../../renderer/state/stores.js';
import { fullRun, proposed } from '../support/events.js';
import { closeRealDesks, openRealDesk, WATCHER_WAIT_MS, type RealDesk } from './realDesk.js';

/** The calls on `channel` the window has sent so far. */
const sentOn = (desk: RealDesk, channel: string) => desk.sent.filter((c) => c.channel === channel);

beforeEach(() => window.localStorage.clear());
afterEach(async () => {
  cleanup();
  await closeRealDesks();
});

describe('the Learnings list on a filtered address', () => {
  it('queries the ledger once, for the filter the address holds, not first for the unfiltered list', async () => {
    const desk = await openRealDesk({
      prepare: (f) =>
        f.write(
          proposed({ at: f.at(), agent: 'reviewer', text: 'Review the migration before the deploy window opens' }),
          proposed({ at: f.at(), agent: 'builder', text: 'Cache the toolchain between the nightly builds' }),
        ),
    });
    window.location.hash = '#/learnings?agent=reviewer';
    render(<App api={desk.api} />);
    await waitFor(() => expect(document.querySelectorAll('tr.row[data-id]')).toHaveLength(1));
    expect(sentOn(desk, 'learnings.query').map((c) => (c.input as { filter: unknown }).filter)).toEqual([{ agent: 'reviewer' }]);
  });
});

describe('the address', () => {
  it('a view named in the address after the first render read it, with no hashchange heard, is the view shown', async () => {
    const desk = await openRealDesk();
    window.location.hash = '';
    // The stores read the address at the first render; it changes, and its hashchange is sent,
    // before the window listens for one (App.tsx).
    const stores = createStores(desk.api);
    const sent = new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
    window.location.hash = '#/activity';
    await sent;
    render(<App api={desk.api} stores={stores} />);
    await screen.findByRole('heading', { name: 'Activity', level: 1 });
  });
});

describe('the Runs view', () => {
  async function runsDesk(): Promise<RealDesk> {
    return openRealDesk({
      prepare: (f) =>
        f.write(
          ...fullRun('builder', 'run_b1', f.at(), f.at(), { workflow: 'build' }),
          ...fullRun('reviewer', 'run_r1', f.at(), f.at(), { workflow: 'review' }),
        ),
    });
  }

  it('reads the open run’s detail again only when the run in view changes, not when the filter does', async () => {
    const desk = await runsDesk();
    window.location.hash = '#/runs?run=run_b1';
    render(<App api={desk.api} />);
    await screen.findByRole('heading', { name: 'Run run_b1' });
    const listings = sentOn(desk, 'runs.list').length;
    fireEvent.change(screen.getByLabelText('Workflow'), { target: { value: 'review' } });
    await waitFor(() => expect(sentOn(desk, 'runs.list').length).toBeGreaterThan(listings));
    await waitFor(() => expect(document.querySelector('a[href*="run=run_b1"][aria-current]')).toBeNull());
    expect(sentOn(desk, 'runs.detail').map((c) => c.input)).toEqual([{ run: 'run_b1' }]);

    window.location.hash = '#/runs?run=run_r1&workflow=review';
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    await screen.findByRole('heading', { name: 'Run run_r1' });
    expect(sentOn(desk, 'runs.detail').map((c) => c.input)).toEqual([{ run: 'run_b1' }, { run: 'run_r1' }]);
  });

  it('opened on a filtered address, lists the runs once, for that filter', async () => {
    const desk = await runsDesk();
    window.location.hash = '#/runs?workflow=review';
    render(<App api={desk.api} />);
    await waitFor(() => expect(document.querySelectorAll('a[href*="run=run_r1"]').length).toBeGreaterThan(0));
    expect(sentOn(desk, 'runs.list').map((c) => c.input)).toEqual([{ limit: 100, workflow: 'review' }]);
  });

  it('asks for the workflow choices once when the view opens, not with each listing, and again after the ledger changes', async () => {
    const desk = await runsDesk();
    window.location.hash = '#/runs';
    render(<App api={desk.api} />);
    await screen.findByRole('option', { name: 'review' });
    const outcome = screen.getByLabelText('Outcome');
    for (const value of ['failed', 'succeeded', '']) {
      const listings = sentOn(desk, 'runs.list').length;
      fireEvent.change(outcome, { target: { value } });
      await waitFor(() => expect(sentOn(desk, 'runs.list').length).toBeGreaterThan(listings));
    }
    expect(sentOn(desk, 'runs.workflows')).toHaveLength(1);

    desk.factory.write(...fullRun('builder', 'run_b2', desk.factory.at(), desk.factory.at(), { workflow: 'release' }));
    await screen.findByRole('option', { name: 'release' }, { timeout: WATCHER_WAIT_MS });
    expect(sentOn(desk, 'runs.workflows').length).toBeGreaterThan(1);
  });
});
