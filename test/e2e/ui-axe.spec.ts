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
import { call, expect, openDesk, reopenHandled, test } from './ui-fixtures.js';

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
  test.setTimeout(240_000);
  // axe needs pages made from a fresh context (see TOOLCHAIN.md).
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await openDesk(page, desk);
  await expect(page.locator('[data-request]').first()).toBeVisible();
  await expect(page.getByLabel('Answer (required)')).toBeVisible();
  // The demo's evidence singles out a few learnings: Worth a look is part of the whole window.
  await expect(page.locator('.worth-item').first()).toBeVisible();
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
  await page.getByLabel('Selection').getByRole('button', { name: /^Reject 1 learning/ }).click();
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
  // Reject by origin: the confirmation that lists what a chain's runs proposed.
  await page.getByRole('button', { name: /^Reject the learnings chain / }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByRole('dialog')).not.toContainText('Finding the learnings');
  await scan(page, 'reject by origin dialog', DIALOG);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Acting as, the learning detail's own actions and its reject dialog, the notification toggle.
  await page.getByRole('banner').getByRole('button', { name: /^Acting as/ }).click();
  await expect(page.getByRole('dialog', { name: 'Who are you acting as?' })).toBeVisible();
  await scan(page, 'acting as dialog', DIALOG);
  // The first Esc leaves the name field, the second closes the dialog.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Notify me of new fatal requests' })).toBeVisible();
  await scan(page, 'top bar with acting as and notifications', '.topbar');
  const provisional = await call(page, 'learnings.query', { filter: { states: ['provisional'] }, limit: 1 });
  await page.evaluate((id) => (window.location.hash = `#/learnings?id=${id}`), provisional.rows[0]!.id);
  await expect(page.getByRole('group', { name: 'Decide on this learning' })).toBeVisible();
  await scan(page, 'learning detail with its actions and next run', '.detail');
  await page.getByRole('group', { name: 'Decide on this learning' }).getByRole('button', { name: 'Reject this learning…' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await scan(page, 'reject dialog from the detail', DIALOG);
  // The first Esc leaves the reason field, the second closes the dialog.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.evaluate(() => (window.location.hash = '#/activity'));
  await expect(page.getByRole('group', { name: /Per day/ })).toBeVisible();
  await scan(page, 'activity', 'main');

  // Worth a look's reject dialog (the section itself is in the first scan).
  await page.evaluate(() => (window.location.hash = '#/needs'));
  await expect(page.locator('.worth-item').first()).toBeVisible();
  await page.keyboard.press('Shift+R');
  await expect(page.getByRole('dialog')).toBeVisible();
  await scan(page, 'worth a look reject dialog', DIALOG);
  // The list's own reject dialog: the first Esc leaves the reason field, the second closes it.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The reply form with a flag change and its before → after diff, then the answered request
  // that records it.
  await page.evaluate(() => (window.location.hash = '#/needs'));
  const flagged = open.rows.find((r) => r.flags && Object.keys(r.flags).length > 0);
  expect(flagged, 'the demo has a request whose run had flags').toBeTruthy();
  const [flagKey] = Object.keys(flagged!.flags!);
  await page.locator(`[data-request="${flagged!.id}"]`).click();
  await page.getByLabel('Answer (required)').fill('Yes, with the changed flag.');
  await page.getByRole('button', { name: 'Change a flag…' }).click();
  await page.getByLabel('Flag', { exact: true }).fill(flagKey!);
  await page.getByLabel('New value').fill('changed-by-axe');
  await expect(page.getByRole('list', { name: 'Flag changes to send' })).toBeVisible();
  await scan(page, 'reply form, flag change', 'main');
  await page.getByRole('button', { name: 'Send reply' }).click();
  await reopenHandled(page, flagged!.id);
  await expect(page.getByRole('list', { name: 'Flags changed with the reply' })).toBeVisible();
  await scan(page, 'answered request, flags changed', 'main');

  // A run's detail with what it proposed (each outcome and what became of it), and one of the
  // run that filed a request, with what it asked: the first run of the list may have neither.
  const discovering = (await call(page, 'activity.proposals', { outcome: 'new', limit: 1 })).rows[0]!.run!;
  await page.evaluate((r) => (window.location.hash = `#/runs?run=${r}`), discovering);
  await expect(page.locator('ol.proposed li').first()).toBeVisible();
  await scan(page, 'run detail, what it proposed', '.pane-detail');
  const asking = (await call(page, 'help.list', { limit: 1 })).rows[0]!;
  await page.evaluate((r) => (window.location.hash = `#/runs?run=${r}`), asking.run);
  await expect(page.locator(`.pane-detail a[href="#/needs?request=${asking.id}"]`)).toBeVisible();
  await scan(page, 'run detail, what it asked', '.pane-detail');

  // The undo notice with its key, after keeping the learning under the cursor (`e`).
  await page.evaluate(() => (window.location.hash = '#/learnings?state=provisional'));
  await expect(page.locator('tr.row[data-id]').first()).toBeVisible();
  await page.locator('.list-scroll').focus();
  await page.keyboard.press('e');
  await expect(page.getByRole('button', { name: 'Undo' })).toBeVisible();
  await scan(page, 'undo notice', '.toast');
  await context.close();
});
