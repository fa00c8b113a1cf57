// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../renderer/App.js';
import { FakeDesk, makeLearning } from './fakeDesk.js';

function start(desk: FakeDesk) {
  window.location.hash = '#/learnings';
  return render(<App api={desk} />);
}

function rows(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('tr.row[data-id]')];
}

function checkbox(index: number): HTMLInputElement {
  return document.querySelector<HTMLInputElement>(`tr.row[data-index="${index}"] input[type="checkbox"]`)!;
}

beforeEach(() => window.localStorage.clear());
afterEach(() => cleanup());

describe('learnings list', () => {
  it('renders a learning text holding HTML as text, never as markup', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    const desk = new FakeDesk({ learnings: [makeLearning(1, { text: evil })] });
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
    const desk = new FakeDesk();
    start(desk);
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
    const learnings = Array.from({ length: 1284 * 2 }, (_, i) => makeLearning(i, { state: 'provisional' }));
    const desk = new FakeDesk({ learnings });
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
    expect(within(dialog).getByText('Reject 1,284 learnings matching: agent = reviewer, provisional?')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Reason (optional)'), { target: { value: 'noise' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject 1,284' }));
    await screen.findByText('Rejected 1,284 learnings.');
    const call = desk.calls.find((c) => c.channel === 'learnings.reject')!.input as Record<string, unknown>;
    expect(call.target).toEqual({ filter: { agent: 'reviewer', states: ['provisional'] } });
    expect(call.reason).toBe('noise');
    expect(desk.learnings.filter((l) => l.state === 'rejected').length).toBe(1284);
  });

  it('bulk rejects a selection, keeps the selection, and Undo restores it', async () => {
    const desk = new FakeDesk();
    start(desk);
    await waitFor(() => expect(rows().length).toBeGreaterThan(8));
    fireEvent.click(checkbox(1));
    fireEvent.click(checkbox(3), { shiftKey: true });
    const ids = [1, 2, 3].map((i) => rows().find((r) => r.dataset.index === String(i))!.dataset.id!);
    fireEvent.click(await screen.findByRole('button', { name: 'Reject 3 learnings…' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Reject 3' }));
    await screen.findByText('Rejected 3 learnings.');
    expect(desk.learnings.filter((l) => ids.includes(l.id)).every((l) => l.state === 'rejected')).toBe(true);
    expect(screen.getByText('3 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await screen.findByText(/Undone: 3 restored/);
    expect(desk.learnings.filter((l) => ids.includes(l.id)).some((l) => l.state === 'rejected')).toBe(false);
    const undo = desk.calls.find((c) => c.channel === 'learnings.undo')!.input as { ids: string[] };
    expect(undo.ids.sort()).toEqual([...ids].sort());
  });

  it('triages with the keyboard only, and ignores keys typed into the search box', async () => {
    const desk = new FakeDesk();
    start(desk);
    await waitFor(() => expect(rows().length).toBeGreaterThan(8));
    const key = (k: string, extra: Record<string, unknown> = {}) => fireEvent.keyDown(document.body, { key: k, ...extra });
    key('x');
    key('j');
    key('x');
    key('j');
    key('x');
    await waitFor(() => expect(screen.getByText('3 selected')).toBeTruthy());
    key('r');
    const dialog = await screen.findByRole('dialog');
    fireEvent.submit(within(dialog).getByLabelText('Reason (optional)').closest('form')!);
    await screen.findByText('Rejected 3 learnings.');

    key('/');
    const search = screen.getByLabelText('Search') as HTMLInputElement;
    await waitFor(() => expect(document.activeElement).toBe(search));
    fireEvent.keyDown(search, { key: 'x' });
    fireEvent.keyDown(search, { key: 'j' });
    expect(screen.getByText('3 selected')).toBeTruthy();
  });

  it('a learning that arrives live appears without losing the selection', async () => {
    const desk = new FakeDesk();
    start(desk);
    await waitFor(() => expect(rows().length).toBeGreaterThan(8));
    fireEvent.click(checkbox(4));
    const id = rows().find((r) => r.dataset.index === '4')!.dataset.id!;
    desk.learnings = [...desk.learnings, makeLearning(999, { text: 'Brand new learning from the watcher' })];
    await act(async () => desk.emit('ledger.changed', { reason: 'ingest' }));
    await screen.findByText('Brand new learning from the watcher', {}, { timeout: 3000 });
    expect(screen.getByText('1 selected')).toBeTruthy();
    expect(rows().find((r) => r.dataset.id === id)!.classList.contains('selected')).toBe(true);
  });

  it('shows runs left, rediscoveries out of confirm_after, and the evidence in the detail', async () => {
    const desk = new FakeDesk({ learnings: [makeLearning(1, { state: 'provisional', runs_left: 7, rediscoveries: 2 })] });
    start(desk);
    await waitFor(() => expect(rows().length).toBe(1));
    expect(screen.getByText('lapses in 7 runs')).toBeTruthy();
    expect(screen.getByText('2 of 3')).toBeTruthy();
    fireEvent.click(rows()[0]!.querySelector('.col-text')!);
    expect(await screen.findByText(/Given to 14 runs, 9 succeeded/)).toBeTruthy();
    expect(screen.getByText(/All runs of builder: 120 runs, 90 succeeded/)).toBeTruthy();
  });
});
