import type { Page } from '@playwright/test';
import { appendEvent, call, expect, openDesk, test } from './ui-fixtures.js';

function chip(page: Page, state: string) {
  return page.getByRole('group', { name: 'State' }).getByRole('button', { name: new RegExp(`^${state}\\b`) });
}

async function chipCount(page: Page, state: string): Promise<number> {
  const text = (await chip(page, state).locator('.chip-count').textContent()) ?? '';
  return Number(text.replace(/,/g, ''));
}

function checkbox(page: Page, index: number) {
  return page.locator(`tr.row[data-index="${index}"] input[type="checkbox"]`);
}

async function idAt(page: Page, index: number): Promise<string> {
  return (await page.locator(`tr.row[data-index="${index}"]`).getAttribute('data-id'))!;
}

test.describe('learnings', () => {
  test('shift-click a range, bulk reject, see the count change, Undo restores', async ({ page, desk }) => {
    await openDesk(page, desk, 'learnings');
    await expect(page.locator('tr.row[data-id]').nth(4)).toBeVisible();
    const before = await chipCount(page, 'rejected');
    await checkbox(page, 1).click();
    await checkbox(page, 3).click({ modifiers: ['Shift'] });
    await expect(page.getByText('3 selected')).toBeVisible();
    const ids = [await idAt(page, 1), await idAt(page, 2), await idAt(page, 3)];

    await page.getByRole('button', { name: 'Reject 3 learnings…' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(/Reject 3 learnings as \S.*\?/);
    await dialog.getByLabel('Reason (optional)').fill('stale advice');
    await dialog.getByRole('button', { name: 'Reject 3' }).click();
    await expect(page.getByText(/^Rejected 3 learnings as \S.*\.$/)).toBeVisible();
    await expect.poll(() => chipCount(page, 'rejected')).toBe(before + 3);
    await expect(page.getByText('3 selected')).toBeVisible(); // the selection survives

    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => chipCount(page, 'rejected')).toBe(before);
    for (const id of ids) {
      const detail = await call(page, 'learnings.detail', { id });
      expect(detail.learning.state).not.toBe('rejected');
    }
  });

  test('select all matching a filter and reject exactly that many', async ({ page, desk }) => {
    await openDesk(page, desk, 'learnings');
    await expect(page.locator('tr.row[data-id]').first()).toBeVisible();
    const filter = { agent: 'builder', states: ['confirmed' as const] };
    const expected = await call(page, 'learnings.query', { filter, limit: 1 });
    const everyBefore = await call(page, 'learnings.query', { limit: 1 });
    expect(expected.total).toBeGreaterThan(1);

    await page.getByLabel('Agent').selectOption('builder');
    await chip(page, 'confirmed').click();
    await page.getByRole('button', { name: `Select all ${expected.total} matching` }).click();
    const label = `Reject ${expected.total} learnings matching: agent = builder, confirmed`;
    await page.getByRole('button', { name: `${label}…` }).click();
    await expect(page.getByRole('dialog')).toContainText(`${label} as `);
    await page.getByRole('dialog').getByRole('button', { name: `Reject ${expected.total}` }).click();
    await expect(page.getByText(new RegExp(`^Rejected ${expected.total} learnings as \\S.*\\.$`))).toBeVisible();

    const after = await call(page, 'learnings.query', { filter, limit: 1 });
    expect(after.total).toBe(0);
    const everyAfter = await call(page, 'learnings.query', { limit: 1 });
    expect(everyAfter.counts.rejected).toBe(everyBefore.counts.rejected + expected.total);
    expect(everyAfter.counts.confirmed).toBe(everyBefore.counts.confirmed - expected.total);
  });

  test('a learning appended to the events file appears within seconds, keeping the selection', async ({ page, desk }) => {
    await openDesk(page, desk, 'learnings');
    await expect(page.locator('tr.row[data-id]').nth(3)).toBeVisible();
    await checkbox(page, 2).click();
    const selected = await idAt(page, 2);
    const text = `The fixtures folder must be regenerated after schema changes (${Date.now()}).`;
    appendEvent(desk.factory, { type: 'learning.proposed', agent: 'scout', text, impact: 'high' });
    await expect(page.getByText(text)).toBeVisible({ timeout: 10_000 });
    await expect(page.getByText('1 selected')).toBeVisible();
    await expect(page.locator(`tr.row[data-id="${selected}"]`)).toHaveClass(/selected/);
  });

  test('keyboard-only triage of three learnings', async ({ page, desk }) => {
    await openDesk(page, desk, 'learnings');
    await expect(page.locator('tr.row[data-id]').nth(3)).toBeVisible();
    const ids = [await idAt(page, 0), await idAt(page, 1), await idAt(page, 2)];
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await expect(page.getByText('3 selected')).toBeVisible();
    await page.keyboard.press('r');
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.type('triaged by keyboard');
    await page.keyboard.press('Enter');
    await expect(page.getByText(/^Rejected 3 learnings as \S.*\.$/)).toBeVisible();
    for (const id of ids) {
      const detail = await call(page, 'learnings.detail', { id });
      expect(detail.learning.state).toBe('rejected');
      expect(detail.learning.reason).toBe('triaged by keyboard');
    }
    // `?` opens the sheet, Esc closes it; `/` focuses the search and typing there is not a shortcut.
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.keyboard.press('/');
    await expect(page.getByRole('searchbox', { name: 'Search' })).toBeFocused();
    await page.keyboard.type('xjr');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByText('3 selected')).toBeVisible();
  });

  test('a learning text holding HTML is shown as text', async ({ page, desk }) => {
    await openDesk(page, desk, 'learnings');
    await expect(page.locator('tr.row[data-id]').first()).toBeVisible();
    const text = 'Escape user input in templates: <img src=x onerror=alert(1)> must stay text.';
    appendEvent(desk.factory, { type: 'learning.proposed', agent: 'reviewer', text, impact: 'high' });
    const cell = page.locator('td.col-text', { hasText: 'onerror=alert(1)' });
    await expect(cell).toHaveText(text, { timeout: 10_000 });
    await cell.click();
    await expect(page.locator('.learning-text')).toHaveText(text);
    await expect(page.locator('main img')).toHaveCount(0);
  });

  test('with the detail open, the learning text keeps its room at 1280×800', async ({ page, desk }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openDesk(page, desk, 'learnings');
    const header = page.locator('table.learnings th.col-text');
    await expect(page.locator('tr.row[data-id]').first()).toBeVisible();
    await page.locator('tr.row[data-index="1"] td.col-text').click();
    await expect(page.locator('.learning-text')).toBeVisible();
    const text = (await header.boundingBox())!;
    const detail = (await page.locator('aside.detail').boundingBox())!;
    expect(text.width, 'the text column is not squeezed').toBeGreaterThanOrEqual(300);
    expect(text.x + text.width, 'the list does not run under the detail').toBeLessThanOrEqual(detail.x);
    // Every header still visible in full: none is cut off at the list's edge.
    for (const th of await page.locator('table.learnings thead th:visible').all()) {
      const box = (await th.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(detail.x);
    }
  });
});
