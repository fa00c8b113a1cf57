/**
 * axe-core over every view and every dialog, in light and in dark, in one page session: each
 * state of the window is reached once and scanned under both color schemes (`emulateMedia`), so
 * the demo factory, the server and the page are made once. The first scan covers the whole page
 * (top bar, status bar); later scans are scoped to what changed — `main`, the detail panel, or
 * the open dialog — which keeps the suite fast without leaving any part unscanned. Every rule
 * runs; only serious and critical violations fail the test.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { call, expect, openDesk, test } from './ui-fixtures.js';

const SCHEMES = ['light', 'dark'] as const;
const DIALOG = '[role="dialog"]';

async function scan(page: Page, where: string, scope?: string): Promise<void> {
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    const started = Date.now();
    // Legacy mode runs axe in the page itself instead of opening a blank page per scan to merge
    // frame results (the window has no frames); only violations are collected in full.
    let builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
    if (scope) builder = builder.include(scope);
    const result = await builder.analyze();
    test.info().annotations.push({ type: 'axe', description: `${colorScheme} ${where}: ${Date.now() - started} ms` });
    const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      bad.map((v) => `${colorScheme} ${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
  }
}

test('axe finds no serious or critical violations in any view or dialog, light and dark', async ({ browser, desk }) => {
  test.setTimeout(180_000);
  // axe needs pages made from a fresh context (see TOOLCHAIN.md).
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await openDesk(page, desk);
  await expect(page.locator('[data-request]').first()).toBeVisible();
  await expect(page.getByLabel('Answer (required)')).toBeVisible();
  await scan(page, 'needs you (whole window)');

  // The reply form of a request whose flags are unknown (workflow, flags, no-flags choice).
  const open = await call(page, 'help.list', { open: true, limit: 100 });
  const legacy = open.rows.find((r) => r.flags === null);
  expect(legacy, 'the demo has a request with unknown flags').toBeTruthy();
  await page.locator(`[data-request="${legacy!.id}"]`).click();
  await expect(page.getByLabel('Workflow (required)')).toBeVisible();
  await scan(page, 'needs you, unknown flags', 'main');
  await page.getByRole('button', { name: 'Resolve without answer…' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await scan(page, 'resolve dialog', DIALOG);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('button', { name: /Open Factory/ }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await scan(page, 'open factory dialog', DIALOG);
  // The path field has focus: the first Esc leaves it, the second closes the dialog.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.evaluate(() => (window.location.hash = '#/learnings'));
  await expect(page.locator('tr.row[data-id]').first()).toBeVisible();
  await scan(page, 'learnings', 'main');
  await page.locator('tr.row[data-index="1"] td.col-text').click();
  await expect(page.locator('.learning-text')).toBeVisible();
  await scan(page, 'learning detail', 'main');
  await page.locator('tr.row[data-index="1"] input[type="checkbox"]').click();
  await page.getByRole('button', { name: /^Reject 1 learning/ }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await scan(page, 'reject dialog', DIALOG);
  // The reason field has focus: the first Esc leaves it, the second closes the dialog.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await scan(page, 'shortcut sheet', DIALOG);
  await page.keyboard.press('Escape');

  await page.evaluate(() => (window.location.hash = '#/runs'));
  await expect(page.locator('a[href^="#/runs?run="]').first()).toBeVisible();
  await page.locator('a[href^="#/runs?run="]').first().click();
  await expect(page.getByRole('heading', { name: /^Run / })).toBeVisible();
  await scan(page, 'runs & chains', 'main');

  await page.evaluate(() => (window.location.hash = '#/activity'));
  await expect(page.getByRole('img', { name: /Per day/ })).toBeVisible();
  await scan(page, 'activity', 'main');

  // The undo notice with its key, after keeping the learning under the cursor (`e`).
  await page.evaluate(() => (window.location.hash = '#/learnings?state=provisional'));
  await expect(page.locator('tr.row[data-id]').first()).toBeVisible();
  await page.locator('.list-scroll').focus();
  await page.keyboard.press('e');
  await expect(page.getByRole('button', { name: 'Undo' })).toBeVisible();
  await scan(page, 'undo notice', '.toast');
  await context.close();
});
