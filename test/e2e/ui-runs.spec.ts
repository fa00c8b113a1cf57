/**
 * Runs & chains in the browser host (docs/window.md#runs), on a demo factory served by `serve`:
 * runs found by filter and by id, the run detail telling the past, reject by origin with its
 * confirmation and Undo, and the layout at 1280 × 800.
 */
import type { Page } from '@playwright/test';
import { call, expect, openDesk, test } from './ui-fixtures.js';

/** The runs table: the second data table of the view (the chains table is the first). */
const runsTable = (page: Page) => page.locator('table.data').nth(1);
const chainsTable = (page: Page) => page.locator('table.data').nth(0);

/** A run of the demo that discovered the most learnings, from the proposal log. */
async function discoveringRun(page: Page): Promise<{ run: string; ids: string[] }> {
  const log = await call(page, 'activity.proposals', { outcome: 'new', limit: 1000 });
  const byRun = new Map<string, string[]>();
  for (const p of log.rows) if (p.run && p.learning_id) byRun.set(p.run, [...(byRun.get(p.run) ?? []), p.learning_id]);
  const [run, ids] = [...byRun].sort((a, b) => b[1].length - a[1].length)[0]!;
  return { run, ids };
}

test.describe('runs & chains', () => {
  test('the failed runs are one action away, and filters by agent, outcome and workflow narrow the runs', async ({ page, desk }) => {
    await openDesk(page, desk, 'runs');
    await expect(runsTable(page).locator('tbody tr').first()).toBeVisible();
    const failed = await call(page, 'runs.list', { outcome: 'failed', limit: 1 });
    expect(failed.total).toBeGreaterThan(100);

    await page.getByRole('button', { name: 'Show failed runs' }).click();
    await expect(page.getByRole('heading', { name: `Runs (${failed.total})` })).toBeVisible();
    await expect(page.getByLabel('Outcome')).toHaveValue('failed');
    const outcomes = await runsTable(page).locator('tbody tr td:nth-child(6)').allTextContents();
    expect(outcomes.length).toBe(100);
    expect(new Set(outcomes)).toEqual(new Set(['failed']));

    const narrowed = await call(page, 'runs.list', { outcome: 'failed', agent: 'builder', limit: 1 });
    const workflow = narrowed.rows[0]!.workflow;
    const both = await call(page, 'runs.list', { outcome: 'failed', agent: 'builder', workflow, limit: 1 });
    await page.getByLabel('Agent').selectOption('builder');
    await page.getByLabel('Workflow').selectOption(workflow);
    await expect(page.getByRole('heading', { name: `Runs (${both.total})` })).toBeVisible();
    const agents = await runsTable(page).locator('tbody tr td:nth-child(2)').allTextContents();
    expect(new Set(agents)).toEqual(new Set(['builder']));
  });

  test('the runs filters are in the address: a reload keeps them, and a value that does not fit (an outcome that is not one, an agent name too long) is ignored', async ({ page, desk }) => {
    await openDesk(page, desk, 'runs');
    await expect(runsTable(page).locator('tbody tr').first()).toBeVisible();
    await page.getByRole('button', { name: 'Show failed runs' }).click();
    await page.getByLabel('Agent').selectOption('builder');
    await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(/[?&]outcome=failed\b/);
    expect(await page.evaluate(() => window.location.hash)).toMatch(/[?&]agent=builder\b/);

    await page.reload();
    const both = await call(page, 'runs.list', { outcome: 'failed', agent: 'builder', limit: 1 });
    await expect(page.getByLabel('Outcome')).toHaveValue('failed');
    await expect(page.getByLabel('Agent')).toHaveValue('builder');
    await expect(page.getByRole('heading', { name: `Runs (${both.total})` })).toBeVisible();

    await page.evaluate(() => (window.location.hash = '#/runs?outcome=exploded&agent=builder'));
    await expect(page.getByLabel('Outcome')).toHaveValue('');
    await expect(page.getByLabel('Agent')).toHaveValue('builder');

    await page.evaluate((long) => (window.location.hash = `#/runs?agent=${long}`), 'a'.repeat(200));
    await expect(page.getByLabel('Agent')).toHaveValue('');
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('the id searched is in the address too: a reload keeps the search and the runs it found', async ({ page, desk }) => {
    await openDesk(page, desk, 'runs');
    await expect(runsTable(page).locator('tbody tr').first()).toBeVisible();
    const request = (await call(page, 'help.list', { limit: 1 })).rows[0]!;
    await page.getByLabel('Find id').fill(request.id);
    await expect.poll(() => page.evaluate(() => window.location.hash)).toContain(`q=${request.id}`);

    await page.reload();
    await expect(page.getByLabel('Find id')).toHaveValue(request.id);
    await expect(runsTable(page).locator('tbody tr')).toHaveCount(1);
    await expect(runsTable(page).locator('tbody tr td').first()).toHaveText(request.run);
  });

  test('a run is found by its id or the first characters of it, or by a chain or help request id', async ({ page, desk }) => {
    await openDesk(page, desk, 'runs');
    await expect(runsTable(page).locator('tbody tr').first()).toBeVisible();
    const search = page.getByLabel('Find id');

    await search.fill('run_scout_0060');
    // The search is applied once typing pauses, so the table is polled until it shows the search.
    await expect
      .poll(async () => {
        const ids = await runsTable(page).locator('tbody tr td:nth-child(1)').allTextContents();
        return ids.length > 1 && ids.every((id) => id.startsWith('run_scout_0060'));
      })
      .toBe(true);

    const request = (await call(page, 'help.list', { limit: 1 })).rows[0]!;
    await search.fill(request.id);
    await expect(runsTable(page).locator('tbody tr')).toHaveCount(1);
    await expect(runsTable(page).locator('tbody tr td').first()).toHaveText(request.run);
    await expect(chainsTable(page).locator('tbody tr td:first-child', { hasText: request.chain })).toBeVisible();

    // A chain id finds that chain's runs, every one of them, and the chain itself.
    const { run: chainRun } = await discoveringRun(page);
    const chain = (await call(page, 'runs.detail', { run: chainRun })).run.chain;
    const ofChain = await call(page, 'runs.list', { search: chain, limit: 100 });
    expect(ofChain.total, `the demo's chain ${chain} has runs`).toBeGreaterThan(0);
    await search.fill(chain);
    // Polled as a whole: the table of the search before can have as many rows.
    await expect
      .poll(async () => {
        const chains = await runsTable(page).locator('tbody tr td:nth-child(3)').allTextContents();
        return { rows: chains.length, chains: [...new Set(chains)] };
      })
      .toEqual({ rows: ofChain.rows.length, chains: [chain] });
    await expect(chainsTable(page).locator('tbody tr td:first-child', { hasText: chain })).toBeVisible();

    await search.fill('no_such_id');
    await expect(page.getByText('No run matches.')).toBeVisible();
  });

  test('the run detail shows a learning kept today as it stood when the run started, what the run proposed and what it asked', async ({ page, desk }) => {
    await openDesk(page, desk, 'runs');
    const provisional = await call(page, 'learnings.query', { filter: { states: ['provisional'] }, limit: 50 });
    let picked: { id: string; run: string } | undefined;
    for (const l of provisional.rows) {
      const detail = await call(page, 'learnings.detail', { id: l.id });
      if (detail.runs.length > 0) {
        picked = { id: l.id, run: detail.runs[0]!.run };
        break;
      }
    }
    expect(picked, 'the demo has a provisional learning given to a run').toBeTruthy();
    await call(page, 'learnings.keep', { target: { ids: [picked!.id] }, by: 'Ana' });

    await page.evaluate((run) => (window.location.hash = `#/runs?run=${run}`), picked!.run);
    await expect(page.getByRole('heading', { name: `Run ${picked!.run}` })).toBeVisible();
    const item = page.locator('ol.given li', { has: page.locator(`a[href="#/learnings?id=${picked!.id}"]`) });
    await expect(item.locator('.state').first()).toHaveText('provisional');
    await expect(item).toContainText('now confirmed');

    const { run } = await discoveringRun(page);
    const detail = await call(page, 'runs.detail', { run });
    await page.evaluate((r) => (window.location.hash = `#/runs?run=${r}`), run);
    await expect(page.getByRole('heading', { name: `What it proposed (${detail.proposed.length} proposals)` })).toBeVisible();
    await expect(page.locator('ol.proposed li')).toHaveCount(detail.proposed.length);
    // Each proposal in order, with its outcome and what became of its learning since.
    for (const [i, p] of detail.proposed.entries()) {
      const item = page.locator('ol.proposed li').nth(i);
      await expect(item.locator('.proposal-outcome')).toHaveText(p.outcome);
      await expect(item).toContainText(p.text);
      if (p.now) await expect(item.locator('.since .state')).toHaveText(p.now);
    }
    expect(detail.proposed.some((p) => p.now !== null), 'the run proposed a learning the ledger still has').toBe(true);

    const asked = (await call(page, 'help.list', { limit: 1 })).rows[0]!;
    await page.evaluate((r) => (window.location.hash = `#/runs?run=${r}`), asked.run);
    await expect(page.getByRole('heading', { name: /^What it asked \(\d+ help requests?\)$/ })).toBeVisible();
    await expect(page.locator(`a[href="#/needs?request=${asked.id}"]`)).toBeVisible();
  });

  test('reject the N learnings a run proposed: the confirmation states the count and lists them, the toast offers Undo, Undo restores them', async ({ page, desk }) => {
    await openDesk(page, desk, 'runs');
    const { run, ids } = await discoveringRun(page);
    const before = await Promise.all(ids.map(async (id) => (await call(page, 'learnings.detail', { id })).learning));
    const open = before.filter((l) => l.state !== 'rejected');
    expect(open.length).toBeGreaterThan(0);
    const n = open.length === 1 ? '1 learning' : `${open.length} learnings`;

    await page.evaluate((r) => (window.location.hash = `#/runs?run=${r}`), run);
    await page.getByRole('button', { name: `Reject the ${n} it proposed…` }).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`^Reject the ${n} run ${run} proposed as .+\\?$`) });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Learnings to reject' }).getByRole('listitem')).toHaveCount(open.length);
    for (const l of open) await expect(dialog).toContainText(l.text);
    await dialog.getByRole('button', { name: `Reject ${open.length}` }).click();
    await expect(page.getByText(new RegExp(`^Rejected ${n} as .+\\.$`))).toBeVisible();
    for (const l of open) expect((await call(page, 'learnings.detail', { id: l.id })).learning.state).toBe('rejected');
    await expect(page.getByRole('button', { name: /^Reject the .* it proposed…$/ })).toHaveCount(0);

    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByText(new RegExp(`^Undone as .+: ${open.length} restored\\.$`))).toBeVisible();
    for (const l of before) expect((await call(page, 'learnings.detail', { id: l.id })).learning.state).toBe(l.state);
  });

  test('a chain row rejects the learnings its runs proposed, after listing them with their count', async ({ page, desk }) => {
    await openDesk(page, desk, 'runs');
    const { run } = await discoveringRun(page);
    const chain = (await call(page, 'runs.detail', { run })).run.chain;
    const named = (await call(page, 'learnings.origin', { origin: { chain } })).learnings.filter((l) => l.state !== 'rejected');
    expect(named.length).toBeGreaterThan(0);
    const n = named.length === 1 ? '1 learning' : `${named.length} learnings`;

    await page.getByLabel('Find id').fill(chain);
    await page.getByRole('button', { name: `Reject the learnings chain ${chain} proposed` }).click();
    const dialog = page.getByRole('dialog', { name: new RegExp(`^Reject the ${n} chain ${chain} proposed as .+\\?$`) });
    await expect(dialog.getByRole('list', { name: 'Learnings to reject' }).getByRole('listitem')).toHaveCount(named.length);
    await dialog.getByLabel('Reason (optional)').fill('the whole chain went wrong');
    await dialog.getByRole('button', { name: `Reject ${named.length}` }).click();
    await expect(page.getByText(new RegExp(`^Rejected ${n} as .+\\.$`))).toBeVisible();
    for (const l of named) {
      const detail = await call(page, 'learnings.detail', { id: l.id });
      expect([detail.learning.state, detail.learning.reason]).toEqual(['rejected', 'the whole chain went wrong']);
    }
  });

  test('at 1280 × 800 the chains table does not scroll inside the scrolling pane and the last column header of each table is in view', async ({ page, desk }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openDesk(page, desk, 'runs');
    await expect(runsTable(page).locator('tbody tr').first()).toBeVisible();
    await page.locator('a[href^="#/runs?run="]').first().click();
    await expect(page.getByRole('heading', { name: /^Run / })).toBeVisible();

    const inner = await chainsTable(page).evaluate((table) => {
      const box = table.parentElement!;
      return { scrolls: box.scrollHeight > box.clientHeight + 1, overflowY: getComputedStyle(box).overflowY };
    });
    expect(inner).toEqual({ scrolls: false, overflowY: 'visible' });

    for (const table of [chainsTable(page), runsTable(page)]) {
      const last = table.locator('thead th').last();
      const box = (await last.boundingBox())!;
      const pane = (await page.locator('.pane-list').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(Math.min(1280, pane.x + pane.width) + 0.5);
    }
  });
});
