/**
 * The window after its event stream was down, in Chromium against `serve` (docs/window.md#around-the-views, "Live updates"):
 * the Desk does not push again what the window missed, so the window reads afresh when the
 * stream is back (DeskApi.onConnected), and shows what happened meanwhile.
 */
import { appendEvent, call, expect, openDesk, test } from './ui-fixtures.js';

test('a window that missed the pushes while its event stream was down shows what happened meanwhile once the stream is back', async ({ page, desk }) => {
  let down = true;
  await page.route('**/api/events', (route) => (down ? route.abort() : route.continue()));
  await openDesk(page, desk);
  const question = 'The staging database refuses connections since the certificate rotation: which CA bundle should runs use?';
  appendEvent(desk.factory, { type: 'help.requested', id: 'hlp_reconnect_1', agent: 'scout', run: 'run_scout_reconnect', chain: 'chn_scout_reconnect', fatal: false, question });
  const filed = async () => (await call(page, 'help.list', { open: true, limit: 100 })).rows.some((request) => request.id === 'hlp_reconnect_1');
  await expect.poll(filed, { message: 'the Desk has taken in the request', timeout: 15_000 }).toBe(true);
  // The Desk pushed it, but nothing reached the window.
  await expect(page.getByText(question)).toHaveCount(0);
  down = false;
  // The event stream tries again by itself (a few seconds), and the window reads afresh then.
  await expect(page.getByText(question)).toBeVisible({ timeout: 20_000 });
});
