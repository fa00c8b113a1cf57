/**
 * Keyboard triage that never gets stuck, and views that survive a reload and can be linked
 * (docs/window.md#keys, docs/window.md#the-address), in Chromium against `serve`.
 */
import type { Page } from '@playwright/test';
import { SHORTCUTS, type ShortcutId } from '../../renderer/lib/shortcuts.js';
import { VIEW_TITLES, VIEWS } from '../../renderer/state/nav.js';
import { call, expect, openDesk, test } from './ui-fixtures.js';

const rows = (page: Page) => page.locator('tr.row[data-id]');
const cursorRow = (page: Page) => page.locator('tr.row.cursor');
const summary = (page: Page) => page.locator('.selection-summary');
const currentRequest = (page: Page) => page.locator('.request-item[aria-current="true"]');
const answerBox = (page: Page) => page.getByLabel('Answer (required)');

async function idAt(page: Page, index: number): Promise<string> {
  return (await page.locator(`tr.row[data-index="${index}"]`).getAttribute('data-id'))!;
}

async function stateOf(page: Page, id: string): Promise<string> {
  return (await call(page, 'learnings.detail', { id })).learning.state;
}

/** Opens Learnings at `hash` (a full address of the view) and waits for its rows. */
async function openLearnings(page: Page, desk: Parameters<typeof openDesk>[1], hash = '#/learnings'): Promise<void> {
  await openDesk(page, desk);
  await page.evaluate((h) => (window.location.hash = h), hash);
  await expect(rows(page).first()).toBeVisible();
}

