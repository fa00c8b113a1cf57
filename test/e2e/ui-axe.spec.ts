import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { expect, test, type DeskServer } from './ui-fixtures.js';

async function scan(page: Page, where: string): Promise<void> {
  const started = Date.now();
  const result = await new AxeBuilder({ page }).analyze();
  test.info().annotations.push({ type: 'axe', description: `${where}: ${Date.now() - started} ms` });
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

async function everyView(browser: Browser, desk: DeskServer, colorScheme: 'light' | 'dark'): Promise<void> {
  // axe needs pages made from a fresh context (see TOOLCHAIN.md).
  const context = await browser.newContext({ colorScheme, viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto(desk.url);
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.locator('[data-request]').first()).toBeVisible();
  await scan(page, `${colorScheme} needs you`);

  await page.evaluate(() => (window.location.hash = '#/learnings'));
  await expect(page.locator('tr.row[data-id]').first()).toBeVisible();
  await scan(page, `${colorScheme} learnings`);
  await page.locator('tr.row[data-index="1"] td.col-text').click();
  await expect(page.locator('.learning-text')).toBeVisible();
  await scan(page, `${colorScheme} learning detail`);
  await page.locator('tr.row[data-index="1"] input[type="checkbox"]').click();
  await page.getByRole('button', { name: /^Reject 1 learning/ }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await scan(page, `${colorScheme} reject dialog`);
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await scan(page, `${colorScheme} shortcut sheet`);
  await page.keyboard.press('Escape');

  await page.evaluate(() => (window.location.hash = '#/runs'));
  await expect(page.locator('a[href^="#/runs?run="]').first()).toBeVisible();
  await page.locator('a[href^="#/runs?run="]').first().click();
  await expect(page.getByRole('heading', { name: /^Run / })).toBeVisible();
  await scan(page, `${colorScheme} runs & chains`);

  await page.evaluate(() => (window.location.hash = '#/activity'));
  await expect(page.getByRole('img', { name: /Per day/ })).toBeVisible();
  await scan(page, `${colorScheme} activity`);
  await context.close();
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violations in any view (${scheme})`, async ({ browser, desk }) => {
    test.setTimeout(180_000);
    await everyView(browser, desk, scheme);
  });
}
