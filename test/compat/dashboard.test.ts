/**
 * The developers page's ZarinPal and Zibal values, in Chromium, in both languages: made and shown
 * once, working at once, rolled (the earlier ones expire as chosen), revoked; live ones under a
 * live key's rules; a form without its CSRF token refused with nothing written.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { getHarness } from '../support/harness.ts';
import { request } from '../support/http.ts';
import {
  assertAccessible,
  assertLanguage,
  dashboardBrowser,
  signInInBrowser,
  signUpInBrowser,
} from '../support/dashboard.ts';

describe("dashboard: ZarinPal's and Zibal's values in the developers area", function () {
  this.timeout(180_000);
  const dashboard = dashboardBrowser();

  const unverified = (merchantId: string) =>
    request<{ errors: { code?: number } | [] }>(dashboard.base, 'POST', '/pg/v4/payment/unVerified.json', {
      body: { merchant_id: merchantId },
    });
  const zibalInquiry = (merchant: string) =>
    request<{ result: number }>(dashboard.base, 'POST', '/v1/inquiry', { body: { merchant, trackId: 123 } });

  async function makeValues(page: Page, mode: 'test' | 'live', expiresIn: string): Promise<number> {
    await page.goto(`${dashboard.base}/dashboard/developers`);
    await page.selectOption(`#compat-${mode}-expiry`, expiresIn);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/dashboard/developers/compat') && r.request().method() === 'POST'),
      page.click(`#compat-${mode}-form button`),
    ]);
    return response.status();
  }
  const shown = async (page: Page) => ({
    zarinpal: await page.locator('#new-zarinpal-merchant-id').innerText(),
    zibal: await page.locator('#new-zibal-merchant').innerText(),
  });

  for (const lang of ['en', 'fa'] as const) {
    it(`(${lang}) makes the values once, rolls and revokes them; live values wait for live mode`, async () => {
      const { page } = await dashboard.phone();
      const email = await signUpInBrowser(page, dashboard, lang, `Compat ${lang}`);
      await signInInBrowser(page, dashboard.base, email);
      await page.goto(`${dashboard.base}/dashboard/developers`);
      await assertLanguage(page, lang);
      assert.match(
        await page.locator('#compat-title').innerText(),
        lang === 'en' ? /ZarinPal or Zibal/ : /زرین‌پال یا زیبال/,
      );
      assert.equal(await page.locator('#compat-none').count(), 1);

      assert.equal(await makeValues(page, 'test', '86400'), 201);
      const first = await shown(page);
      assert.match(first.zarinpal, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.match(first.zibal, /^[0-9a-f]{24}$/);
      await assertAccessible(page, 'the developers page with new values');
      assert.equal((await unverified(first.zarinpal)).status, 200);
      assert.equal((await zibalInquiry(first.zibal)).body.result, 203, 'authenticated: only the trackId is unknown');

      await page.goto(`${dashboard.base}/dashboard/developers`);
      assert.equal(await page.locator('#new-compat-notice').count(), 0, 'shown once only');
      assert.equal(await page.locator('#compat-credentials tbody tr').count(), 2);
      assert.ok((await page.content()).includes(`…${first.zarinpal.slice(-4)}`));
      assert.ok(!(await page.content()).includes(first.zarinpal), 'never the whole value again');

      assert.equal(await makeValues(page, 'test', '0'), 201);
      const second = await shown(page);
      assert.equal(
        (await unverified(first.zarinpal)).status,
        401,
        'rolled with "now": the earlier value stops at once',
      );
      assert.equal((await unverified(second.zarinpal)).status, 200);

      await page.goto(`${dashboard.base}/dashboard/developers`);
      await Promise.all([page.waitForURL(/done=compat_revoked/), page.click('#compat-test-revoke-form button')]);
      assert.match(await page.locator('.notice').first().innerText(), lang === 'en' ? /revoked/ : /باطل/);
      assert.equal((await unverified(second.zarinpal)).status, 401);
      assert.equal((await zibalInquiry(second.zibal)).body.result, 102);

      assert.equal(await makeValues(page, 'live', '0'), 409, 'live values need live mode, as a live key does');
      assert.equal(await page.locator('#live-key-refused').count(), 1);
    });
  }

  it('refuses a form without its CSRF token and writes nothing', async () => {
    const { page, context } = await dashboard.phone();
    const email = await signUpInBrowser(page, dashboard, 'en', 'Compat CSRF');
    await signInInBrowser(page, dashboard.base, email);
    const response = await context.request.post(`${dashboard.base}/dashboard/developers/compat`, {
      form: { mode: 'test', expires_in: '0' },
      headers: { origin: dashboard.base },
      maxRedirects: 0,
    });
    assert.equal(response.status(), 403);
    const { db } = await getHarness();
    const rows = await db
      .selectFrom('compat_credentials')
      .innerJoin('users', 'users.merchant_id', 'compat_credentials.merchant_id')
      .select('compat_credentials.id')
      .where('users.email', '=', email)
      .execute();
    assert.equal(rows.length, 0);
  });
});
