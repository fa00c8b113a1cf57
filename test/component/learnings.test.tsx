// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../renderer/App.js';
import { proposed, runFinished, runStarted } from '../support/events.js';
import type { TestFactory } from '../support/testFactory.js';
import { closeRealDesks, OS_USER, openRealDesk, WATCHER_WAIT_MS, type RealDesk } from './realDesk.js';

function start(desk: RealDesk) {
  window.location.hash = '#/learnings';
  return render(<App api={desk.api} />);
}

function rows(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('tr.row[data-id]')];
}

function checkbox(index: number): HTMLInputElement {
  return document.querySelector<HTMLInputElement>(`tr.row[data-index="${index}"] input[type="checkbox"]`)!;
}

/** The text of the `i`th learning: the number makes each a claim of its own (sameness.ts). */
const text = (i: number) => `Learning number ${i}: run the linter before committing`;

/** `count` proposals, every other one by the reviewer and the rest by the builder. */
function proposals(count: number): (factory: TestFactory) => void {
  return (factory) =>
    factory.write(
      ...Array.from({ length: count }, (_, i) => proposed({ at: factory.at(), agent: i % 2 === 0 ? 'reviewer' : 'builder', text: text(i) })),
    );
}

/** A Desk whose ledger holds `count` provisional learnings, made by the agents' proposals. */
const withLearnings = (count = 50) => openRealDesk({ prepare: proposals(count) });

/** The states the ledger holds the learnings `ids` in. */
async function states(desk: RealDesk, ids: string[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => (await desk.call('learnings.detail', { id })).learning.state));
}

beforeEach(() => window.localStorage.clear());
afterEach(async () => {
  cleanup();
  await closeRealDesks();
});

