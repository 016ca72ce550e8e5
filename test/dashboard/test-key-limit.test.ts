/**
 * Test keys are free to make, so a merchant holds at most TEST_KEYS_PER_MERCHANT
 * working ones: the dashboard refuses one more (409, its reason in the user's
 * language) and stores nothing; a revoked key gives its place back.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { getHarness } from '../support/harness.ts';
import { dashboardBrowser, signInInBrowser, signUpInBrowser } from '../support/dashboard.ts';

const LIMIT = 3;

describe('dashboard: test keys capped per merchant', function () {
  this.timeout(180_000);
  const dashboard = dashboardBrowser({ TEST_KEYS_PER_MERCHANT: String(LIMIT) });

  async function workingTestKeys(email: string): Promise<number> {
    const { db } = await getHarness();
    const row = await db
      .selectFrom('api_keys')
      .innerJoin('users', 'users.merchant_id', 'api_keys.merchant_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('users.email', '=', email)
      .where('api_keys.mode', '=', 'test')
      .where('api_keys.revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function createKey(page: Page): Promise<number> {
    await page.goto(`${dashboard.base}/dashboard/developers`);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/dashboard/developers/keys') && r.request().method() === 'POST'),
      page.click('#create-key-form button'),
    ]);
    return response.status();
  }

  for (const lang of ['en', 'fa'] as const) {
    it(`(${lang}) refuses a test key beyond the cap, writes none, and takes one again after a revocation`, async () => {
      const { page } = await dashboard.phone();
      const email = await signUpInBrowser(page, dashboard, lang, `Key cap ${lang}`);
      await signInInBrowser(page, dashboard.base, email);
      while ((await workingTestKeys(email)) < LIMIT) assert.equal(await createKey(page), 201);
      assert.equal(await workingTestKeys(email), LIMIT);

      assert.equal(await createKey(page), 409, 'one more is refused');
      assert.match(
        await page.locator('#form-error').innerText(),
        lang === 'en' ? /as many working test keys/ : /سقف تعداد کلیدهای آزمایشی/,
      );
      assert.equal(await page.locator('#new-key').count(), 0, 'no key shown');
      assert.equal(await workingTestKeys(email), LIMIT, 'none stored');

      await page.goto(`${dashboard.base}/dashboard/developers`);
      await Promise.all([
        page.waitForURL(/done=revoked/),
        page.locator('#keys tbody tr form[action$="/revoke"] button').first().click(),
      ]);
      assert.equal(await workingTestKeys(email), LIMIT - 1);
      assert.equal(await createKey(page), 201, 'a revoked key gives its place back');
      assert.equal(await workingTestKeys(email), LIMIT);
    });
  }
});
