/**
 * The developers page shows the merchant's PSP route of each mode, read-only (docs/psps/routing.md):
 * the default one (every configured PSP) until the operator sets one, then the operator's, with its
 * priorities, weights and amount ranges, in the user's language.
 */
import assert from 'node:assert/strict';
import { PSP_NAMES, pspSettingName } from '../../src/psps/profiles.ts';
import { replaceMerchantRoute } from '../../src/db/psp-routes.ts';
import { getHarness } from '../support/harness.ts';
import { assertAccessible, dashboardBrowser, persian, signInInBrowser, signUpInBrowser } from '../support/dashboard.ts';

describe('dashboard: the PSP route on the developers page', function () {
  this.timeout(180_000);
  const dashboard = dashboardBrowser();

  for (const lang of ['en', 'fa'] as const) {
    it(`(${lang}) shows the default route, then the one the operator set, and offers no way to change it`, async () => {
      const { db, config } = await getHarness();
      const { page } = await dashboard.phone();
      const email = await signUpInBrowser(page, dashboard, lang, `PSP route ${lang}`);
      await signInInBrowser(page, dashboard.base, email);
      await page.goto(`${dashboard.base}/dashboard/developers`);
      const rows = (mode: string) => page.locator(`#psp-route-${mode} tbody tr`).allInnerTexts();
      // Test mode's default: every simulator the suite runs, one per PSP of the registry, in its order.
      const digit = (n: string) => (lang === 'fa' ? persian(n) : n);
      assert.deepEqual(
        (await rows('test')).map((r) => r.split('\t').slice(0, 3)),
        PSP_NAMES.map((psp, i) => [digit(String(i + 1)), psp, config[pspSettingName(psp, 'test', 'TERMINAL_ID')]]),
      );
      assert.match(
        await page.locator('#psp-routes').innerText(),
        lang === 'en' ? /default \(every configured PSP\)/ : /پیش‌فرض/,
      );

      const { merchant_id } = await db
        .selectFrom('users')
        .select('merchant_id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      await replaceMerchantRoute(
        db,
        merchant_id,
        'test',
        [
          {
            position: 0,
            priority: 0,
            psp: 'sep',
            terminal_id: config.SANDBOX_SEP_TERMINAL_ID,
            weight: 3,
            min_amount: 1_000,
            max_amount: 5_000_000,
          },
        ],
        new Date(),
      );
      await page.goto(`${dashboard.base}/dashboard/developers`);
      const [row] = await rows('test');
      assert.match(row ?? '', lang === 'en' ? /sep\s+11223344\s+3\s+1,000 rials – 5,000,000 rials/ : /sep/);
      assert.match(await page.locator('#psp-routes').innerText(), lang === 'en' ? /set for you/ : /تعیین‌شده برای شما/);
      assert.equal(await page.locator('#psp-routes form').count(), 0, 'read-only');
      await assertAccessible(page, 'the developers page with its PSP route');
    });
  }
});
