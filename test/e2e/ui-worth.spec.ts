/**
 * "Worth a look" in Needs you (docs/window.md#worth-a-look), in Chromium against `serve` on a
 * temporary factory: events that make each kind of evidence appear are appended the way the
 * factory writes them, and the section is worked with its keys.
 */
import type { Page } from '@playwright/test';
import { appendEvent, call, expect, openDesk, test, type DeskServer } from './ui-fixtures.js';
import { proposed, runFinished, runStarted } from '../support/events.js';

const AGENT = 'auditor';
const FAILING = 'always pin the compiler version inside the release image';
const REDISCOVERED = 'the staging queue drains only after the nightly export';
const ECHOED = 'ask the storage team before resizing a shared volume';
/** Never echoed, so the agent's median echo count stays 0 whichever of the others is decided on. */
const QUIET = [
  'the billing sandbox resets its balances every monday',
  'use the second runner for jobs that need a GPU',
  'tag images with the commit hash, never with latest',
];

interface Ids {
  failing: string;
  rediscovered: string;
  echoed: string;
}

/** Event times a second apart, ending now, so the ledger reads them in this order. */
function clock(): () => string {
  let t = Date.now() - 10 * 60_000;
  return () => new Date((t += 1000)).toISOString();
}

async function idOf(page: Page, text: string): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(async () => {
      id = (await call(page, 'learnings.query', { filter: { agent: AGENT, search: text.split(' ').slice(-2).join(' ') } })).rows.find(
        (l) => l.text === text,
      )?.id;
      return id;
    })
    .toBeDefined();
  return id!;
}

function runOf(desk: DeskServer, at: () => string, run: string, chain: string, learnings: string[], outcome?: 'failed' | 'succeeded') {
  appendEvent(desk.factory, runStarted({ at: at(), run, agent: AGENT, chain, workflow: 'build', learnings }));
  if (outcome) appendEvent(desk.factory, runFinished({ at: at(), run, agent: AGENT, outcome }));
}

/**
 * One learning whose runs fail (7 of 7, against 0 of the agent's 7 others), kept so that it does
 * not lapse; one that lapsed through those runs and was found again from the chain it was first
 * proposed in; one echoed five times (the agent's median is 0: three more are never echoed).
 */
async function makeEvidence(page: Page, desk: DeskServer): Promise<Ids> {
  const at = clock();
  runOf(desk, at, 'run_aud_first', 'chn_aud_1', []);
  appendEvent(desk.factory, proposed({ at: at(), agent: AGENT, text: FAILING, impact: 'high' }));
  appendEvent(desk.factory, proposed({ at: at(), agent: AGENT, text: REDISCOVERED, impact: 'low', run: 'run_aud_first' }));
  const failing = await idOf(page, FAILING);
  const rediscovered = await idOf(page, REDISCOVERED);
  await call(page, 'learnings.keep', { target: { ids: [failing] }, by: 'setup' });
  for (let i = 0; i < 7; i++) {
    runOf(desk, at, `run_aud_bad_${i}`, `chn_aud_bad_${i}`, [failing], 'failed');
    runOf(desk, at, `run_aud_ok_${i}`, `chn_aud_ok_${i}`, [], 'succeeded');
  }
  runOf(desk, at, 'run_aud_again', 'chn_aud_1', []);
  appendEvent(desk.factory, proposed({ at: at(), agent: AGENT, text: REDISCOVERED, impact: 'low', run: 'run_aud_again' }));
  for (const text of QUIET) appendEvent(desk.factory, proposed({ at: at(), agent: AGENT, text, impact: 'low' }));
  for (let i = 0; i < 6; i++) appendEvent(desk.factory, proposed({ at: at(), agent: AGENT, text: ECHOED, impact: 'medium' }));
  const echoed = await idOf(page, ECHOED);
  await expect.poll(async () => (await call(page, 'learnings.detail', { id: echoed })).learning.echoes).toBe(5);
  await expect.poll(async () => (await call(page, 'learnings.detail', { id: rediscovered })).learning.rediscoveries).toBe(1);
  return { failing, rediscovered, echoed };
}

function entry(page: Page, id: string) {
  return page.locator(`.worth-item[data-worth="${id}"]`);
}

