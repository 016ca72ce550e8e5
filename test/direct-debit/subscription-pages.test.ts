/**
 * The customer's subscription page and the dashboard's direct debit section in Chromium, on the real
 * stack (docs/PAGES.md#the-subscription-page, docs/DASHBOARD.md#direct-debit): the API, the suite's
 * worker running the mandate, subscription and debit workflows, MySQL and the Payman simulator. Data
 * is made through the API (mandates signed through the gateway's bank page, which records the bank);
 * the browser is used where the pages are what is tested. One Chromium for the file.
 *
 * The customer's page: both languages, the plan, amount, period end, next charge and bank; a wrong or
 * missing token (or another subscription's) is the same 404 as an unknown id; a post without the CSRF
 * token is refused and changes nothing; the cancel at the period's end through the page; customer_url
 * in the API's answers and in the stored event. The dashboard: the lists and pages in both languages,
 * the mode filter, a charge leading to its payment, a subscription canceled at the period's end and
 * then at once, a mandate canceled (its subscriptions with it), the audit entries, a post without its
 * CSRF token refused; axe on every page and screenshots at phone and desktop widths.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import type { Mandate } from '../../src/domain/mandate-schemas.ts';
import type { Plan, Subscription } from '../../src/domain/subscription-schemas.ts';
import { screenshot } from '../support/browser.ts';
import {
  assertAccessible,
  assertLanguage,
  assertNoScript,
  assertStrictHeaders,
  dashboardBrowser,
  merchantInBrowser,
  rials,
  signInInBrowser,
  type Lang,
} from '../support/dashboard.ts';
import { auditActions } from '../support/dashboard-security.ts';
import { getHarness, type Harness } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { mandateOf } from '../support/mandates.ts';
import type { Api } from '../support/webhooks.ts';

const SAMAN = 'بانک سامان';

describe('direct debit pages: the customer’s subscription page and the dashboard’s direct debit section', function () {
  this.timeout(120_000);
  let h: Harness;
  let api: Api;
  let email: string;
  let plan: Plan;
  const dashboard = dashboardBrowser();

  before(async () => {
    h = await getHarness();
    const context = await dashboard.browser.newContext();
    try {
      const page = await context.newPage();
      const made = await merchantInBrowser(page, dashboard, 'fa', 'Subscriptions shop');
      email = made.email;
      api = client(dashboard.base, made.key);
    } finally {
      await context.close();
    }
    const res = await api.post<{ plan: Plan }>(
      '/plans',
      { name: 'Monthly', amount: 500_000, interval: 'month' },
      { idempotencyKey: randomUUID() },
    );
    assert.equal(res.status, 201, res.text);
    plan = res.body.plan;
  });

  const mandate = () =>
    mandateOf(
      { db: h.db, baseUrl: dashboard.base },
      api,
      { max_amount: 1_000_000, max_daily_count: 10, max_monthly_count: 20 },
      true,
      true,
    );
  const subscribe = async (m: Mandate) => {
    const res = await api.post<{ subscription: Subscription }>(
      '/subscriptions',
      { plan_id: plan.id, mandate_id: m.id },
      { idempotencyKey: randomUUID() },
    );
    assert.equal(res.status, 201, res.text);
    return res.body.subscription;
  };
  const get = async (id: string) =>
    (await api.get<{ subscription: Subscription }>(`/subscriptions/${id}`)).body.subscription;
  const charged = (id: string) =>
    waitFor(`subscription ${id} charged`, async () => {
      const s = await get(id);
      return s.latest_payment_id !== null ? s : undefined;
    });
  const text = async (page: Page, selector: string) => (await page.locator(selector).innerText()).trim();
  /** Every page: its language, no script, axe; a screenshot at the phone's width and at a desktop's. */
  const check = async (page: Page, lang: Lang, name: string) => {
    await assertLanguage(page, lang);
    await assertNoScript(page, name);
    await assertAccessible(page, name);
    await screenshot(page, `${name}-390`);
    const desktop = await dashboard.desktopOf(page);
    await desktop.goto(page.url());
    await assertAccessible(desktop, `${name} (desktop)`);
    await screenshot(desktop, `${name}-1280`);
  };

  it('the customer’s page in Persian and English, 404 for any wrong link, CSRF enforced, cancel at the period’s end; customer_url in the API', async () => {
    const base = dashboard.base;
    const s = await subscribe(await mandate());
    const pageUrl = (id: string, token: string) => `${base}/subscriptions/${id}?t=${token}`;
    const url = new URL(s.customer_url);
    const token = url.searchParams.get('t')!;
    assert.equal(s.customer_url, pageUrl(s.id, token), 'an absolute address with its token');
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await get(s.id)).customer_url, s.customer_url);
    const listed = await api.get<{ data: Subscription[] }>('/subscriptions');
    assert.equal(listed.body.data.find((x) => x.id === s.id)?.customer_url, s.customer_url);
    const created = await h.db
      .selectFrom('events')
      .select('body')
      .where('object_id', '=', s.id)
      .where('type', '=', 'subscription.created')
      .executeTakeFirstOrThrow();
    assert.equal(
      (JSON.parse(created.body) as { data: { subscription: Subscription } }).data.subscription.customer_url,
      s.customer_url,
      'the webhook event carries it too',
    );
    await charged(s.id);

    const { page, errors, dialogs } = await dashboard.phone();
    const answer = await page.goto(s.customer_url);
    assert.equal(answer?.status(), 200);
    assertStrictHeaders(answer.headers(), 'the subscription page');
    assert.equal(await text(page, '#subscription-title'), 'Monthly');
    assert.equal(await text(page, '#subscription-status'), 'فعال');
    assert.equal(await text(page, '#bank'), SAMAN);
    assert.ok((await text(page, '#next-charge')).includes(rials(500_000, 'fa')));
    assert.ok((await text(page, '#amount')).includes(rials(500_000, 'fa')));
    assert.ok((await text(page, '#amount')).includes('ماهانه'));
    await check(page, 'fa', 'subscription-page-fa');

    await page.goto(`${s.customer_url}&lang=en`);
    assert.equal(await text(page, '#subscription-status'), 'Active');
    assert.equal(await text(page, '#bank'), SAMAN);
    assert.ok((await text(page, '#amount')).includes('Monthly'));
    assert.ok((await text(page, '#next-charge')).includes(rials(500_000, 'en')));
    assert.ok((await text(page, '#period-end')).length > 0);
    await check(page, 'en', 'subscription-page-en');

    // Any link that is not this subscription's answers the same 404 as an unknown subscription.
    const other = await subscribe(await mandate());
    const otherToken = new URL(other.customer_url).searchParams.get('t')!;
    const unknown = await fetch(pageUrl(randomUUID(), token));
    assert.equal(unknown.status, 404);
    const notFound = (await unknown.text()).replace(/\/subscriptions\/[^"?]+/g, '');
    for (const wrong of [
      pageUrl(s.id, 'A'.repeat(43)),
      pageUrl(s.id, otherToken),
      `${base}/subscriptions/${s.id}`,
      pageUrl(s.id, `${token}x`),
    ]) {
      const res = await fetch(wrong);
      assert.equal(res.status, 404, wrong);
      assert.equal((await res.text()).replace(/\/subscriptions\/[^"?]+/g, ''), notFound, 'nothing tells them apart');
    }

    // A post without the CSRF token (as another site would send it) is refused and changes nothing.
    const forged = await fetch(`${base}/subscriptions/${s.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({ t: token, action: 'cancel_at_period_end' }).toString(),
      redirect: 'manual',
    });
    assert.equal(forged.status, 403);
    assert.equal((await get(s.id)).cancel_at_period_end, false);

    // The customer cancels on the page (English): at the period's end, through the subscription's workflow.
    await Promise.all([page.waitForURL(/done=1/), page.locator('#cancel-submit').click()]);
    assert.equal(new URL(page.url()).searchParams.get('lang'), 'en');
    assert.equal(await page.locator('#cancel-recorded').count(), 1);
    assert.equal(await page.getAttribute('#subscription-notice', 'data-why'), 'ending');
    assert.equal(await page.locator('#cancel-form').count(), 0, 'nothing more to cancel');
    const after = await get(s.id);
    assert.equal(after.status, 'active');
    assert.equal(after.cancel_at_period_end, true);
    await screenshot(page, 'subscription-page-en-ending-390');
    assert.deepEqual(errors, []);
    assert.deepEqual(dialogs, []);
  });

  it('the dashboard: lists and pages in both languages, cancel at the period’s end and at once, a mandate’s cancel, audited', async () => {
    const base = dashboard.base;
    const m = await mandate();
    const [first, second] = [await subscribe(m), await subscribe(m)];
    const [charged1] = await Promise.all([charged(first.id), charged(second.id)]);
    const { page, errors } = await dashboard.phone();
    await signInInBrowser(page, base, email);

    await page.goto(`${base}/dashboard/subscriptions`);
    for (const id of [first.id, second.id])
      assert.equal(await page.locator(`#subscriptions tr[data-id="${id}"]`).count(), 1);
    assert.equal(await page.getAttribute('#tab-subscriptions', 'aria-current'), 'page');
    await check(page, 'fa', 'dashboard-subscriptions-fa');
    await page.goto(`${base}/dashboard/subscriptions?mode=live`);
    assert.equal(await page.locator('#no-subscriptions').count(), 1, 'a test subscription is not in live mode');
    await page.goto(`${base}/dashboard/mandates`);
    const row = page.locator(`#mandates tr[data-id="${m.id}"]`);
    assert.ok((await row.innerText()).includes(SAMAN));
    await check(page, 'fa', 'dashboard-mandates-fa');

    // A subscription's page, in English: its plan, periods, its charge leading to its payment.
    await page.goto(`${base}/dashboard/subscriptions/${first.id}?lang=en`);
    assert.equal(await text(page, '#subscription-plan'), 'Monthly');
    assert.equal(await text(page, '#subscription-interval'), 'Monthly');
    assert.equal(await text(page, '#subscription-status'), 'Active');
    assert.equal(await text(page, '#subscription-mandate'), SAMAN);
    assert.equal(await page.getAttribute('#customer-url', 'href'), first.customer_url);
    const charge = page.locator(`#charges tr[data-payment="${charged1.latest_payment_id}"] a.charge-payment`);
    assert.equal(await charge.getAttribute('href'), `/dashboard/payments/${charged1.latest_payment_id}`);
    await check(page, 'en', 'dashboard-subscription-en');
    await Promise.all([page.waitForURL(/\/dashboard\/payments\//), charge.click()]);
    assert.equal(await page.locator('main h1').count(), 1);
    await page.goBack();

    // A post without its CSRF token is refused and changes nothing.
    const cookies = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const forged = await fetch(`${base}/dashboard/subscriptions/${first.id}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookies, origin: base },
      body: 'when=now',
      redirect: 'manual',
    });
    assert.equal(forged.status, 403);
    assert.equal((await get(first.id)).status, 'active');

    // At the period's end, then at once.
    await Promise.all([page.waitForURL(/done=ending/), page.locator('#cancel-at-period-end').click()]);
    assert.equal(await text(page, '#status'), 'Ends at period end');
    assert.equal((await get(first.id)).cancel_at_period_end, true);
    assert.equal(await page.locator('#cancel-at-period-end').count(), 0);
    await Promise.all([page.waitForURL(/done=canceled/), page.locator('#cancel-now').click()]);
    assert.equal(await text(page, '#status'), 'Canceled');
    const canceled = await get(first.id);
    assert.equal(canceled.status, 'canceled');
    assert.equal(canceled.cancel_reason, 'requested');
    await screenshot(page, 'dashboard-subscription-en-canceled-390');

    // The mandate's page (the language kept by the cookie): limits, today's use, its subscriptions; then its cancel.
    await page.goto(`${base}/dashboard/mandates/${m.id}`);
    assert.equal(await text(page, '#mandate-bank'), SAMAN);
    assert.equal(await text(page, '#mandate-status'), 'Active');
    assert.equal(await text(page, '#mandate-daily'), '2 of 10');
    assert.equal(await text(page, '#mandate-max-amount'), rials(1_000_000, 'en'));
    for (const id of [first.id, second.id])
      assert.equal(await page.locator(`#mandate-subscriptions tr[data-id="${id}"]`).count(), 1);
    assert.ok((await page.locator('#events li').count()) >= 1);
    await check(page, 'en', 'dashboard-mandate-en');
    await Promise.all([page.waitForURL(/done=canceled/), page.locator('#cancel-mandate').click()]);
    assert.equal(await text(page, '#mandate-status'), 'Canceled');
    assert.equal(await page.locator('#cancel-mandate').count(), 0);
    const ended = await get(second.id);
    assert.equal(ended.status, 'canceled');
    assert.equal(ended.cancel_reason, 'mandate_canceled');
    await page.goto(`${base}/dashboard/mandates/${m.id}?lang=fa`);
    assert.equal(await text(page, '#mandate-status'), 'لغوشده');
    await check(page, 'fa', 'dashboard-mandate-fa-canceled');

    // Each cancel is in the audit log.
    await page.goto(`${base}/dashboard/security`);
    const actions = await auditActions(page);
    assert.equal(actions.filter((a) => a === 'subscription_canceled').length, 2);
    assert.equal(actions.filter((a) => a === 'mandate_canceled').length, 1);
    assert.deepEqual(errors, []);
  });
});
