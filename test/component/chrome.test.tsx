// @vitest-environment happy-dom
import fs from 'node:fs';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../renderer/App.js';
import { matchShortcut, SHORTCUTS } from '../../renderer/lib/shortcuts.js';
import { isFactory } from '../../electron/node/factory.js';
import { ledgerPath } from '../../electron/node/store/db.js';
import { fullRun, helpRequested, proposed } from '../support/events.js';
import { eventually, tempFactory } from '../support/factory.js';
import { damageLedgerFile } from '../support/ledger.js';
import { closeRealDesks, openRealDesk, WATCHER_WAIT_MS } from './realDesk.js';

const folders: (() => void)[] = [];
afterEach(async () => {
  cleanup();
  await closeRealDesks();
  for (const remove of folders.splice(0)) remove();
});

describe('window chrome', () => {
  it('the shortcut sheet lists every shortcut', async () => {
    window.location.hash = '#/needs';
    const { api } = await openRealDesk();
    render(<App api={api} />);
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
    const { api, call } = await openRealDesk({ prepare: (f) => void f.ask({ id: 'help_1' }) });
    render(<App api={api} />);
    const answer = await screen.findByLabelText('Answer (required)');
    fireEvent.change(answer, { target: { value: 'Sent from the keyboard.' } });
    fireEvent.keyDown(answer, { key: 'Enter', ctrlKey: true });
    expect(await screen.findByText(/Answered by/)).toBeTruthy();
    const { request } = await call('help.detail', { id: 'help_1' });
    expect(request.state).toBe('answered');
    expect(request.answer).toBe('Sent from the keyboard.');
  });

  it('has a main landmark, the title, and lists help requests in the order the Desk gives them, with a badge', async () => {
    window.location.hash = '#/needs';
    // The Desk lists the fatal request that holds its chain first, though it is the older one
    // (its listing is the one rule, tested in help.test.ts): the window must not re-rank them.
    const { api, call } = await openRealDesk({
      prepare: (f) => {
        f.ask({ id: 'h_b', fatal: true, question: 'Blocking question' });
        f.ask({ id: 'h_a', fatal: false, question: 'Minor question' });
      },
    });
    render(<App api={api} />);
    expect(screen.getByRole('main')).toBeTruthy();
    expect(document.title).toBe('Layover Desk');
    await screen.findByText('Blocking question');
    await screen.findByText('Minor question');
    const items = [...document.querySelectorAll('[data-request]')].map((e) => e.getAttribute('data-request'));
    const listed = (await call('help.list', { open: true })).rows.map((r) => r.id);
    expect(listed).toEqual(['h_b', 'h_a']);
    expect(items).toEqual(listed);
    expect(screen.getByRole('link', { name: /Needs you/ }).textContent).toContain('2');
  });

  it('shows settings errors and asks before restoring the ledger', async () => {
    window.location.hash = '#/needs';
    const { api, call } = await openRealDesk({
      settings: '[learnings]\nconfirm_after = 0\n',
      prepare: async (f) => {
        f.write(proposed({ at: f.at(), agent: 'builder', text: 'Pin the base image by digest so rebuilds stay the same.' }));
        await f.ingest();
        await f.ok('backup');
        damageLedgerFile(ledgerPath(f.dir));
      },
    });
    const before = await call('desk.info', {});
    expect(before.ledger_problem?.newest_backup).toBeTruthy();
    render(<App api={api} />);
    expect(await screen.findByText(/learnings\.confirm_after/)).toBeTruthy();
    expect(screen.getByText(/layover\.toml refused/).textContent).toContain(before.settings_error!);
    fireEvent.click(await screen.findByRole('button', { name: 'Restore newest safety copy' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect((await call('desk.info', {})).ledger_problem).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(screen.queryByText(/Ledger problem/)).toBeNull());
    expect((await call('desk.info', {})).ledger_problem).toBeNull();
  });

  it('opening a folder that is not a factory yet asks first, and makes it one only when confirmed', async () => {
    const { api } = await openRealDesk();
    const folder = tempFactory('layover-not-a-factory-');
    folders.push(folder.remove);
    render(<App api={api} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open Factory…' }));
    fireEvent.change(screen.getByLabelText('Factory folder (absolute path)'), { target: { value: folder.dir } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const ask = await screen.findByRole('dialog', { name: 'Make a new factory?' });
    expect(within(ask).getByText(`${folder.dir} is not a factory yet (no events/, layover.toml or .layover/ in it). Make it a new factory?`)).toBeTruthy();
    expect(isFactory(folder.dir)).toBe(false);
    fireEvent.click(within(ask).getByRole('button', { name: 'Make it a factory' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const status = screen.getByRole('contentinfo', { name: 'Status' });
    await waitFor(() => expect(status.textContent).toContain(`Factory: ${folder.dir}`));
    expect(fs.existsSync(ledgerPath(folder.dir))).toBe(true);
  });

  it('the activity chart is a labelled group of days, each an image naming its date and numbers, with a table of them', async () => {
    window.location.hash = '#/activity';
    // One run is all a provisional learning survives here: the first finished run lapses it.
    const { api } = await openRealDesk({
      settings: '[learnings]\nprovisional_runs = 1\n',
      prepare: (f) => {
        f.write(
          proposed({ at: f.at(), agent: 'builder', text: 'Run the migrations before the integration test suite.' }),
          proposed({ at: f.at(), agent: 'builder', text: 'Pin the base image by digest so rebuilds stay the same.' }),
          proposed({ at: f.at(), agent: 'reviewer', text: 'Ask for a second review on changes to the payment module.' }),
          ...fullRun('reviewer', 'run_r1', f.at(), f.at()),
          helpRequested({ at: f.at(), id: 'help_1', agent: 'builder', run: 'run_b1', chain: 'chain_b1' }),
          helpRequested({ at: f.at(), id: 'help_2', agent: 'builder', run: 'run_b2', chain: 'chain_b2' }),
        );
      },
    });
    render(<App api={api} />);
    const chart = await screen.findByRole('group', { name: /3 proposals, 1 lapse, 2 help requests/ });
    expect(chart.tagName.toLowerCase()).toBe('svg');
    const today = new Date().toISOString().slice(0, 10);
    const day = within(chart).getAllByRole('img').find((g) => g.getAttribute('data-day') === today)!;
    expect(day.getAttribute('aria-label')).toMatch(new RegExp(`^${today} \\(UTC\\): \\d+ proposals?, \\d+ lapses?, \\d+ help requests?$`));
    expect(day.querySelector('title')!.textContent).toBe(day.getAttribute('aria-label'));
    expect(screen.getByRole('table', { name: 'Per-day counts' })).toBeTruthy();
  });

  it('shows the refused event lines a sweep deleted, in the status bar and in Activity', async () => {
    window.location.hash = '#/activity';
    const { api, call, factory } = await openRealDesk();
    render(<App api={api} />);
    const status = await screen.findByRole('contentinfo', { name: 'Status' });
    await waitFor(() => expect(status.textContent).toContain('Last sweep'));
    expect(status.textContent).not.toContain('0 refused lines');
    // Lines a factory wrote wrongly, in the file of a day past the 90 days of retention.
    const old = new Date(Date.now() - 200 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
    factory.raw('not an event\n'.repeat(13), `${old}.jsonl`);
    await eventually(async () => (await call('activity.refused', {})).total === 13, 'the 13 lines are refused', WATCHER_WAIT_MS);
    // A finished run is followed by a sweep, which deletes them.
    factory.write(...fullRun('builder', 'run_1', factory.at(), factory.at()));
    await waitFor(() => expect(status.textContent).toContain('13 refused lines'), { timeout: WATCHER_WAIT_MS });
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
