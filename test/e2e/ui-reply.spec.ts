import fs from 'node:fs';
import path from 'node:path';
import { appendEvent, call, expect, openDesk, reopenHandled, test } from './ui-fixtures.js';
import type { Page } from '@playwright/test';
import type { DeskServer } from './ui-fixtures.js';

/** The reply form of the fatal demo request of a run that had a boolean flag, with that flag. */
async function replyFormWithFlag(page: Page, desk: DeskServer) {
  await openDesk(page, desk);
  const open = await call(page, 'help.list', { open: true, limit: 100 });
  const request = open.rows.find(
    (r) => r.fatal && r.flags && Object.values(r.flags).some((v) => typeof v === 'boolean'),
  );
  expect(request, 'the demo has a fatal request whose run had a boolean flag').toBeTruthy();
  const [key, before] = Object.entries(request!.flags!).find(([, v]) => typeof v === 'boolean')!;
  await page.locator(`[data-request="${request!.id}"]`).click();
  const form = page.getByRole('form', { name: `Reply to ${request!.agent}` });
  return { form, request: request!, key, before: before as boolean };
}

/** The chain file a reply wrote, as JSON. */
function chainFile(desk: DeskServer, chain: string): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(desk.factory, 'chains', `${chain}.json`), 'utf8')) as Record<string, unknown>;
}

/** The new chain of the answered request `id`, once its chain file is written (the request is reopened from the handled list). */
async function newChainOf(page: Page, desk: DeskServer, id: string): Promise<string> {
  await reopenHandled(page, id);
  const chain = (await page.locator('.outcome a[href^="#/runs?chain="]').textContent())!.trim();
  await expect.poll(() => fs.existsSync(path.join(desk.factory, 'chains', `${chain}.json`)), { timeout: 10_000 }).toBe(true);
  return chain;
}