describe('learnings list', () => {
  it('renders a learning text holding HTML as text, never as markup', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const desk = await openRealDesk({ prepare: (f) => f.write(proposed({ at: f.at(), agent: 'builder', text: evil })) });
    start(desk);
    await waitFor(() => expect(rows().length).toBe(1));
    const cell = rows()[0]!.querySelector('.col-text')!;
    expect(cell.textContent).toBe(evil);
    expect(document.querySelector('img')).toBeNull();
    fireEvent.click(cell);
    await screen.findByText(evil, { selector: '.learning-text' });
    expect(document.querySelector('img')).toBeNull();
  });

  it('selects a range with shift-click', async () => {
    start(await withLearnings());
    await waitFor(() => expect(rows().length).toBeGreaterThan(8));
    fireEvent.click(checkbox(2));
    fireEvent.click(checkbox(6), { shiftKey: true });
    await waitFor(() => expect(screen.getByText('5 selected')).toBeTruthy());
    const selected = rows().filter((r) => r.classList.contains('selected')).map((r) => Number(r.dataset.index));
    expect(selected).toEqual([2, 3, 4, 5, 6]);
    // Shift-click upwards from the last clicked row extends from the anchor.
    fireEvent.click(checkbox(0), { shiftKey: true });
    await waitFor(() => expect(screen.getByText('7 selected')).toBeTruthy());
  });

  it('select all matching states the true count and the filter, and rejects by filter', async () => {
    const desk = await withLearnings(1284 * 2);
    start(desk);
    await waitFor(() => expect(rows().length).toBeGreaterThan(0));
    fireEvent.change(screen.getByLabelText('Agent'), { target: { value: 'reviewer' } });
    fireEvent.click(screen.getByRole('button', { name: /^provisional/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Select all 1,284 matching' }));
    const reject = await screen.findByRole('button', {
      name: 'Reject 1,284 learnings matching: agent = reviewer, provisional…',
    });
    fireEvent.click(reject);
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText(`Reject 1,284 learnings matching: agent = reviewer, provisional as ${OS_USER}?`)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason (optional)'), { target: { value: 'noise' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject 1,284' }));
    await screen.findByText(`Rejected 1,284 learnings as ${OS_USER}.`);
    const rejected = await desk.call('learnings.query', { filter: { states: ['rejected'] }, limit: 1 });
    expect(rejected.total).toBe(1284);
    expect(rejected.rows[0]).toMatchObject({ agent: 'reviewer', reason: 'noise' });
    expect((await desk.call('learnings.query', { filter: { agent: 'builder' } })).counts.provisional).toBe(1284);
  });

  it('bulk rejects a selection, keeps the selection, and Undo restores it', async () => {
    const desk = await withLearnings();
    start(desk);
    await waitFor(() => expect(rows().length).toBeGreaterThan(8));
    fireEvent.click(checkbox(1));
    fireEvent.click(checkbox(3), { shiftKey: true });
    const ids = [1, 2, 3].map((i) => rows().find((r) => r.dataset.index === String(i))!.dataset.id!);
    fireEvent.click(await screen.findByRole('button', { name: 'Reject 3 learnings…' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reject 3' }));
    await screen.findByText(`Rejected 3 learnings as ${OS_USER}.`);
    expect(await states(desk, ids)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((await desk.call('learnings.query', { filter: { states: ['rejected'] } })).total).toBe(3);
    expect(screen.getByText('3 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText(`Undone as ${OS_USER}: 3 restored.`);
    expect(await states(desk, ids)).toEqual(['provisional', 'provisional', 'provisional']);
  });

  it('triages with the keyboard only, and ignores keys typed into the search box', async () => {
    const desk = await withLearnings();
    start(desk);
    await waitFor(() => expect(rows().length).toBeGreaterThan(8));
    const key = (k: string, extra: Record<string, unknown> = {}) => fireEvent.keyDown(document.body, { key: k, ...extra });
    key('x');
    key('j');
    key('x');
    key('j');
    key('x');
    await waitFor(() => expect(screen.getByText('3 selected')).toBeTruthy());
    const ids = [0, 1, 2].map((i) => rows().find((r) => r.dataset.index === String(i))!.dataset.id!);
    key('r');
    const dialog = await screen.findByRole('dialog');
    fireEvent.submit(within(dialog).getByLabelText('Reason (optional)').closest('form')!);
    await screen.findByText(`Rejected 3 learnings as ${OS_USER}.`);
    expect(await states(desk, ids)).toEqual(['rejected', 'rejected', 'rejected']);

    key('/');
    const search = screen.getByLabelText('Search') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(search));
    fireEvent.keyDown(search, { key: 'x' });
    fireEvent.keyDown(search, { key: 'j' });
    expect(screen.getByText('3 selected')).toBeTruthy();
  });

  it('a learning that arrives live appears without losing the selection', async () => {
    const desk = await withLearnings();
    start(desk);
    await waitFor(() => expect(rows().length).toBeGreaterThan(8));
    fireEvent.click(checkbox(4));
    const id = rows().find((r) => r.dataset.index === '4')!.dataset.id!;
    // The agent proposes while the Desk runs: its watcher takes the line up and tells the window.
    desk.factory.write(proposed({ at: desk.factory.at(), agent: 'builder', text: 'Brand new learning from the watcher' }));
    await screen.findByText('Brand new learning from the watcher', {}, { timeout: WATCHER_WAIT_MS });
    expect(screen.getByText('1 selected')).toBeTruthy();
    expect(rows().find((r) => r.dataset.id === id)!.classList.contains('selected')).toBe(true);
  });

  it('shows runs left (one run in the singular, in the list and the detail alike), rediscoveries out of confirm_after, and the evidence in the detail', async () => {
    const claim = 'Clear the build cache when the compiler reports phantom type errors.';
    let run = 0;
    /** A finished run of the builder, given `learnings`. */
    const builderRun = (f: TestFactory, outcome: string, learnings: string[] = []) => {
      const id = `run_${++run}`;
      f.write(runStarted({ at: f.at(), run: id, agent: 'builder', learnings }), runFinished({ at: f.at(), run: id, agent: 'builder', outcome }));
    };
    // Three runs are all a provisional learning survives here. The builder proposes the claim,
    // runs three times with it (it lapses), proposes it again (a rediscovery), and so on: two
    // rediscoveries, then two runs more, so one run is left. Two runs before the first proposal
    // count for the builder only.
    const desk = await openRealDesk({
      settings: '[learnings]\nprovisional_runs = 3\nconfirm_after = 3\n',
      prepare: async (f) => {
        builderRun(f, 'succeeded');
        builderRun(f, 'failed');
        f.write(proposed({ at: f.at(), agent: 'builder', text: claim }));
        await f.ingest();
        const [learning] = await f.learnings();
        const given = [learning!.id];
        for (const outcome of ['succeeded', 'failed', 'succeeded']) builderRun(f, outcome, given);
        f.write(proposed({ at: f.at(), agent: 'builder', text: claim }));
        for (const outcome of ['succeeded', 'failed', 'succeeded']) builderRun(f, outcome, given);
        f.write(proposed({ at: f.at(), agent: 'builder', text: claim }));
        for (const outcome of ['succeeded', 'succeeded']) builderRun(f, outcome, given);
      },
    });
    start(desk);
    await waitFor(() => expect(rows().length).toBe(1));
    expect(screen.getByText('lapses in 1 run')).toBeTruthy();
    expect(screen.getByText('2 of 3')).toBeTruthy();
    fireEvent.click(rows()[0]!.querySelector('.col-text')!);
    expect(await screen.findByText(/Given to 8 runs, 6 succeeded/)).toBeTruthy();
    expect(screen.getByText(/All runs of builder: 10 runs, 7 succeeded/)).toBeTruthy();
    expect(screen.getAllByText('lapses in 1 run')).toHaveLength(2);
  });
});
