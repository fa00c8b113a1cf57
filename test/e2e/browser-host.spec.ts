/**
 * The browser host as a newcomer meets it: `layover-desk serve` on a temporary factory, the
 * printed URL opened in Chromium, the app's main view on screen; and the guards seen from a
 * real browser and from plain HTTP.
 */
import { expect, test } from '@playwright/test';
import { startServe, type RunningServe } from '../support/serve.js';
import { tempFactory, type TempFactory } from '../support/factory.js';

let factory: TempFactory;
let served: RunningServe;

test.beforeAll(async () => {
  factory = tempFactory('layover-e2e-');
  served = await startServe(factory.dir, ['--create']);
});

test.afterAll(async () => {
  const started = Date.now();
  const code = await served?.stop();
  factory?.remove();
  expect(code).toBe(0);
  expect(Date.now() - started).toBeLessThan(3000);
});

test('the printed URL opens the app in Chromium', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  await page.goto(served.url);
  // The token in the address bar was traded for a cookie.
  await expect(page).toHaveURL(`${served.origin}/`);
  await expect(page).toHaveTitle('Layover Desk');
  await expect(page.getByRole('main')).toBeVisible();
  expect(problems).toEqual([]);
  const cookies = await page.context().cookies();
  const cookie = cookies.find((c) => c.name.startsWith('layover_token_'));
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  // The page itself cannot read the token.
  expect(await page.evaluate(() => document.cookie)).not.toContain(served.token);
});

test('the page\'s own calls and event stream work with the cookie', async ({ page }) => {
  await page.goto(served.url);
  const result = await page.evaluate(async () => {
    const response = await fetch('/api/call/desk.info', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    return { status: response.status, body: await response.json() };
  });
  expect(result.status).toBe(200);
  expect(result.body.ok).toBe(true);
  expect(result.body.value.host).toBe('browser');
  const opened = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const source = new EventSource('/api/events');
        source.onopen = () => {
          source.close();
          resolve(true);
        };
        source.onerror = () => {
          source.close();
          resolve(false);
        };
      }),
  );
  expect(opened).toBe(true);
});

test('without the token, the page and the API are refused', async ({ browser, request }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.goto(`${served.origin}/`);
  expect(response?.status()).toBe(401);
  await context.close();

  const call = await request.post(`${served.origin}/api/call/desk.info`, { data: {} });
  expect(call.status()).toBe(401);
  const events = await request.get(`${served.origin}/api/events`);
  expect(events.status()).toBe(401);
});

test('another site cannot call the API, even with the token', async ({ request }) => {
  const call = await request.post(`${served.origin}/api/call/desk.info`, {
    data: {},
    headers: { Origin: 'http://evil.example', 'X-Layover-Token': served.token },
  });
  expect(call.status()).toBe(403);
  const rebound = await request.get(`${served.origin}/`, { headers: { Host: `evil.example:${new URL(served.origin).port}`, 'X-Layover-Token': served.token } });
  expect(rebound.status()).toBe(403);
});

test('a page from another origin cannot read the API through the browser', async ({ page }) => {
  // An attacker's page (here: about:blank, a foreign origin) fetching the Desk with credentials.
  await page.goto('about:blank');
  const outcome = await page.evaluate(async (origin) => {
    try {
      const response = await fetch(`${origin}/api/call/desk.info`, { method: 'POST', credentials: 'include', body: '{}' });
      return `status ${response.status}`;
    } catch (error) {
      return `blocked: ${(error as Error).message}`;
    }
  }, served.origin);
  expect(outcome).not.toBe('status 200');
});
