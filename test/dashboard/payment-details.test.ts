/**
 * A payment's page and the payments list in Chromium (docs/DASHBOARD.md#a-payments-page): who pays
 * the fee, what the customer was charged against the amount and the fee, the merchant's own share
 * once verified, the allowed cards and the national code (masked, never the full numbers), and the
 * payment's splits, each beneficiary's share, the PSP and terminal that took the payment and the payment
 * link it came from (linked to that link on the links page); both languages, phone and desktop, axe, no script.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { PSP_PROFILES } from '../../src/psps/profiles.ts';
import { screenshot } from '../support/browser.ts';
import {
  assertAccessible,
  assertLanguage,
  assertNoScript,
  assertStrictHeaders,
  dashboardBrowser,
  merchantInBrowser,
  persian,
  rials,
  type Lang,
} from '../support/dashboard.ts';
import { getHarness, type Harness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { createdLink, openLink, postLink, startedPaymentId } from '../support/payment-links.ts';
import { paidPayment, paymentRequest } from '../support/payments.ts';
import { approvedBeneficiary } from '../support/settlement.ts';

/** Luhn-valid cards and a national code whose check digit holds (as in test/payments/card-restriction.test.ts). */
const CARD_X = '5022291234567897';
const CARD_Y = '6274121234567899';
const NATIONAL_CODE = '0499370899';

/** How the page names each PSP (src/dashboard/i18n-payments.ts). */