/** Moves the section's cursor with `w` until it is on the entry of `id`. */
async function cursorTo(page: Page, id: string): Promise<void> {
  const count = await page.locator('.worth-item').count();
  const current = page.locator('.worth-item.current');
  for (let i = 0; i <= count; i++) {
    const at = await current.getAttribute('data-worth');
    if (at === id) return;
    await page.keyboard.press('w');
    await expect(current).not.toHaveAttribute('data-worth', at ?? '');
  }
  throw new Error(`the cursor never reached ${id}`);
}

test.describe('worth a look', () => {
  test('lists each learning the evidence singles out, with its reason in one line', async ({ page, desk }) => {
    await openDesk(page, desk);
    const ids = await makeEvidence(page, desk);
    await page.reload();
    const section = page.getByRole('region', { name: /Worth a look/ });
    await expect(section).toBeVisible();
    await expect(entry(page, ids.failing)).toContainText(FAILING);
    await expect(entry(page, ids.failing)).toContainText(
      "runs given it fail more often: 7 of 7 did not succeed (100%), against 0% of the agent's 7 other runs",
    );
    await expect(entry(page, ids.rediscovered)).toContainText('a rediscovery came from chain chn_aud_1, where it was first proposed: not independent');
    await expect(entry(page, ids.echoed)).toContainText("echoed 5 times while it was being given: the agent's median is 0 (flagged from 5)");
    // It points and decides nothing: each learning listed is in the state it was in.
    const states = await Promise.all([ids.failing, ids.rediscovered, ids.echoed].map(async (id) => (await call(page, 'learnings.detail', { id })).learning.state));
    expect(states).toEqual(['confirmed', 'provisional', 'provisional']);
  });

  test('a dismissed entry stays away while its evidence stays the same, and comes back when it grows', async ({ page, desk }) => {
    await openDesk(page, desk);
    const ids = await makeEvidence(page, desk);
    await page.reload();
    await entry(page, ids.echoed).getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Dismissed from Worth a look as .+ until its evidence changes\./ })).toBeVisible();
    await expect(entry(page, ids.echoed)).toHaveCount(0);

    // A run given it that succeeds is no evidence against it: the dismissal holds.
    const now = () => new Date().toISOString();
    runOf(desk, now, 'run_aud_fine', 'chn_aud_fine', [ids.echoed], 'succeeded');
    await expect.poll(async () => (await call(page, 'learnings.detail', { id: ids.echoed })).given.runs).toBe(1);
    await page.reload();
    await expect(entry(page, ids.failing)).toBeVisible();
    await expect(entry(page, ids.echoed)).toHaveCount(0);

    // One more echo is: the entry is back, live, with the new count.
    appendEvent(desk.factory, proposed({ at: now(), agent: AGENT, text: ECHOED, impact: 'medium' }));
    await expect(entry(page, ids.echoed)).toContainText('echoed 6 times while it was being given', { timeout: 15_000 });
  });

  test('reject, keep and dismiss work on keys, and a dismissal survives a reload', async ({ page, desk }) => {
    await openDesk(page, desk);
    const ids = await makeEvidence(page, desk);
    await page.reload();
    await expect(entry(page, ids.echoed)).toBeVisible();

    await cursorTo(page, ids.failing);
    await page.keyboard.press('Shift+R');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`A learning of ${AGENT}.`);
    await dialog.getByRole('button', { name: 'Reject 1' }).click();
    await expect(page.getByText(/^Rejected 1 learning as .+\.$/)).toBeVisible();
    await expect(entry(page, ids.failing)).toHaveCount(0);
    expect((await call(page, 'learnings.detail', { id: ids.failing })).learning.state).toBe('rejected');

    await cursorTo(page, ids.echoed);
    await page.keyboard.press('Shift+E');
    await expect(page.getByText(/^Kept 1 learning as .+\.$/)).toBeVisible();
    await expect(entry(page, ids.echoed)).toHaveCount(0);
    expect((await call(page, 'learnings.detail', { id: ids.echoed })).learning.state).toBe('confirmed');

    await cursorTo(page, ids.rediscovered);
    await page.keyboard.press('Shift+D');
    await expect(entry(page, ids.rediscovered)).toHaveCount(0);
    const state = (await call(page, 'learnings.detail', { id: ids.rediscovered })).learning.state;
    expect(state).toBe('provisional');

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Needs you' })).toBeVisible();
    await expect.poll(async () => (await call(page, 'learnings.worthALook', {})).entries.some((e) => e.learning.id === ids.rediscovered)).toBe(false);
    await expect(entry(page, ids.rediscovered)).toHaveCount(0);
  });
});