test.describe('keys', () => {
  test('Esc leaves the answer box: j, Enter, type, Esc, then j moves and 2 switches view, typing nothing into the answer', async ({
    page,
    desk,
  }) => {
    await openDesk(page, desk);
    const open = await call(page, 'help.list', { open: true, limit: 100 });
    expect(open.rows.length).toBeGreaterThan(2);
    await expect(currentRequest(page)).toHaveAttribute('data-request', open.rows[0]!.id);

    await page.keyboard.press('j');
    await expect(currentRequest(page)).toHaveAttribute('data-request', open.rows[1]!.id);
    await expect(page.locator('.request-detail')).toContainText(open.rows[1]!.id);
    await page.keyboard.press('Enter');
    await expect(answerBox(page)).toBeFocused();
    await page.keyboard.type('Half an answer');
    await page.keyboard.press('Escape');
    await expect(answerBox(page)).not.toBeFocused();
    await expect(currentRequest(page)).toBeFocused();

    await page.keyboard.press('j');
    await expect(currentRequest(page)).toHaveAttribute('data-request', open.rows[2]!.id);
    await page.keyboard.press('2');
    await expect(page.getByRole('heading', { name: 'Learnings', level: 1 })).toBeVisible();

    // Back on the request typed into: the draft is what was typed, not "Half an answerj2".
    await page.keyboard.press('1');
    await page.locator(`[data-request="${open.rows[1]!.id}"]`).click();
    await expect(answerBox(page)).toHaveValue('Half an answer');
  });

  test('Esc in the search box or a dialog’s reason field leaves the field; a second Esc closes the panel or the dialog', async ({
    page,
    desk,
  }) => {
    await openLearnings(page, desk);
    await page.keyboard.press('Enter');
    await expect(page.locator('.learning-text')).toBeVisible();

    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await expect(search).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(search).not.toBeFocused();
    await expect(page.locator('.learning-text')).toBeVisible();
    await page.keyboard.press('j');
    await expect(cursorRow(page)).toHaveAttribute('data-index', '1');
    await page.keyboard.press('Escape');
    await expect(page.locator('.learning-text')).toHaveCount(0);

    await page.keyboard.press('r');
    const dialog = page.getByRole('dialog');
    const reason = dialog.getByLabel('Reason (optional)');
    await expect(reason).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await expect(reason).not.toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  test('acting on the row under the cursor with nothing selected does not leave it selected, so the next action acts on the next row alone', async ({
    page,
    desk,
  }) => {
    await openLearnings(page, desk, '#/learnings?state=provisional');
    const kept = await idAt(page, 0);
    await page.keyboard.press('e');
    await expect(page.getByText(/^Kept 1 learning as .+\.$/)).toBeVisible();
    await expect.poll(() => stateOf(page, kept)).toBe('confirmed');
    await expect(summary(page)).not.toContainText('selected');
    await expect(page.locator('tr.row.selected')).toHaveCount(0);

    // The kept row left the provisional list; the cursor is on the next one.
    await expect.poll(() => idAt(page, 0)).not.toBe(kept);
    const rejected = await idAt(page, 0);
    const text = (await call(page, 'learnings.detail', { id: rejected })).learning.text;
    await page.keyboard.press('r');
    const dialog = page.getByRole('dialog', { name: /^Reject the learning under the cursor as .+\?$/ });
    await expect(dialog.locator('blockquote')).toHaveText(text);
    await dialog.getByRole('button', { name: 'Reject 1' }).click();
    await expect(page.getByText(/^Rejected 1 learning as .+\.$/)).toBeVisible();
    expect(await stateOf(page, rejected)).toBe('rejected');
    expect(await stateOf(page, kept)).toBe('confirmed');
    await expect(summary(page)).not.toContainText('selected');
  });

  test('Keep states its scope as Reject does, and after rejecting all matching the bar does not claim all 0 are selected', async ({
    page,
    desk,
  }) => {
    await openLearnings(page, desk);
    await page.locator('tr.row[data-index="0"] input[type="checkbox"]').click();
    await page.locator('tr.row[data-index="2"] input[type="checkbox"]').click({ modifiers: ['Shift'] });
    await expect(page.getByRole('button', { name: 'Keep 3 learnings', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reject 3 learnings…' })).toBeVisible();
    await page.getByRole('button', { name: 'Clear selection' }).click();

    const filter = { agent: 'builder', states: ['confirmed' as const] };
    const expected = (await call(page, 'learnings.query', { filter, limit: 1 })).total;
    expect(expected).toBeGreaterThan(1);
    await page.getByLabel('Agent').selectOption('builder');
    await page.getByRole('group', { name: 'State' }).getByRole('button', { name: /^confirmed\b/ }).click();
    await page.getByRole('button', { name: `Select all ${expected} matching` }).click();
    const scope = `${expected} learnings matching: agent = builder, confirmed`;
    await expect(page.getByRole('button', { name: `Keep ${scope}`, exact: true })).toBeVisible();
    await page.getByRole('button', { name: `Reject ${scope}…` }).click();
    await page.getByRole('dialog').getByRole('button', { name: `Reject ${expected}` }).click();
    await expect(page.getByText(new RegExp(`^Rejected ${expected} learnings as .+\\.$`))).toBeVisible();
    await expect(summary(page)).toHaveText('0 learnings');
    await expect(page.getByRole('button', { name: /^Keep / })).toHaveCount(0);
  });

  test('the filter, sort and search are in the address: a reload restores them, a copied address opens the same view, Back and Forward move between views', async ({
    page,
    desk,
    context,
  }) => {
    await openLearnings(page, desk);
    await page.getByLabel('Agent').selectOption('builder');
    await page.getByRole('group', { name: 'State' }).getByRole('button', { name: /^provisional\b/ }).click();
    await page.getByRole('button', { name: /^Echoes/ }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('test');
    await expect.poll(() => new URL(page.url()).hash).toContain('q=test');
    const address = page.url();
    expect(address).not.toContain('token=');
    expect(new URL(address).hash).toBe('#/learnings?agent=builder&state=provisional&q=test&sort=echoes');

    const expectView = async (p: Page) => {
      await expect(p.getByLabel('Agent')).toHaveValue('builder');
      await expect(p.getByRole('group', { name: 'State' }).getByRole('button', { name: /^provisional\b/ })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      await expect(p.getByRole('searchbox', { name: 'Search' })).toHaveValue('test');
      await expect(p.getByRole('columnheader', { name: /^Echoes/ })).toHaveAttribute('aria-sort', 'descending');
      const shown = await call(p, 'learnings.query', {
        filter: { agent: 'builder', states: ['provisional'], search: 'test' },
        limit: 1,
      });
      await expect(p.getByRole('table', { name: `Learnings, ${shown.total} matching` })).toBeVisible();
    };

    await page.reload();
    await expectView(page);

    // The page's cookie is the context's, so another page of it opens the copied address.
    const other = await context.newPage();
    await other.goto(address);
    await expectView(other);
    await other.close();

    await page.keyboard.press('1');
    await expect(page.getByRole('heading', { name: 'Needs you', level: 1 })).toBeVisible();
    await page.goBack();
    await expectView(page);
    await page.goForward();
    await expect(page.getByRole('heading', { name: 'Needs you', level: 1 })).toBeVisible();
  });

  test('bad values in the address are ignored and the view still opens', async ({ page, desk }) => {
    const long = 'a'.repeat(200);
    await openLearnings(page, desk, `#/learnings?state=bogus,confirmed&impact=huge&sort=nope&dir=sideways&agent=${long}&q=%E0%A4%A`);
    await expect(page.getByRole('group', { name: 'State' }).getByRole('button', { name: /^confirmed\b/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByLabel('Agent')).toHaveValue('');
    await expect(page.getByRole('columnheader', { name: /^Last proposed/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(page.getByRole('alert')).toHaveCount(0);

    await page.evaluate(() => (window.location.hash = '#/nowhere?x=%'));
    await expect(page.getByRole('heading', { name: 'Needs you', level: 1 })).toBeVisible();
  });

  test('after replying to or resolving a request the cursor moves to the next request, and keys work at once', async ({ page, desk }) => {
    await openDesk(page, desk);
    const open = (await call(page, 'help.list', { open: true, limit: 100 })).rows;
    const at = open.findIndex((r) => r.flags !== null);
    expect(at, 'the demo has a request whose flags are known').toBeGreaterThanOrEqual(0);
    expect(open.length).toBeGreaterThan(at + 2);
    const [first, second, third] = [open[at]!, open[at + 1]!, open[at + 2]!];

    await page.locator(`[data-request="${first.id}"]`).click();
    await expect(page.locator('.request-detail')).toContainText(first.id);
    await page.keyboard.press('Enter');
    await expect(answerBox(page)).toBeFocused();
    await page.keyboard.type('Use the staging registry.');
    await page.keyboard.press('Control+Enter');
    await expect(currentRequest(page)).toHaveAttribute('data-request', second.id);
    await expect(answerBox(page)).toHaveValue('');
    expect((await call(page, 'help.detail', { id: first.id })).request.state).toBe('answered');

    await page.getByRole('button', { name: 'Resolve without answer…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resolve', exact: true }).click();
    await expect(currentRequest(page)).toHaveAttribute('data-request', third.id);
    expect((await call(page, 'help.detail', { id: second.id })).request.state).toBe('resolved');

    // Nothing is left focused in a form that went away: j steps on at once.
    await page.keyboard.press('j');
    await expect(currentRequest(page)).not.toHaveAttribute('data-request', third.id);
  });

  test('the toast’s Undo has a key, shown on the toast: u undoes the last decision', async ({ page, desk }) => {
    await openLearnings(page, desk);
    const id = await idAt(page, 0);
    const before = await stateOf(page, id);
    await page.keyboard.press('x');
    await page.keyboard.press('r');
    await page.keyboard.press('Enter');
    const toast = page.getByRole('status').filter({ hasText: /^Rejected 1 learning as / });
    await expect(toast).toBeVisible();
    await expect(toast.locator('kbd')).toHaveText('u');
    await expect(toast.getByRole('button', { name: 'Undo' })).toHaveAttribute('aria-keyshortcuts', 'u');
    expect(await stateOf(page, id)).toBe('rejected');
    await page.keyboard.press('u');
    await expect(page.getByText(/^Undone as .+: 1 restored\.$/)).toBeVisible();
    expect(await stateOf(page, id)).toBe(before);
  });

  test('every window shortcut does what the sheet says when pressed, and the sheet lists every shortcut with its keys', async ({
    page,
    desk,
  }) => {
    type WindowId = Exclude<ShortcutId, 'send' | 'open-factory' | 'leave-field'>;
    // In the order they run: each check leaves the window where the next one starts.
    const checks: Record<WindowId, () => Promise<void>> = {
      down: async () => {
        await page.keyboard.press('j');
        await expect(cursorRow(page)).toHaveAttribute('data-index', '1');
      },
      up: async () => {
        await page.keyboard.press('k');
        await expect(cursorRow(page)).toHaveAttribute('data-index', '0');
      },
      toggle: async () => {
        await page.keyboard.press('x');
        await expect(summary(page)).toHaveText('1 selected');
      },
      range: async () => {
        await page.keyboard.press('j');
        await page.keyboard.press('j');
        await page.keyboard.press('Shift+X');
        await expect(summary(page)).toHaveText('3 selected');
      },
      escape: async () => {
        await page.keyboard.press('Escape');
        await expect(summary(page)).not.toContainText('selected');
      },
      reject: async () => {
        await page.keyboard.press('r');
        await expect(page.getByRole('dialog', { name: /^Reject the learning under the cursor as .+\?$/ })).toBeVisible();
        await page.keyboard.press('Escape');
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
      },
      keep: async () => {
        await page.keyboard.press('e');
        await expect(page.getByRole('status').filter({ hasText: /^Kept / })).toBeVisible();
      },
      undo: async () => {
        await page.keyboard.press('u');
        await expect(page.getByRole('status').filter({ hasText: /^Undone/ })).toBeVisible();
      },
      open: async () => {
        await page.keyboard.press('Enter');
        await expect(page.locator('.learning-text')).toBeVisible();
        await page.keyboard.press('Escape');
        await expect(page.locator('.learning-text')).toHaveCount(0);
      },
      search: async () => {
        await page.keyboard.press('/');
        await expect(page.getByRole('searchbox', { name: 'Search' })).toBeFocused();
        await page.keyboard.press('Escape');
        await expect(page.getByRole('searchbox', { name: 'Search' })).not.toBeFocused();
      },
      views: async () => {
        const views = SHORTCUTS.find((s) => s.id === 'views')!;
        for (const [i, key] of views.match.entries()) {
          await page.keyboard.press(key);
          await expect(page.getByRole('heading', { name: VIEW_TITLES[VIEWS[i]!], level: 1 })).toBeVisible();
        }
        await page.keyboard.press('2');
      },
      help: async () => {
        await page.keyboard.press('?');
        const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
        await expect(sheet).toBeVisible();
        for (const s of SHORTCUTS) {
          const row = sheet.locator(`[data-shortcut="${s.id}"]`);
          await expect(row).toContainText(s.label);
          await expect(row.locator('kbd')).toHaveText(s.keys);
        }
        await page.keyboard.press('Escape');
        await expect(sheet).toHaveCount(0);
      },
      'worth-next': async () => {
        await page.keyboard.press('1');
        await expect(page.locator('.worth-item').nth(1), 'the demo has at least two Worth a look entries').toBeVisible();
        await expect(page.locator('.worth-item').nth(0)).toHaveClass(/\bcurrent\b/);
        await page.keyboard.press('w');
        await expect(page.locator('.worth-item').nth(1)).toHaveClass(/\bcurrent\b/);
      },
      'worth-previous': async () => {
        await page.keyboard.press('Shift+W');
        await expect(page.locator('.worth-item').nth(0)).toHaveClass(/\bcurrent\b/);
      },
      'worth-reject': async () => {
        await page.keyboard.press('Shift+R');
        await expect(page.getByRole('dialog')).toBeVisible();
        await page.keyboard.press('Escape');
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
      },
      'worth-dismiss': async () => {
        await page.keyboard.press('Shift+D');
        await expect(page.getByRole('status').filter({ hasText: /^Dismissed from Worth a look/ })).toBeVisible();
      },
      'worth-keep': async () => {
        await page.keyboard.press('Shift+E');
        await expect(page.getByRole('status').filter({ hasText: /^Kept |^This learning is / })).toBeVisible();
      },
    };
    const windowIds = SHORTCUTS.filter((s) => s.scope === 'window').map((s) => s.id);
    expect(Object.keys(checks).sort()).toEqual([...windowIds].sort());

    await openLearnings(page, desk, '#/learnings?state=provisional');
    for (const run of Object.values(checks)) await run();
  });
});