describe('dashboard: a payment’s fee payer, charged amount, allowed cards, splits, PSP and payment link', function () {
  this.timeout(180_000);
  let h: Harness;
  const dashboard = dashboardBrowser();
  before(async () => {
    h = await getHarness();
  });

  const text = async (page: Page, selector: string) => (await page.locator(selector).innerText()).trim();
  const noWiderThanTheScreen = async (page: Page, what: string) =>
    assert.ok(
      (await page.evaluate<number>('document.documentElement.scrollWidth')) <= 390,
      `${what}: no wider than the phone`,
    );

  for (const lang of ['fa', 'en'] as const satisfies Lang[]) {
    it(`(${lang}) shows the fee payer and charged amount in the list and on the page, the masked cards and national code, each beneficiary's share, the PSP and terminal, and the payment link it came from`, async () => {
      const { page, errors, dialogs } = await dashboard.phone();
      const { base } = dashboard;
      const { email, key } = await merchantInBrowser(
        page,
        { base, mailbox: dashboard.mailbox },
        lang,
        `Fees shop ${lang}`,
      );
      const api = client(base, key);

      // A beneficiary registered as a live key does (a test key may not register one) and approved by the operator.
      const { merchant_id: merchantId } = await h.db
        .selectFrom('users')
        .select('merchant_id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const beneficiary = await approvedBeneficiary(h.db, merchantId, 'Agency Tehran');
      const { iban } = beneficiary;

      // Customer pays the fee, split 300,000 to the beneficiary; paid at the bank simulator and verified.
      // The default plan's fee on 1,000,000 is 10,000: charged 1,010,000, the merchant keeps 1,000,000 − 300,000.
      const split = await paidPayment(base, key, {
        amount: 1_000_000,
        fee_payer: 'customer',
        splits: [{ iban, amount: 300_000, description: 'commission' }],
      });
      const verified = await api.post<{ payment: Payment }>(`/payments/${split.id}/verify`, { amount: 1_000_000 });
      assert.equal(verified.status, 200, verified.text);
      assert.deepEqual([verified.body.payment.fee, verified.body.payment.charged_amount], [10_000, 1_010_000]);
      const psp = verified.body.payment.psp;
      assert.ok(psp !== null, 'a paid payment names the PSP terminal that took it');

      // The merchant pays the fee on a payment only these cards may pay, for this holder; not paid yet.
      const restrictedCreate = await api.post<{ payment: Payment }>(
        '/payments',
        paymentRequest({ amount: 250_000, allowed_cards: [CARD_X, CARD_Y], national_code: NATIONAL_CODE }),
      );
      assert.equal(restrictedCreate.status, 201, restrictedCreate.text);
      const restricted = restrictedCreate.body.payment;

      // The list: who pays the fee and what the customer is charged, on each row.
      const list = await page.goto(`${base}/dashboard/payments`);
      assert.equal(list?.status(), 200);
      const splitRow = page.locator(`#payments tr[data-id="${split.id}"]`);
      const restrictedRow = page.locator(`#payments tr[data-id="${restricted.id}"]`);
      assert.equal(await splitRow.locator('.fee-payer').innerText(), lang === 'en' ? 'The customer' : 'مشتری');
      assert.equal(await splitRow.locator('.charged').innerText(), rials(1_010_000, lang));
      assert.equal(
        await restrictedRow.locator('.fee-payer').innerText(),
        lang === 'en' ? 'You (the merchant)' : 'شما (پذیرنده)',
      );
      assert.equal(await restrictedRow.locator('.charged').innerText(), rials(250_000, lang));
      await assertAccessible(page, `payments list (${lang})`);
      await noWiderThanTheScreen(page, 'payments list');
      await screenshot(page, `dashboard-payment-details-${lang}-390-list`);

      // The split payment's page: amount, fee payer, charged, the fee fixed at create, the merchant's share, the splits.
      const res = await page.goto(`${base}/dashboard/payments/${split.id}`);
      assert.equal(res?.status(), 200);
      assertStrictHeaders(res.headers(), 'payment page');
      await assertLanguage(page, lang);
      await assertNoScript(page, 'payment page');
      assert.equal(await text(page, '#amount'), rials(1_000_000, lang));
      assert.equal(await text(page, '#fee-payer'), lang === 'en' ? 'The customer' : 'مشتری');
      assert.equal(await text(page, '#charged-amount'), rials(1_010_000, lang));
      assert.equal(await text(page, '#fee'), rials(10_000, lang));
      assert.equal(await text(page, '#merchant-receives'), rials(700_000, lang));
      assert.equal(await page.locator('#allowed-cards').count(), 0, 'any card may pay it');
      const share = page.locator(`#splits tr[data-beneficiary="${beneficiary.id}"]`);
      assert.equal(await share.locator('.split-share').innerText(), rials(300_000, lang));
      const shareText = await share.innerText();
      assert.ok(shareText.includes('Agency Tehran'), shareText);
      assert.ok(shareText.includes('commission'), shareText);
      assert.equal((await share.locator('bdi').innerText()).replace(/\s/g, ''), iban);
      assert.ok(shareText.includes(lang === 'en' ? 'Awaiting settlement' : 'در انتظار تسویه'), shareText);
      assert.equal(await text(page, '#splits-total'), rials(300_000, lang));
      // The PSP and terminal that took it; it came from no payment link.
      assert.equal(
        await text(page, '#psp'),
        lang === 'fa' ? PSP_PROFILES[psp.name].persianTitle : PSP_PROFILES[psp.name].title,
      );
      assert.equal(await text(page, '#psp-terminal'), lang === 'fa' ? persian(psp.terminal_id) : psp.terminal_id);
      assert.equal(await page.locator('#payment-link').count(), 0, 'not from a payment link');
      await assertAccessible(page, `split payment page (${lang})`);
      await noWiderThanTheScreen(page, 'split payment page');
      await screenshot(page, `dashboard-payment-details-${lang}-390-split`);
      const desktop = await dashboard.desktopOf(page);
      await desktop.goto(`${base}/dashboard/payments/${split.id}`);
      await assertAccessible(desktop, `split payment page, desktop (${lang})`);
      await screenshot(desktop, `dashboard-payment-details-${lang}-1280-split`);

      // The restricted payment's page: the cards masked as recorded, the national code masked; never the full numbers.
      await page.goto(`${base}/dashboard/payments/${restricted.id}`);
      assert.equal(await text(page, '#fee-payer'), lang === 'en' ? 'You (the merchant)' : 'شما (پذیرنده)');
      assert.equal(await text(page, '#charged-amount'), rials(250_000, lang));
      assert.equal(await text(page, '#fee'), rials(0, lang), 'the merchant-pays fee is 0 until verify');
      assert.equal(await page.locator('#merchant-receives').count(), 0, 'not verified: no share yet');
      assert.equal(await text(page, '#allowed-cards'), '502229******7897, 627412******7899');
      assert.equal(await text(page, '#national-code'), restricted.national_code);
      assert.match(restricted.national_code ?? '', /^049\*+99$/);
      assert.equal(await page.locator('#splits').count(), 0, 'no splits: no section');
      // Not sent to a bank yet: no PSP recorded, and the page says why rather than leave the row out.
      assert.equal(
        await text(page, '#psp'),
        lang === 'en'
          ? 'Not recorded: not sent to a bank yet, or made before PSP routing'
          : 'ثبت نشده: هنوز به بانک فرستاده نشده، یا پیش از مسیریابی PSPها ساخته شده است',
      );
      assert.equal(await page.locator('#psp-terminal').count(), 0);
      const html = await page.content();
      for (const secret of [CARD_X, CARD_Y, NATIONAL_CODE])
        assert.ok(!html.includes(secret), `the page holds ${secret.slice(0, 6)}…`);
      assert.ok(
        (await page.locator('main').innerText()).includes(
          lang === 'fa' ? persian(restricted.tracking_code) : restricted.tracking_code,
        ),
      );
      await assertAccessible(page, `restricted payment page (${lang})`);
      await noWiderThanTheScreen(page, 'restricted payment page');
      await screenshot(page, `dashboard-payment-details-${lang}-390-restricted`);
      await desktop.goto(`${base}/dashboard/payments/${restricted.id}`);
      await screenshot(desktop, `dashboard-payment-details-${lang}-1280-restricted`);
      await desktop.goto(`${base}/dashboard/payments`);
      await assertAccessible(desktop, `payments list, desktop (${lang})`);
      const hidden = await desktop.evaluate<number>(
        "(() => { const wrap = document.querySelector('.table-wrap'); return wrap.scrollWidth - wrap.clientWidth; })()",
      );
      assert.ok(hidden <= 0, `the list's columns fit a desktop screen (${hidden} px scrolled out of sight)`);
      await screenshot(desktop, `dashboard-payment-details-${lang}-1280-list`);

      // A payment a customer started on a payment link: its page names the link, linked to it on the links page.
      const link = await createdLink(api, { title: `Notebook ${lang}`, amount: 500_000 });
      const opened = await openLink(base, link.slug, lang);
      const linkPaymentId = startedPaymentId(await postLink(base, link.slug, opened.session, {}));
      await page.goto(`${base}/dashboard/payments/${linkPaymentId}`);
      const linkAnchor = page.locator('#payment-link a');
      assert.equal((await linkAnchor.innerText()).trim(), `Notebook ${lang}`);
      assert.equal(await linkAnchor.getAttribute('href'), `/dashboard/links#link-${link.id}`);
      await assertAccessible(page, `link payment page (${lang})`);
      await noWiderThanTheScreen(page, 'link payment page');
      await screenshot(page, `dashboard-payment-details-${lang}-390-link`);
      await desktop.goto(`${base}/dashboard/payments/${linkPaymentId}`);
      await assertAccessible(desktop, `link payment page, desktop (${lang})`);
      await screenshot(desktop, `dashboard-payment-details-${lang}-1280-link`);
      await linkAnchor.click();
      await page.waitForURL(`${base}/dashboard/links#link-${link.id}`);
      assert.equal(
        await page.locator(`#link-${link.id}`).getAttribute('data-slug'),
        link.slug,
        'the link is on the links page',
      );

      assert.deepEqual(dialogs, [], 'no script ran');
      assert.deepEqual(errors, [], 'no console error (no CSP violation)');
    });
  }
});
