/**
 * The dashboard's payment links page in Chromium (docs/DASHBOARD.md#payment-links): a link made
 * through the form (refused input kept and named), listed with its QR code, deactivated; a form
 * post without its CSRF token refused with nothing made; each action in the audit log.
 */
import assert from 'node:assert/strict';
import { screenshot } from '../support/browser.ts';
import {
  assertAccessible,
  assertLanguage,
  assertNoScript,
  assertStrictHeaders,
  dashboardBrowser,
  signInInBrowser,
  signUpInBrowser,
  type Lang,
} from '../support/dashboard.ts';
import { getHarness, type Harness } from '../support/harness.ts';

describe('dashboard: payment links', function () {
  this.timeout(180_000);
  let h: Harness;
  const dashboard = dashboardBrowser();
  before(async () => {
    h = await getHarness();
  });

  const linksOf = async (email: string) => {
    const user = await h.db
      .selectFrom('users')
      .select('merchant_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return h.db
      .selectFrom('payment_links')
      .selectAll()
      .where('merchant_id', '=', user.merchant_id)
      .orderBy('created_at')
      .execute();
  };

  for (const lang of ['fa', 'en'] as const satisfies Lang[]) {
    it(`(${lang}) creates a link through the form, shows it with its QR code, and deactivates it; each action audited`, async () => {
      const { page, context, dialogs, errors } = await dashboard.phone();
      const { base } = dashboard;
      const email = await signUpInBrowser(page, { base, mailbox: dashboard.mailbox }, lang, `Links ${lang}`);
      await signInInBrowser(page, base, email);
      const res = await page.goto(`${base}/dashboard/links`);
      assert.equal(res?.status(), 200);
      assertStrictHeaders(res.headers(), 'links page');
      await assertLanguage(page, lang);
      await assertNoScript(page, 'links page');
      await assertAccessible(page, `links page (${lang})`);
      assert.ok(await page.locator('#no-links').isVisible());
      assert.equal(await page.locator('nav.nav a[href="/dashboard/links"]').count(), 1, 'in the navigation');

      // Without the form's CSRF token: refused, nothing made.
      const forged = await context.request.post(`${base}/dashboard/links`, {
        form: { title: 'Forged', amount: '10000' },
        headers: { origin: base },
        maxRedirects: 0,
      });
      assert.equal(forged.status(), 403);
      assert.deepEqual(await linksOf(email), []);

      // Half a range: refused with what was typed kept.
      await page.fill('#link-title-input', 'Cake');
      await page.fill('#link-min-input', '200000');
      await page.click('#create-link');
      await page.locator('#links-error').waitFor();
      assert.equal(await page.locator('#link-title-input').inputValue(), 'Cake');
      assert.deepEqual(await linksOf(email), []);

      await page.fill('#link-max-input', lang === 'fa' ? '۲٬۰۰۰٬۰۰۰' : '2,000,000');
      await page.selectOption('#link-collect-name', 'required');
      await page.selectOption('#link-collect-mobile', 'optional');
      await page.fill('#link-max-payments-input', '3');
      await page.fill('#link-days-input', '7');
      await Promise.all([page.waitForURL(/\/dashboard\/links\?done=created$/), page.click('#create-link')]);
      await page.locator('#links-notice').waitFor();
      const [row] = await linksOf(email);
      assert.ok(row, 'the link was made');
      assert.deepEqual(
        {
          amount: row.amount,
          min: Number(row.min_amount),
          max: Number(row.max_amount),
          collect: JSON.parse(row.collect) as unknown,
          maxPayments: row.max_payments,
          mode: row.mode,
        },
        {
          amount: null,
          min: 200_000,
          max: 2_000_000,
          collect: { name: 'required', mobile: 'optional' },
          maxPayments: 3,
          mode: 'test',
        },
      );
      assert.ok(
        row.expires_at !== null && Math.abs(row.expires_at.getTime() - (Date.now() + 7 * 86_400_000)) < 60_000,
        'seven days from now',
      );
      const item = page.locator(`li[data-id="${row.id}"]`);
      assert.equal(await item.locator('.link-url').innerText(), `${base}/l/${row.slug}`);
      // The QR code is drawn: the browser loaded and decoded the SVG.
      const qr = item.locator('img.link-qr');
      await page.waitForFunction(
        `(() => { const img = document.querySelector('li[data-id="${row.id}"] img.link-qr'); return img !== null && img.complete && img.naturalWidth > 0; })()`,
      );
      assert.ok(await qr.isVisible(), 'the QR code is drawn');
      await assertAccessible(page, `links page with a link (${lang})`);
      await screenshot(page, `dashboard-links-${lang}-phone`);
      const desktop = await dashboard.desktopOf(page);
      await desktop.goto(`${base}/dashboard/links`);
      await screenshot(desktop, `dashboard-links-${lang}-desktop`);

      await Promise.all([
        page.waitForURL(/\/dashboard\/links\?done=deactivated$/),
        item.locator('button.deactivate').click(),
      ]);
      assert.equal((await linksOf(email))[0]!.active, 0);
      assert.equal(await page.locator(`li[data-id="${row.id}"] .badge-link-payment_link_inactive`).count(), 1);
      assert.equal(await page.locator(`li[data-id="${row.id}"] button.deactivate`).count(), 0);
      assert.equal((await fetch(`${base}/l/${row.slug}`)).status, 410, 'its page says it is off');

      const user = await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const audited = await h.db
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('user_id', '=', user.id)
        .where('action', 'like', 'payment_link_%')
        .orderBy('id')
        .execute();
      assert.deepEqual(
        audited.map((a) => a.action),
        ['payment_link_created', 'payment_link_deactivated'],
      );
      assert.ok(audited.every((a) => a.detail.includes(row.slug)));
      assert.deepEqual(dialogs, []);
      // The one console error is the browser's note of the deliberate 422 answer to the half range: no script, no CSP violation.
      assert.deepEqual(errors, [
        'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
      ]);
    });
  }
});
