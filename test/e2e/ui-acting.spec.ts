/**
 * Issue 13, items 2, 3 and 10 and "In the next run?": who the window acts as, deciding from the
 * learning detail, where a learning stands for its agent's next run, and what reaches the
 * operator outside the views (favicon, the title's count, browser notifications, the run and
 * chain of a Needs-you row). Each against `serve` on a fresh demo factory, checked in the ledger
 * through the Desk's own API.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { appendEvent, call, expect, openDesk, reopenHandled, test } from './ui-fixtures.js';

/** Replies to the open request `id` from its form, and returns whom the ledger records as responder. */
async function replyTo(page: Page, id: string, answer: string): Promise<string | null> {
  await page.evaluate(() => (window.location.hash = '#/needs'));
  await page.locator(`[data-request="${id}"]`).click();
  const form = page.locator('form.reply');
  await form.getByLabel('Answer (required)').fill(answer);
  await form.getByRole('button', { name: 'Send reply' }).click();
  await reopenHandled(page, id);
  return (await call(page, 'help.detail', { id })).request.responder;
}

/** Rejects the learning in row `index` of the list, confirming the dialog titled `title`. */
async function rejectRow(page: Page, index: number, title: string): Promise<string> {
  await page.evaluate(() => (window.location.hash = '#/learnings'));
  const row = page.locator(`tr.row[data-index="${index}"]`);
  await expect(row).toBeVisible();
  const id = (await row.getAttribute('data-id'))!;
  await row.locator('input[type="checkbox"]').click();
  await page.getByRole('button', { name: 'Reject 1 learning…' }).click();
  await expect(page.getByRole('dialog')).toContainText(title);
  await page.getByRole('dialog').getByRole('button', { name: 'Reject 1' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear selection' }).click();
  return id;
}

/** Open requests the demo has whose flags are known, so a reply needs nothing but an answer. */
async function answerable(page: Page) {
  const open = await call(page, 'help.list', { open: true, limit: 100 });
  return open.rows.filter((r) => r.flags !== null);
}

/** The exporter's file for `agent`: the list its next run is given, in order. */
function exported(factory: string, agent: string): string[] {
  const file = JSON.parse(fs.readFileSync(path.join(factory, 'learnings', `${agent}.json`), 'utf8')) as { learnings: Array<{ id: string }> };
  return file.learnings.map((l) => l.id);
}

test.describe('acting as', () => {
  test('with no stored name, replies and rejects are recorded as the OS account; after changing the name, both under the new one', async ({
    page,
    desk,
  }) => {
    await openDesk(page, desk);
    const { os_user: osUser } = await call(page, 'desk.info', {});
    const acting = page.getByRole('banner').getByRole('button', { name: /^Acting as/ });
    await expect(acting).toHaveText(`Acting as ${osUser}`);
    const [first, second] = await answerable(page);
    expect(second, 'the demo has two open requests with known flags').toBeTruthy();

    await page.locator(`[data-request="${first!.id}"]`).click();
    await expect(page.locator('form.reply').getByLabel('Your name')).toHaveCount(0); // no name field of its own
    await expect(page.locator('form.reply')).toContainText(`Replying as ${osUser}`);
    expect(await replyTo(page, first!.id, 'Use the staging key.')).toBe(osUser);
    const rejectedByOs = await rejectRow(page, 0, `Reject 1 learning as ${osUser}?`);
    await expect(page.getByRole('status').filter({ hasText: `Rejected 1 learning as ${osUser}.` })).toBeVisible();
    expect((await call(page, 'learnings.detail', { id: rejectedByOs })).learning.decided_by).toBe(osUser);

    await acting.click();
    const dialog = page.getByRole('dialog', { name: 'Who are you acting as?' });
    await expect(dialog.getByLabel('Your name')).toHaveValue(osUser);
    await dialog.getByLabel('Your name').fill('Ada Lovelace');
    await dialog.getByRole('button', { name: 'Act as Ada Lovelace' }).click();
    await expect(acting).toHaveText('Acting as Ada Lovelace');

    const rejectedByAda = await rejectRow(page, 1, 'Reject 1 learning as Ada Lovelace?');
    await expect(page.getByRole('status').filter({ hasText: 'Rejected 1 learning as Ada Lovelace.' })).toBeVisible();
    expect((await call(page, 'learnings.detail', { id: rejectedByAda })).learning.decided_by).toBe('Ada Lovelace');
    expect(await replyTo(page, second!.id, 'Yes, go ahead.')).toBe('Ada Lovelace');

    // The name survives a reload: it is the window's one remembered name.
    await page.reload();
    await expect(page.getByRole('banner').getByRole('button', { name: /^Acting as/ })).toHaveText('Acting as Ada Lovelace');
  });

  test('the chosen name is the one a resolve asks as and is recorded under, and the one a keep and its undo are toasted and recorded under', async ({
    page,
    desk,
  }) => {
    await openDesk(page, desk);
    await page.getByRole('banner').getByRole('button', { name: /^Acting as/ }).click();
    const naming = page.getByRole('dialog', { name: 'Who are you acting as?' });
    await naming.getByLabel('Your name').fill('Grace Hopper');
    await naming.getByRole('button', { name: 'Act as Grace Hopper' }).click();

    const [request] = (await call(page, 'help.list', { open: true, limit: 100 })).rows;
    expect(request, 'the demo has an open request').toBeTruthy();
    await page.locator(`[data-request="${request!.id}"]`).click();
    await page.getByRole('button', { name: 'Resolve without answer…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Resolve without an answer as Grace Hopper?' });
    await confirm.getByRole('button', { name: 'Resolve', exact: true }).click();
    await expect.poll(async () => (await call(page, 'help.detail', { id: request!.id })).request.state).toBe('resolved');
    expect((await call(page, 'help.detail', { id: request!.id })).request.responder).toBe('Grace Hopper');

    await page.evaluate(() => (window.location.hash = '#/learnings?state=provisional'));
    const row = page.locator('tr.row[data-index="0"]');
    await expect(row).toBeVisible();
    const id = (await row.getAttribute('data-id'))!;
    await page.keyboard.press('e');
    await expect(page.getByRole('status').filter({ hasText: 'Kept 1 learning as Grace Hopper.' })).toBeVisible();
    expect((await call(page, 'learnings.detail', { id })).learning).toMatchObject({ state: 'confirmed', decided_by: 'Grace Hopper' });
    await page.keyboard.press('u');
    await expect(page.getByRole('status').filter({ hasText: 'Undone as Grace Hopper: 1 restored.' })).toBeVisible();
    const after = await call(page, 'learnings.detail', { id });
    expect(after.learning.state).toBe('provisional');
    expect(after.history.at(-1)).toMatchObject({ kind: 'undone', by: 'Grace Hopper' });
  });
});

test.describe('the learning detail', () => {
  test('the detail keeps, undoes and rejects its learning with the list’s confirmation, wording and Undo', async ({ page, desk }) => {
    await openDesk(page, desk, 'learnings');
    const { os_user: osUser } = await call(page, 'desk.info', {});
    const provisional = await call(page, 'learnings.query', { filter: { states: ['provisional'] }, limit: 1 });
    const id = provisional.rows[0]!.id;
    await page.evaluate((learning) => (window.location.hash = `#/learnings?id=${learning}`), id);
    const detail = page.getByRole('complementary');
    const actions = detail.getByRole('group', { name: 'Decide on this learning' });
    await expect(detail.locator('.mono').first()).toHaveText(id);

    await actions.getByRole('button', { name: `Keep this learning as ${osUser}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `Kept 1 learning as ${osUser}.` })).toBeVisible();
    expect((await call(page, 'learnings.detail', { id })).learning).toMatchObject({ state: 'confirmed', decided_by: osUser });

    await actions.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Undone as ${osUser}: 1 restored.` })).toBeVisible();
    expect((await call(page, 'learnings.detail', { id })).learning.state).toBe('provisional');

    await actions.getByRole('button', { name: 'Reject this learning…' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Reject 1 learning as ${osUser}?`);
    await dialog.getByLabel('Reason (optional)').fill('read the evidence');
    await dialog.getByRole('button', { name: 'Reject 1' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Rejected 1 learning as ${osUser}.` })).toBeVisible();
    expect((await call(page, 'learnings.detail', { id })).learning).toMatchObject({ state: 'rejected', reason: 'read the evidence' });
    await expect(actions.getByRole('button', { name: /^Reject/ })).toHaveCount(0);
    await expect(detail).toContainText('In the next run? not given to runs: rejected');

    // The toast's Undo and the detail's are one action: either restores the learning.
    await page.locator('.toast').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await call(page, 'learnings.detail', { id })).learning.state).toBe('provisional');
  });

  test('the detail says the learning’s rank in its agent’s next run, as the exporter ranks it, or that it is below the max_per_run cap', async ({
    page,
    desk,
  }) => {
    await openDesk(page, desk, 'learnings');
    const order = exported(desk.factory, 'builder');
    expect(order.length, 'the demo gives the builder at least four learnings').toBeGreaterThanOrEqual(4);
    const show = (id: string) => page.evaluate((learning) => (window.location.hash = `#/learnings?id=${learning}`), id);
    const nextRun = page.getByRole('complementary').locator('.next-run');

    await show(order[3]!);
    await expect(nextRun).toHaveText(`In the next run? rank 4 of ${order.length} in the next run`);

    // The cap lowered to 2: the second is the last one given, the fourth falls below the cap.
    const settings = path.join(desk.factory, 'layover.toml');
    fs.writeFileSync(settings, fs.readFileSync(settings, 'utf8').replace(/max_per_run = \d+/, 'max_per_run = 2'));
    await expect(nextRun).toHaveText('In the next run? not in the next run: below the max_per_run cap (rank 4, cap 2)', { timeout: 15_000 });
    await show(order[1]!);
    await expect(nextRun).toHaveText('In the next run? rank 2 of 2 in the next run');
  });
});

