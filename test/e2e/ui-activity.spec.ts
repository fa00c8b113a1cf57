import fs from 'node:fs';
import path from 'node:path';
import { call, expect, openDesk, startDesk, test } from './ui-fixtures.js';
import type { Page } from '@playwright/test';
import type { DeskServer } from './ui-fixtures.js';

/** The demo's text an agent keeps proposing after a person rejected it (electron/node/demo.ts). */
const REJECTED_AGAIN = 'Approve dependency bumps without reading the release notes when the tests pass.';

async function openActivity(page: Page, desk: DeskServer): Promise<void> {
  await openDesk(page, desk, 'activity');
  await expect(page.getByRole('heading', { name: 'Activity', level: 1 })).toBeVisible();
}

test.describe('Activity reads at a glance', () => {
  test('the same refused text is listed once with its count and latest time, not once per proposal', async ({ page, desk }) => {
    await openActivity(page, desk);
    const log = page.locator('section', { has: page.getByRole('heading', { name: /^Proposal log/ }) });
    await log.getByLabel('Outcome').selectOption('refused');
    const grouped = await call(page, 'activity.proposals', { outcome: 'refused', limit: 100 });
    const entry = grouped.rows.find((r) => r.text === REJECTED_AGAIN)!;
    expect(entry.count).toBeGreaterThan(1);
    const rows = log.locator('tbody tr', { hasText: REJECTED_AGAIN });
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(`×${entry.count}`);
    await expect(rows.first().locator('time')).toHaveAttribute('datetime', entry.at);
  });

  test('every proposal log entry and every refused line has its why, and an excerpt never ends inside a JSON string or key', async ({ page, desk }) => {
    await openActivity(page, desk);
    const log = page.locator('section', { has: page.getByRole('heading', { name: /^Proposal log/ }) });
    await expect(log.locator('tbody tr').first()).toBeVisible();
    const whyColumn = await log.locator('thead th').allTextContents();
    const why = whyColumn.indexOf('Why') + 1;
    for (const text of await log.locator(`tbody tr td:nth-child(${why})`).allTextContents()) expect(text.trim()).not.toMatch(/^(—)?$/);

    const refused = page.locator('section', { has: page.getByRole('heading', { name: /^Refused event lines/ }) });
    const lines = await call(page, 'activity.refused', { limit: 100 });
    expect(lines.rows.length).toBeGreaterThan(0);
    await expect(refused.locator('tbody tr')).toHaveCount(lines.rows.length);
    let cut = 0;
    for (const row of await refused.locator('tbody tr').all()) {
      const [file, line, reason, excerpt] = (await row.locator('td').allTextContents()).map((t) => t.trim());
      expect(reason, `${file}:${line} has a reason`).not.toBe('');
      if (!excerpt!.endsWith('…')) continue;
      cut += 1;
      const shown = excerpt!.slice(0, -1);
      const source = fs.readFileSync(path.join(desk.factory, file!), 'utf8').split('\n')[Number(line) - 1]!;
      expect(source.startsWith(shown), 'the excerpt is the line’s beginning').toBe(true);
      // Outside every whole string, no quote is left open, and the cut is not right after a key or a comma.
      expect(shown.replace(/"(?:[^"\\]|\\.)*"/g, '')).not.toContain('"');
      expect(shown).not.toMatch(/[:,]\s*$/);
    }
    expect(cut, 'the demo has refused lines too long for their excerpt').toBeGreaterThan(0);
  });

  test('the chart has one date axis and each day states its date and numbers on hover and to a screen reader', async ({ page, desk }) => {
    await openActivity(page, desk);
    const chart = page.getByRole('group', { name: /^Per day over the last 30 days/ });
    await expect(chart).toBeVisible();
    const days = chart.getByRole('img');
    await expect(days).toHaveCount(30);
    const daily = await call(page, 'stats.daily', { days: 30 });
    const busiest = daily.reduce((a, b) => (b.proposals > a.proposals ? b : a));
    const day = chart.locator(`[data-day="${busiest.day}"]`);
    const label = `${busiest.day} (UTC): ${busiest.proposals} proposal${busiest.proposals === 1 ? '' : 's'}`;
    await expect(day).toHaveAttribute('aria-label', new RegExp(`^${label.replace(/[()]/g, '\\$&')}, \\d+ lapses?, \\d+ help requests?$`));
    await expect(day.locator('title')).toHaveText((await day.getAttribute('aria-label'))!);
    // The whole day answers the pointer: hovering it highlights the day, and the browser shows its title.
    const hit = day.locator('.chart-hit');
    await expect(hit).toHaveCSS('fill', 'rgba(0, 0, 0, 0)');
    await day.hover();
    await expect(hit).not.toHaveCSS('fill', 'rgba(0, 0, 0, 0)');
    // One axis of short dates (a label a week, the newest day named), not two full dates at the corners.
    const labels = (await chart.locator('text.axis-label').allTextContents()).filter((t) => !/^\d+$/.test(t));
    expect(labels.length).toBeGreaterThanOrEqual(4);
    for (const text of labels) expect(text).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
    const today = daily[daily.length - 1]!.day;
    await expect(chart.locator(`[data-day="${today}"] text`)).toHaveCount(1);
  });

  test('at 1280 px the status bar is one line, and names only what the last sweep deleted', async ({ page, desk }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openActivity(page, desk);
    const status = page.getByRole('contentinfo', { name: 'Status' });
    await expect(status).toContainText('Last sweep');
    await expect(status).not.toContainText(/\b0 (requests|runs|log entries|refused lines|event files|lapsed learnings|chains)\b/);
    await expect(status).toContainText(/Last sweep: .+ — (nothing to delete|deleted [1-9])/);
    const tops = await status.locator('.status-item').evaluateAll((items) => items.map((el) => el.getBoundingClientRect().top));
    expect(new Set(tops).size).toBe(1);
    const { height } = (await status.boundingBox())!;
    const line = await status.locator('.status-item').first().evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeLessThan(line * 2);
  });

  test('after a sweep that deleted one kind of record, the status bar names that count alone, on one line', async ({ page }) => {
    // Lapsed learnings kept for no days: the sweep on opening deletes the demo's lapsed ones and
    // nothing else (its history is younger than the 90 days every other record is kept).
    const desk = await startDesk({ settings: (toml) => toml.replace(/keep_lapsed_days = \d+/, 'keep_lapsed_days = 0') });
    try {
      await page.setViewportSize({ width: 1280, height: 800 });
      await openActivity(page, desk);
      const newest = async () => (await call(page, 'activity.sweeps', { limit: 1 })).rows[0];
      await expect.poll(async () => (await newest())?.lapsed_learnings ?? 0, 'the demo has lapsed learnings to delete').toBeGreaterThan(0);
      const report = (await newest())!;
      const others = Object.entries(report).filter(([key]) => key !== 'at' && key !== 'lapsed_learnings');
      expect(others.filter(([, n]) => n !== 0)).toEqual([]);

      const status = page.getByRole('contentinfo', { name: 'Status' });
      const lapsed = report.lapsed_learnings === 1 ? '1 lapsed learning' : `${report.lapsed_learnings} lapsed learnings`;
      await expect(status.locator('.status-item', { hasText: 'Last sweep' })).toHaveText(new RegExp(`^Last sweep: .+ — deleted ${lapsed}$`));
      const tops = await status.locator('.status-item').evaluateAll((items) => items.map((el) => el.getBoundingClientRect().top));
      expect(new Set(tops).size).toBe(1);
    } finally {
      await desk.stop();
    }
  });
});
