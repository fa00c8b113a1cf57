import fs from 'node:fs';
import path from 'node:path';
import { appendEvent, call, expect, openDesk, reopenHandled, test } from './ui-fixtures.js';

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
    await reopenHandled(page, request!.id);
    await expect(page.locator('.outcome').getByText('Ada Lovelace', { exact: true })).toBeVisible();
    const link = page.locator('.outcome a[href^="#/runs?chain="]');
    const chain = (await link.textContent())!.trim();
    const file = path.join(desk.factory, 'chains', `${chain}.json`);
    await expect.poll(() => fs.existsSync(file), { timeout: 10_000 }).toBe(true);
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as { flags: unknown; workflow: string; agent: string; answers: string };
    expect(written.flags).toEqual(request!.flags);
    expect(written.workflow).toBe(request!.workflow);
    expect(written.agent).toBe(request!.agent);
    expect(written.answers).toBe(request!.id);

    // The link leads to the new chain, which links back to the request.
    await link.click();
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

    await expect(page.locator('.request-item[aria-current="true"]')).not.toHaveAttribute('data-request', legacy!.id);
    await page.locator(`[data-request="${legacy!.id}"]`).click();
    await expect(page.getByText('Answered by')).toBeVisible();
    const chain = (await page.locator('.outcome a[href^="#/runs?chain="]').textContent())!.trim();
    const file = path.join(desk.factory, 'chains', `${chain}.json`);
    await expect.poll(() => fs.existsSync(file), { timeout: 10_000 }).toBe(true);
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as { flags: unknown; workflow: string };
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