test.describe('outside the views', () => {
  test('the favicon is an SVG of the build served under the CSP, and loading the window requests nothing that fails', async ({ page, desk }) => {
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
    await openDesk(page, desk);
    await expect(page.locator('[data-request]').first()).toBeVisible();
    const href = await page.locator('link[rel="icon"]').evaluate((link) => (link as HTMLLinkElement).href);
    const icon = await page.request.get(href);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
    expect(new URL(href).origin).toBe(new URL(page.url()).origin); // 'self', which the CSP's img-src allows
    const page200 = await page.request.get(page.url());
    expect(page200.headers()['content-security-policy']).toContain("img-src 'self'");
    expect(failed).toEqual([]);
  });

  test('the tab title counts the open fatal requests and follows a new one', async ({ page, desk }) => {
    await openDesk(page, desk);
    const open = await call(page, 'help.list', { open: true, limit: 100 });
    const fatal = open.rows.filter((r) => r.fatal).length;
    expect(fatal).toBeGreaterThan(0);
    await expect(page).toHaveTitle(`(${fatal}) Layover Desk`);
    appendEvent(desk.factory, {
      type: 'help.requested',
      id: 'hlp_title_1',
      agent: 'scout',
      run: 'run_scout_title',
      chain: 'chn_scout_title',
      fatal: true,
      question: 'Which region may I deploy to?',
    });
    await expect(page).toHaveTitle(`(${fatal + 1}) Layover Desk`, { timeout: 15_000 });
  });

  test('notifications for new fatal requests are asked for only on a click, never on load, then raised for each new one', async ({
    browser,
    desk,
  }) => {
    const context = await browser.newContext();
    await context.grantPermissions(['notifications'], { origin: new URL(desk.url).origin });
    // Records what the page does with the real Notification API, passing every call through.
    await context.addInitScript(() => {
      const record = { asked: 0, shown: [] as string[] };
      (window as unknown as { notifications: typeof record }).notifications = record;
      const Real = window.Notification;
      const requestPermission = Real.requestPermission.bind(Real);
      window.Notification = new Proxy(Real, {
        construct(target, args: [string, NotificationOptions?]) {
          record.shown.push(args[0]);
          return Reflect.construct(target, args) as object;
        },
        get(target, property) {
          if (property === 'requestPermission') {
            return () => {
              record.asked += 1;
              return requestPermission();
            };
          }
          const value = Reflect.get(target, property) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    });
    const page = await context.newPage();
    await openDesk(page, desk);
    await expect(page.locator('[data-request]').first()).toBeVisible();
    const recorded = () => page.evaluate(() => (window as unknown as { notifications: { asked: number; shown: string[] } }).notifications);
    expect(await recorded()).toEqual({ asked: 0, shown: [] });

    const toggle = page.getByRole('checkbox', { name: 'Notify me of new fatal requests' });
    // A click, not check(): the box is ticked once the browser has answered the permission
    // request, after the click returns, which check() took for a click that did nothing.
    await toggle.click();
    await expect(toggle).toBeChecked();
    expect((await recorded()).asked).toBe(1);

    // A request that is not fatal raises nothing; only the fatal one after it does.
    appendEvent(desk.factory, {
      type: 'help.requested',
      id: 'hlp_notify_quiet',
      agent: 'scout',
      run: 'run_scout_notify',
      chain: 'chn_scout_notify',
      fatal: false,
      question: 'Is the tracker down for everyone?',
    });
    await expect(page.locator('[data-request="hlp_notify_quiet"]')).toBeVisible({ timeout: 15_000 });
    appendEvent(desk.factory, {
      type: 'help.requested',
      id: 'hlp_notify_1',
      agent: 'publisher',
      run: 'run_publisher_notify',
      chain: 'chn_publisher_notify',
      fatal: true,
      question: 'The registry refused the token: which one now?',
    });
    await expect.poll(async () => (await recorded()).shown, { timeout: 15_000 }).toEqual(['publisher needs you']);
    await context.close();
  });

  test('each Needs-you row shows the run and the chain of its request', async ({ page, desk }) => {
    await openDesk(page, desk);
    const open = await call(page, 'help.list', { open: true, limit: 100 });
    expect(open.rows.length).toBeGreaterThan(0);
    for (const request of open.rows) {
      await expect(page.locator(`[data-request="${request.id}"] .request-origin`)).toHaveText(`run ${request.run} · chain ${request.chain}`);
    }
  });
});
