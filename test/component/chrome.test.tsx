// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../renderer/App.js';
import { matchShortcut, SHORTCUTS } from '../../renderer/lib/shortcuts.js';
import { FakeDesk, makeRequest, makeSweep } from './fakeDesk.js';

afterEach(() => cleanup());

describe('window chrome', () => {
  it('the shortcut sheet lists every shortcut', async () => {
    window.location.hash = '#/needs';
    render(<App api={new FakeDesk()} />);
    fireEvent.keyDown(document.body, { key: '?' });
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    for (const s of SHORTCUTS) {
      const row = dialog.querySelector(`[data-shortcut="${s.id}"]`)!;
      expect(row).not.toBeNull();
      expect(row.textContent).toContain(s.label);
      for (const k of s.keys) expect(within(row as HTMLElement).getByText(k, { selector: 'kbd' })).toBeTruthy();
    }
    for (const k of ['j', 'k', 'x', 'Shift', 'r', 'e', '/', '?', 'Esc', 'Ctrl/⌘', 'Enter']) {
      expect(within(dialog).getAllByText(k, { selector: 'kbd' }).length).toBeGreaterThan(0);
    }
    // Ctrl/⌘+Enter sends a reply from the answer box: the sheet says so.
    const send = dialog.querySelector('[data-shortcut="send"]') as HTMLElement;
    expect(send.textContent).toMatch(/Ctrl\/⌘\s*\+\s*Enter/);
    expect(send.textContent).toContain('send the reply');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('every key the window and the answer box react to is a listed shortcut', () => {
    const press = (key: string, mod = false) => ({ key, ctrlKey: mod, metaKey: false, altKey: false });
    // The handlers hear only what matchShortcut finds in SHORTCUTS, so the sheet cannot miss one.
    expect(matchShortcut(press('Enter', true), 'answer')?.id).toBe('send');
    expect(matchShortcut(press('Enter'), 'answer')).toBeUndefined();
    expect(matchShortcut(press('j'), 'window')?.id).toBe('down');
    expect(matchShortcut(press('X'), 'window')?.id).toBe('range');
    expect(matchShortcut(press('Escape'), 'window')?.id).toBe('escape');
    expect(matchShortcut(press('j', true), 'window')).toBeUndefined();
    expect(matchShortcut(press('z'), 'window')).toBeUndefined();
    const ids = SHORTCUTS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('Ctrl+Enter in the answer box sends the reply', async () => {
    window.location.hash = '#/needs';
    const desk = new FakeDesk();
    render(<App api={desk} />);
    const answer = await screen.findByLabelText('Answer (required)');
    fireEvent.change(answer, { target: { value: 'Sent from the keyboard.' } });
    fireEvent.keyDown(answer, { key: 'Enter', ctrlKey: true });
    expect(await screen.findByText(/Answered by/)).toBeTruthy();
    expect(desk.calls.some((c) => c.channel === 'help.reply')).toBe(true);
  });

  it('has a main landmark, the title, and lists help requests in the order the Desk gives them, with a badge', async () => {
    window.location.hash = '#/needs';
    // Listed by the Desk in this order (its listing is the one rule, tested in help.test.ts): the
    // window must not re-rank them, even where a ranking of its own would put the fatal one first.
    const desk = new FakeDesk({
      requests: [
        makeRequest({ id: 'h_a', fatal: false, awaiting_human: false, question: 'Minor question', at: '2026-01-03T00:00:00Z' }),
        makeRequest({ id: 'h_b', fatal: true, awaiting_human: false, question: 'Blocking question', at: '2026-01-01T00:00:00Z' }),
      ],
    });
    render(<App api={desk} />);
    expect(screen.getByRole('main')).toBeTruthy();
    expect(document.title).toBe('Layover Desk');
    await screen.findByText('Blocking question');
    const items = [...document.querySelectorAll('[data-request]')].map((e) => e.getAttribute('data-request'));
    expect(items).toEqual(['h_a', 'h_b']);
    expect(screen.getByRole('link', { name: /Needs you/ }).textContent).toContain('2');
  });

  it('shows settings errors and asks before restoring the ledger', async () => {
    window.location.hash = '#/needs';
    const desk = new FakeDesk();
    desk.info = {
      ...desk.info,
      settings_error: 'learnings.confirm_after: must be at least 1',
      ledger_problem: { file: '/tmp/f/.layover/ledger.sqlite', message: 'database disk image is malformed', newest_backup: 'ledger-2026.sqlite' },
    };
    render(<App api={desk} />);
    expect(await screen.findByText(/confirm_after: must be at least 1/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Restore newest safety copy' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(desk.calls.some((c) => c.channel === 'ledger.restore')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(desk.calls.some((c) => c.channel === 'ledger.restore')).toBe(true));
  });

  it('opening a folder that is not a factory yet asks first, and makes it one only when confirmed', async () => {
    const desk = new FakeDesk();
    desk.notFactories.add('/home/ana/projects');
    render(<App api={desk} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open Factory…' }));
    fireEvent.change(screen.getByLabelText('Factory folder (absolute path)'), { target: { value: '/home/ana/projects' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const ask = await screen.findByRole('dialog', { name: 'Make a new factory?' });
    expect(within(ask).getByText('/home/ana/projects is not a factory yet. Make it a new factory?')).toBeTruthy();
    const opens = () => desk.calls.filter((c) => c.channel === 'factory.open').map((c) => c.input);
    expect(opens()).toEqual([{ path: '/home/ana/projects' }]);
    fireEvent.click(within(ask).getByRole('button', { name: 'Make it a factory' }));
    await waitFor(() => expect(opens()).toEqual([{ path: '/home/ana/projects' }, { path: '/home/ana/projects', create: true }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('the activity chart is an accessible image with a table of its numbers', async () => {
    window.location.hash = '#/activity';
    render(<App api={new FakeDesk()} />);
    const img = await screen.findByRole('img', { name: /11 proposals, 1 lapses, 3 help requests/ });
    expect(img.tagName.toLowerCase()).toBe('svg');
    expect(screen.getByRole('table', { name: 'Per-day counts' })).toBeTruthy();
  });

  it('shows the refused event lines a sweep deleted, in the status bar and in Activity', async () => {
    window.location.hash = '#/activity';
    const desk = new FakeDesk({
      sweeps: [makeSweep({ refused_lines: 13 }), makeSweep({ at: '2026-01-01T03:00:00.000Z', refused_lines: 0 })],
    });
    render(<App api={desk} />);
    const status = await screen.findByRole('contentinfo', { name: 'Status' });
    await waitFor(() => expect(status.textContent).toContain('13 refused lines'));
    const heading = await screen.findByRole('heading', { name: 'Sweeps' });
    const table = heading.parentElement!.querySelector('table')!;
    const headers = [...table.querySelectorAll('th')].map((th) => th.textContent);
    const column = headers.indexOf('Refused lines');
    expect(column).toBeGreaterThan(0);
    await waitFor(() => expect(table.querySelectorAll('tbody tr').length).toBe(2));
    const cells = [...table.querySelectorAll('tbody tr')].map((tr) => tr.querySelectorAll('td')[column]!.textContent);
    expect(cells).toEqual(['13', '0']);
  });
});
