/**
 * Rules the window once held a copy of, or asked for twice, in Chromium against `serve` on a
 * temporary factory: Worth a look's Keep follows what the Desk says a learning takes, its reject
 * asks as every reject does (with a reason), and the Learnings list opened on a filtered address
 * asks the Desk for that filter only.
 */
import type { Page, Request } from '@playwright/test';
import { appendEvent, call, expect, openDesk, test } from './ui-fixtures.js';

const AGENT = 'archivist';
/** Echoed five times each; the agent's three quiet learnings keep its median echo count at 0. */
const KEPT = 'rotate the archive bucket keys before the quarterly audit';
const PROPOSED = 'compress the cold tier only after the nightly checksum pass';
const QUIET = [
  'the restore drill runs on the first tuesday of the month',
  'label every tape with its retention class',
  'the vault mirror lags the primary by about an hour',
];
/** Proposals of one text: the first records it, each one after is an echo. */
const PROPOSALS_EACH = 6;

async function idOf(page: Page, text: string): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(async () => {
      id = (await call(page, 'learnings.query', { filter: { agent: AGENT } })).rows.find((l) => l.text === text)?.id;
      return id;
    })
    .toBeDefined();
  return id!;
}

/** Two learnings singled out by their echoes; the first is kept, so it is confirmed. */
async function makeEchoed(page: Page, factory: string): Promise<{ kept: string; proposed: string }> {
  for (const text of QUIET) appendEvent(factory, { type: 'learning.proposed', agent: AGENT, text, impact: 'low' });
  for (const text of [KEPT, PROPOSED]) {
    for (let i = 0; i < PROPOSALS_EACH; i++) appendEvent(factory, { type: 'learning.proposed', agent: AGENT, text, impact: 'medium' });
  }
  const kept = await idOf(page, KEPT);
  const proposed = await idOf(page, PROPOSED);
  for (const id of [kept, proposed]) {
    await expect.poll(async () => (await call(page, 'learnings.detail', { id })).learning.echoes).toBe(PROPOSALS_EACH - 1);
  }
  await call(page, 'learnings.keep', { target: { ids: [kept] }, by: 'setup' });
  return { kept, proposed };
}

const entry = (page: Page, id: string) => page.locator(`.worth-item[data-worth="${id}"]`);

test.describe('window mends', () => {
  test('a Worth a look entry offers Keep only when the Desk says its learning can be kept', async ({ page, desk }) => {
    await openDesk(page, desk);
    const ids = await makeEchoed(page, desk.factory);
    const sent = new Map((await call(page, 'learnings.worthALook', {})).entries.map((e) => [e.learning.id, e.decisions]));
    expect(sent.get(ids.kept)).toEqual(['reject']);
    expect(sent.get(ids.proposed)).toEqual(['reject', 'keep']);

    await page.reload();
    await expect(entry(page, ids.kept)).toBeVisible();
    await expect(entry(page, ids.kept).getByRole('button', { name: 'Keep' })).toHaveCount(0);
    await expect(entry(page, ids.kept).getByRole('button', { name: 'Reject' })).toBeVisible();
    await expect(entry(page, ids.proposed).getByRole('button', { name: 'Keep' })).toBeVisible();
  });

  test('rejecting from Worth a look asks as every reject does, and records the reason given', async ({ page, desk }) => {
    await openDesk(page, desk);
    const ids = await makeEchoed(page, desk.factory);
    await page.reload();
    await entry(page, ids.proposed).getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: /^Reject 1 learning as .+\?$/ });
    await expect(dialog).toContainText(PROPOSED);
    await expect(dialog).toContainText(`A learning of ${AGENT}.`);
    const reason = 'the cold tier is compressed by the storage team';
    await dialog.getByLabel('Reason (optional)').fill(reason);
    await dialog.getByRole('button', { name: 'Reject 1' }).click();
    await expect(page.getByText(/^Rejected 1 learning as .+\.$/)).toBeVisible();
    await expect(entry(page, ids.proposed)).toHaveCount(0);
    const { learning } = await call(page, 'learnings.detail', { id: ids.proposed });
    expect(learning.state).toBe('rejected');
    expect(learning.reason).toBe(reason);
  });

  test('the Learnings list opened on a filtered address asks the Desk for that filter only', async ({ page, desk }) => {
    await openDesk(page, desk);
    const [agent] = (await call(page, 'learnings.query', { limit: 1 })).agents;
    expect(agent, 'the demo has learnings').toBeTruthy();
    await page.evaluate((a) => (window.location.hash = `#/learnings?agent=${a}`), agent!);
    await expect(page.getByRole('heading', { name: 'Learnings' })).toBeVisible();

    const queries: Request[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/call/learnings.query')) queries.push(request);
    });
    await page.reload();
    await expect(page.locator('tr.row[data-id]').first()).toBeVisible();
    const rowAgents = await page.locator('tr.row[data-id] .col-agent').allTextContents();
    expect(new Set(rowAgents)).toEqual(new Set([agent]));
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.map((q) => (q.postDataJSON() as { filter: unknown }).filter)).toEqual(queries.map(() => ({ agent })));
  });
});