test.describe('replying to help requests', () => {
  test('a reply to a fatal request writes a chain file with the asking run’s flags, and the name is remembered', async ({ page, desk }) => {
    await openDesk(page, desk);
    const open = await call(page, 'help.list', { open: true, limit: 100 });
    const request = open.rows.find((r) => r.fatal && r.awaiting_human && r.flags && Object.keys(r.flags).length > 0);
    expect(request, 'the demo has a fatal request of a waiting chain whose run had flags').toBeTruthy();

    await page.locator(`[data-request="${request!.id}"]`).click();
    const form = page.getByRole('form', { name: `Reply to ${request!.agent}` });
    await expect(form.getByText(request!.workflow!, { exact: true })).toBeVisible();
    await form.getByLabel('Answer (required)').fill('A new token is in the vault under registry/publish.');
    await form.getByRole('button', { name: 'change', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Your name').fill('Ada Lovelace');
    await page.getByRole('dialog').getByRole('button', { name: 'Act as Ada Lovelace' }).click();
    await expect(form).toContainText('Replying as Ada Lovelace');
    await form.getByRole('button', { name: 'Send reply' }).click();

    // The cursor moves on to the next request; the one answered stays listed, with its outcome.
    const chain = await newChainOf(page, desk, request!.id);
    await expect(page.locator('.outcome').getByText('Ada Lovelace', { exact: true })).toBeVisible();
    const written = chainFile(desk, chain);
    expect(written.flags).toEqual(request!.flags);
    expect(written.workflow).toBe(request!.workflow);
    expect(written.agent).toBe(request!.agent);
    expect(written.answers).toBe(request!.id);

    // The link leads to the new chain, which links back to the request.
    await page.locator('.outcome a[href^="#/runs?chain="]').click();
    await expect(page.getByRole('heading', { name: 'Runs & chains' })).toBeVisible();
    await expect(page.locator(`a[href="#/needs?request=${request!.id}"]`)).toBeVisible();

    // After a reload the form replies as the name chosen last time.
    await page.reload();
    await page.evaluate(() => (window.location.hash = '#/needs'));
    const other = open.rows.find((r) => r.id !== request!.id)!;
    await page.locator(`[data-request="${other.id}"]`).click();
    await expect(page.locator('form.reply')).toContainText('Replying as Ada Lovelace');
  });

  test('a legacy request with unknown flags refuses Send until workflow and flags are stated', async ({ page, desk }) => {
    await openDesk(page, desk);
    const open = await call(page, 'help.list', { open: true, limit: 100 });
    const legacy = open.rows.find((r) => r.flags === null);
    expect(legacy, 'the demo has a request whose run never recorded its start').toBeTruthy();

    await page.locator(`[data-request="${legacy!.id}"]`).click();
    const form = page.getByRole('form', { name: `Reply to ${legacy!.agent}` });
    await form.getByLabel('Answer (required)').fill('Node 20, as everywhere else.');
    const send = form.getByRole('button', { name: 'Send reply' });
    await expect(send).toBeDisabled();
    await expect(form.getByText(/flags are unknown, so the new chain cannot inherit them/)).toBeVisible();
    await form.getByLabel('Workflow (required)').fill('builder-daily');
    await expect(send).toBeDisabled();
    await form.getByLabel(/Flags, one key=value per line/).fill('cache=false');
    await expect(send).toBeEnabled();
    await send.click();

    const chain = await newChainOf(page, desk, legacy!.id);
    const written = chainFile(desk, chain);
    expect(written.flags).toEqual({ cache: false });
    expect(written.workflow).toBe('builder-daily');
  });

  test('a question holding HTML is shown as text', async ({ page, desk }) => {
    await openDesk(page, desk);
    const question = 'Is this safe? <img src=x onerror=alert(1)> <b>bold</b>';
    appendEvent(desk.factory, {
      type: 'help.requested',
      id: 'hlp_xss_1',
      agent: 'scout',
      run: 'run_scout_xss',
      chain: 'chn_scout_xss',
      fatal: false,
      question,
    });
    await expect(page.getByText(question).first()).toBeVisible({ timeout: 15_000 });
    await page.locator('[data-request="hlp_xss_1"]').click();
    await expect(page.locator('.question')).toHaveText(question);
    await expect(page.locator('main img, main b')).toHaveCount(0);
  });
});

test.describe('changing what the new chain may do', () => {
  test('a flag changed through its control is shown as a diff, sent, and recorded in the chain file and on the request', async ({ page, desk }) => {
    const { form, request, key, before } = await replyFormWithFlag(page, desk);
    // Known flags are shown as what the new chain inherits, each with the asking run's value.
    const inherits = form.getByLabel('What the new chain inherits');
    for (const [flag, value] of Object.entries(request.flags!)) await expect(inherits).toContainText(`${flag}=${String(value)}`);
    await form.getByLabel('Answer (required)').fill('Go ahead, with the other setting.');
    await form.getByRole('button', { name: 'Change a flag…' }).click();
    await form.getByLabel('Flag', { exact: true }).fill(key);
    await form.getByLabel('New value').fill(String(!before));
    await expect(form.getByRole('list', { name: 'Flag changes to send' })).toHaveText(`${key}: ${before} → ${!before}`);
    await form.getByRole('button', { name: 'Send reply' }).click();

    const chain = await newChainOf(page, desk, request.id);
    const written = chainFile(desk, chain);
    expect(written.flags_changed).toEqual({ [key]: before });
    expect((written.flags as Record<string, unknown>)[key]).toBe(!before);
    const detail = await call(page, 'help.detail', { id: request.id });
    expect(detail.request.flags_changed).toEqual({ [key]: before });
    await expect(page.getByRole('list', { name: 'Flags changed with the reply' })).toHaveText(`${key}: ${before} → ${!before}`);
  });

  test('a reply whose form never used the flag control sends no change', async ({ page, desk }) => {
    const { form, request } = await replyFormWithFlag(page, desk);
    await form.getByLabel('Answer (required)').fill('Carry on as asked.');
    await form.getByRole('button', { name: 'Send reply' }).click();

    const chain = await newChainOf(page, desk, request.id);
    const written = chainFile(desk, chain);
    expect(written).not.toHaveProperty('flags_changed');
    expect(written.flags).toEqual(request.flags);
    expect((await call(page, 'help.detail', { id: request.id })).request.flags_changed).toBeNull();
    await expect(page.getByRole('list', { name: 'Flags changed with the reply' })).toHaveCount(0);
  });

  test('a change that changes nothing is refused with the Desk’s message, and the request stays open', async ({ page, desk }) => {
    const { form, request, key, before } = await replyFormWithFlag(page, desk);
    await form.getByLabel('Answer (required)').fill('Same as before.');
    await form.getByRole('button', { name: 'Change a flag…' }).click();
    await form.getByLabel('Flag', { exact: true }).fill(key);
    await form.getByLabel('New value').fill(String(before));
    await form.getByRole('button', { name: 'Send reply' }).click();

    await expect(form.getByRole('alert')).toContainText(`changes nothing: ${request.id} already has ${key}=${before}`);
    expect((await call(page, 'help.detail', { id: request.id })).request.state).toBe('open');
    await expect(form.getByLabel('Answer (required)')).toHaveValue('Same as before.');
  });
});
