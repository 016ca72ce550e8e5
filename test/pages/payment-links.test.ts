/**
 * A payment link paid in headless Chromium, in both languages (docs/PAGES.md#payment-links): the
 * link's page on a phone, the form filled, our payment page, the bank simulator's page, our result
 * page and on to the gateway's receipt; the payment verified by the gateway without any merchant
 * call, and payment.verified delivered to the merchant's receiver with `payment_link`.
 */
import assert from 'node:assert/strict';
import type { PaymentLink } from '../../src/domain/payment-link.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { payAtBank, screenshot } from '../support/browser.ts';
import { assertAccessible, assertLanguage, assertNoScript, dashboardBrowser, persian } from '../support/dashboard.ts';
import { getHarness, type Harness } from '../support/harness.ts';
import { waitForStatus } from '../support/payments.ts';
import { closeReceivers, forPayment, merchantWithReceiver } from '../support/webhooks.ts';

const langSuffix = (lang: 'fa' | 'en') => (lang === 'en' ? '?lang=en' : '');

describe('payment links in headless Chromium', function () {
  this.timeout(120_000);
  let h: Harness;
  // Chromium, a phone page closed after each test, and an API server of the file's own (its PUBLIC_BASE_URL is its address).
  const browser = dashboardBrowser();
  before(async () => {
    h = await getHarness();
  });
  after(closeReceivers);

  for (const lang of ['fa', 'en'] as const) {
    it(`(${lang}) the link's page → the form → our payment page → the bank → the receipt; verified by the gateway, payment.verified with payment_link`, async () => {
      const merchant = await merchantWithReceiver(['payment.verified']);
      const created = await merchant.api.post<{ payment_link: PaymentLink }>('/payment_links', {
        title: lang === 'fa' ? 'کیک شکلاتی خانگی' : 'Home-made chocolate cake',
        description: lang === 'fa' ? 'سفارش تا ساعت ۱۸ برای فردا' : 'Order by 6 pm for tomorrow',
        min_amount: 500_000,
        max_amount: 3_000_000,
        collect: { name: 'required', mobile: 'required', note: 'optional' },
      });
      assert.equal(created.status, 201, created.text);
      const link = created.body.payment_link;
      const { page, dialogs, errors } = await browser.phone();

      const response = await page.goto(`${browser.base}/l/${link.slug}${langSuffix(lang)}`);
      assert.equal(response?.status(), 200);
      const headers = response.headers();
      assert.match(headers['content-security-policy'] ?? '', /default-src 'none'/);
      assert.match(headers['content-security-policy'] ?? '', /form-action 'self'/);
      assert.doesNotMatch(headers['content-security-policy'] ?? '', /unsafe-inline|unsafe-eval/);
      assert.equal(headers['cache-control'], 'no-store');
      await assertLanguage(page, lang);
      await assertNoScript(page, 'link page');
      await assertAccessible(page, `link page (${lang})`);
      assert.equal(await page.locator('#link-title').innerText(), link.title);
      assert.ok(await page.locator('.test-banner').isVisible());
      const hint = await page.locator('#amount-hint').innerText();
      assert.ok(
        hint.includes(lang === 'fa' ? '۵۰۰٬۰۰۰' : '500,000') &&
          hint.includes(lang === 'fa' ? '۳٬۰۰۰٬۰۰۰' : '3,000,000'),
        hint,
      );
      await screenshot(page, `link-page-${lang}-phone`);
      const desktop = await page.context().newPage();
      await desktop.setViewportSize({ width: 1280, height: 900 });
      await desktop.goto(`${browser.base}/l/${link.slug}${langSuffix(lang)}`);
      await screenshot(desktop, `link-page-${lang}-desktop`);
      await desktop.close();

      // A required field left empty: the form again, what was typed kept, the problem named.
      await page.locator('#amount-input').fill(lang === 'fa' ? persian('1200000') : '1,200,000');
      await page.locator('#name-input').fill(lang === 'fa' ? 'مریم احمدی' : 'Maryam Ahmadi');
      await page.locator('#link-pay').click();
      await page.locator('#form-problems').waitFor();
      assert.equal(await page.locator('#mobile-input').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.locator('#name-input').inputValue(), lang === 'fa' ? 'مریم احمدی' : 'Maryam Ahmadi');
      await assertAccessible(page, `link page with problems (${lang})`);
      if (lang === 'fa') await screenshot(page, 'link-page-fa-problems');

      await page.locator('#mobile-input').fill('09121234567');
      await page.locator('#note-input').fill(lang === 'fa' ? 'بدون گردو' : 'No walnuts');
      await page.locator('#link-pay').click();
      await page.waitForURL((url) => /^\/pay\/[0-9a-f-]{36}$/.test(url.pathname));
      assert.equal(new URL(page.url()).search, langSuffix(lang), 'the language goes on to the payment page');
      const paymentId = new URL(page.url()).pathname.split('/')[2]!;
      const main = await page.locator('main').innerText();
      assert.ok(main.includes(lang === 'fa' ? '۱٬۲۰۰٬۰۰۰ ریال' : '1,200,000 rials'), main);

      await payAtBank(page, 'success');
      // Our result page, then on by itself to the gateway's receipt (the link payment's callback_url).
      await page.waitForURL((url) => url.pathname === `/l/${link.slug}/receipt/${paymentId}`, { timeout: 30_000 });
      await page.locator('#outcome[data-kind="success"]').waitFor({ timeout: 20_000 });
      await assertLanguage(page, lang);
      await assertAccessible(page, `receipt (${lang})`);
      const receipt = await page.locator('main').innerText();
      assert.match(receipt, lang === 'fa' ? /پرداخت شما انجام و تأیید شد/ : /Your payment is done and confirmed/);
      await screenshot(page, `link-receipt-${lang}`);

      const verified = await waitForStatus(h.baseUrl, merchant.merchant.key, paymentId, 'verified');
      assert.equal(verified.payment_link, link.id);
      assert.equal(verified.amount, 1_200_000);
      assert.deepEqual(verified.metadata, {
        link_name: lang === 'fa' ? 'مریم احمدی' : 'Maryam Ahmadi',
        link_mobile: '09121234567',
        link_note: lang === 'fa' ? 'بدون گردو' : 'No walnuts',
      });
      assert.ok(receipt.includes(lang === 'fa' ? persian(verified.tracking_code) : verified.tracking_code), receipt);
      const [delivery] = await merchant.rcv.waitForDeliveries(forPayment(paymentId, 'payment.verified'));
      assert.equal((delivery!.event.data.payment as Payment).payment_link, link.id);
      assert.equal(delivery!.verifiedWith.length, 1);
      assert.deepEqual(dialogs, []);
      // The one console error is the browser's note of the deliberate 422 answer above: no script, no CSP violation.
      assert.deepEqual(errors, [
        'Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
      ]);
    });
  }
});
