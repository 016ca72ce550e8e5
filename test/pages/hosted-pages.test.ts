import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { apiWith, getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { client, request } from '../support/http.ts';
import { chooseOutcome, createdPayment, waitForStatus, type CreateResponse } from '../support/payments.ts';
import { launchChromium, payAtBank, phonePage, screenshot, type PhonePage } from '../support/browser.ts';
import { startMerchantShop, type MerchantShop } from '../support/merchant-server.ts';
import { paymentWorkflowId } from '../../src/domain/payment-workflow.ts';
import { rowFromNewPayment } from '../../src/db/payments.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { BankOutcome } from '../../src/domain/payment.ts';

type Lang = 'fa' | 'en';
const PERSIAN_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
const persian = (digits: string) => digits.replace(/[0-9]/g, (d) => PERSIAN_DIGITS[Number(d)]!);
const langSuffix = (lang: Lang) => (lang === 'en' ? '?lang=en' : '');

/** The bank callbacks a payment's workflow accepted: the customer's returns from the bank that reached it. */
async function signalsOf(h: Harness, paymentId: string): Promise<number> {
  const history = await h.temporal.client.workflow.getHandle(paymentWorkflowId(paymentId)).fetchHistory();
  return (history.events ?? []).filter(
    (e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'bankCallback',
  ).length;
}

async function assertLanguage(page: Page, lang: Lang): Promise<void> {
  assert.equal(await page.getAttribute('html', 'lang'), lang);
  assert.equal(await page.getAttribute('html', 'dir'), lang === 'fa' ? 'rtl' : 'ltr');
  // The browser lays the page out in that direction, not just the attribute.
  assert.equal(await page.evaluate<string>('getComputedStyle(document.body).direction'), lang === 'fa' ? 'rtl' : 'ltr');
}

function assertSecurityHeaders(headers: { get(name: string): string | null }, what: string): void {
  const csp = headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'none'/, `${what}: CSP forbids framing`);
  assert.match(csp, /default-src 'none'/, `${what}: CSP allows nothing by default`);
  assert.match(csp, /form-action 'self'/, `${what}: CSP forms post only to us`);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/, `${what}: CSP has no wildcards or inline allowances`);
  assert.equal(headers.get('x-content-type-options'), 'nosniff', what);
  assert.equal(headers.get('referrer-policy'), 'same-origin', what);
}

describe('hosted payment pages in headless Chromium', function () {
  this.timeout(120_000);
  let h: Harness;
  let browser: Browser;
  let key: string;
  let merchantId: string;
  let shop: MerchantShop;
  const open: PhonePage[] = [];

  before(async () => {
    h = await getHarness();
    browser = await launchChromium();
    ({ key, merchantId } = await newMerchant());
    shop = await startMerchantShop(h.baseUrl, key);
  });
  after(async () => {
    await browser?.close();
    await shop?.close();
  });
  afterEach(async () => {
    for (const p of open.splice(0)) await p.context.close();
  });

  const phone = async () => {
    const p = await phonePage(browser);
    open.push(p);
    return p;
  };

  /** A payment whose return goes to the shop, which will verify it with its amount. */
  async function shopPayment(overrides: Record<string, unknown> = {}, baseUrl = h.baseUrl): Promise<CreateResponse> {
    const res = await request<CreateResponse>(baseUrl, 'POST', '/api/v1/payments', {
      key,
      body: {
        amount: 1_500_000,
        callback_url: shop.callbackUrl,
        merchant_reference: `order-${randomUUID()}`,
        description: 'دو دفتر و یک خودکار',
        ...overrides,
      },
    });
    assert.equal(res.status, 201, res.text);
    shop.expect(res.body.payment.merchant_reference, res.body.payment.amount);
    return res.body;
  }

  let slowBank: Promise<string> | undefined;
  const delayedBank = () => (slowBank ??= apiWith({ BANK_RECONFIRM_AFTER_SECONDS: '15' }));

  /** The hosted page's address on the test server (payment_url names PUBLIC_BASE_URL, which tests do not listen on). */
  const pageUrl = (created: CreateResponse, lang: Lang, baseUrl = h.baseUrl) =>
    `${baseUrl}${new URL(created.payment_url).pathname}${langSuffix(lang)}`;

  const expected: Record<
    BankOutcome,
    { kind: string; returnStatus: string; verifyStatus: number; verifyCode?: string }
  > = {
    success: { kind: 'success', returnStatus: 'success', verifyStatus: 200 },
    failure: { kind: 'failed', returnStatus: 'failed', verifyStatus: 409, verifyCode: 'payment_not_paid' },
    cancel: { kind: 'canceled', returnStatus: 'failed', verifyStatus: 409, verifyCode: 'payment_not_paid' },
    delay: { kind: 'pending', returnStatus: 'pending', verifyStatus: 409, verifyCode: 'payment_pending' },
  };

  for (const lang of ['fa', 'en'] as const) {
    for (const outcome of ['success', 'failure', 'cancel', 'delay'] as const) {
      it(`${outcome} (${lang}): payment page → the bank simulator's page → our return → result page → the shop's return address, then the shop verifies`, async () => {
        const want = expected[outcome];
        // "Delay": the bank confirms after a while; long enough that the customer sees "pending" and the shop's first verify is early.
        const created = outcome === 'delay' ? await shopPayment({}, await delayedBank()) : await shopPayment();
        const { payment } = created;
        const { page, dialogs, errors } = await phone();

        const response = await page.goto(pageUrl(created, lang));
        assert.equal(response?.status(), 200);
        assertSecurityHeaders({ get: (n) => response?.headers()[n] ?? null }, 'payment page');
        await assertLanguage(page, lang);
        const main = await page.locator('main').innerText();
        assert.ok(main.includes(lang === 'fa' ? '۱٬۵۰۰٬۰۰۰ ریال' : '1,500,000 rials'), main);
        assert.ok(main.includes(lang === 'fa' ? '۱۵۰٬۰۰۰ تومان' : '150,000 toman'), main);
        assert.ok(main.includes('دو دفتر و یک خودکار'), main);
        assert.ok(main.includes(lang === 'fa' ? persian(payment.tracking_code) : payment.tracking_code), main);
        assert.match(await page.locator('main h1').innerText(), /Test merchant \d+/);
        assert.ok(await page.locator('.test-banner').isVisible(), 'test mode shows its banner');
        assert.equal(await page.locator('form button').count(), 1, 'one Pay button: the outcome is chosen at the bank');
        if (outcome === 'success') {
          await screenshot(page, `payment-page-${lang}`);
          await screenshot(page, `bank-form-${lang}`, '.bank');
        }

        // The bank simulator's own page, in the customer's language, with the amount and four outcomes.
        await page.locator('#pay').click();
        await page.waitForURL((url) => url.pathname === '/OnlinePG/SendToken');
        assert.notEqual(
          new URL(page.url()).origin,
          new URL(h.baseUrl).origin,
          "the bank's page is the bank's, not ours",
        );
        await assertLanguage(page, lang);
        assert.ok((await page.locator('#amount').innerText()).includes(lang === 'fa' ? '۱٬۵۰۰٬۰۰۰' : '1,500,000'));
        const buttons = await Promise.all(
          (await page.locator('form button[name="outcome"]').all()).map((b) => b.getAttribute('value')),
        );
        assert.deepEqual(buttons, ['success', 'failure', 'cancel', 'delay']);
        if (outcome === 'success') await screenshot(page, `bank-page-${lang}`);
        await page.locator(`button[value="${outcome}"]`).click();
        // The bank sends the customer back with a form post (no script), by a visible button.
        await assertLanguage(page, lang);
        await page.locator('#back').click();
        await page.waitForURL((url) => url.pathname === `/pay/${payment.id}/result`);
        assert.equal(new URL(page.url()).search, langSuffix(lang), 'the language survives the post and the redirect');
        // Right after the post the result may still say "processing"; it refreshes itself into the answer.
        await page.locator(`#outcome[data-kind="${want.kind}"]`).waitFor({ timeout: 20_000 });
        await assertLanguage(page, lang);
        const result = await page.locator('main').innerText();
        assert.ok(result.includes(lang === 'fa' ? persian(payment.tracking_code) : payment.tracking_code), result);
        if (outcome === 'delay') assert.match(result, lang === 'fa' ? /تأخیر/ : /delayed/);
        const returnHref = await page.locator('#return').getAttribute('href');
        assert.ok(returnHref?.startsWith(`${shop.origin}/return?cart=7&`), String(returnHref));
        if (outcome === 'success') await screenshot(page, `result-page-${lang}`);

        // The page sends the customer on by itself, with the four return parameters on the shop's own query.
        await page.waitForURL((url) => url.origin === shop.origin, { timeout: 30_000 });
        const back = await shop.returnFor(payment.id);
        assert.deepEqual(back.query, {
          cart: '7',
          payment_id: payment.id,
          status: want.returnStatus,
          merchant_reference: payment.merchant_reference,
          tracking_code: payment.tracking_code,
        });
        assert.equal(back.verify.status, want.verifyStatus, JSON.stringify(back.verify.body));
        if (want.verifyCode !== undefined) assert.equal(back.verify.body.code, want.verifyCode);
        else assert.equal((back.verify.body.payment as Payment).status, 'verified');

        if (outcome === 'delay') {
          // The bank confirms a little later; then the shop's verify succeeds.
          await waitForStatus(h.baseUrl, key, payment.id, 'paid', 60_000);
          const verified = await client(h.baseUrl, key).post<{ payment: Payment }>(`/payments/${payment.id}/verify`, {
            amount: payment.amount,
          });
          assert.equal(verified.status, 200, verified.text);
        }
        assert.equal(await signalsOf(h, payment.id), 1);
        assert.deepEqual(dialogs, []);
        assert.deepEqual(errors, []);
      });
    }
  }

  it('a paid payment cannot be paid again: a second tab is told the truth, and the page offers no bank', async () => {
    const created = await shopPayment();
    const { payment } = created;
    const first = await phone();
    const second = await first.context.newPage();
    await first.page.goto(pageUrl(created, 'fa'));
    await second.goto(pageUrl(created, 'fa'));
    await payAtBank(first.page, 'success');
    await waitForStatus(h.baseUrl, key, payment.id, 'paid');

    await second.locator('#pay').click();
    await second.locator('#outcome[data-kind="success"]').waitFor();
    assert.equal((await waitForStatus(h.baseUrl, key, payment.id, 'paid')).status, 'paid');
    assert.equal(await signalsOf(h, payment.id), 1, 'the second choice never reached the workflow');

    const again = await phone();
    await again.page.goto(pageUrl(created, 'en'));
    await again.page.locator('#outcome[data-kind="success"]').waitFor();
    assert.match(await again.page.locator('#outcome').innerText(), /already been paid/);
    assert.equal(await again.page.locator('form, button').count(), 0, 'no way to pay again');
    assert.equal(await again.page.locator('#return').count(), 1, 'a way back to the merchant');
    const replay = await chooseOutcome(h.baseUrl, payment.id, 'failure');
    assert.equal(replay.status, 403, 'no token is handed out for a paid payment');
    assert.equal(await signalsOf(h, payment.id), 1);
  });

  it('a merchant description and reference with markup render as text and run nothing', async () => {
    const hostile = `<script>alert("script")</script>"><img src=x onerror=alert("img")> & 'quotes'`;
    const hostileReference = `"><svg onload=alert(1)>`;
    const created = await shopPayment({ description: hostile, merchant_reference: hostileReference });
    const shown = async (page: Page) => {
      assert.equal(await page.locator('#description bdi').textContent(), hostile);
      assert.equal(await page.locator('#reference bdi').textContent(), hostileReference);
      assert.equal(await page.locator('main script, main img, main svg').count(), 0);
    };
    // Persian: the payment page, then the result page after a failure.
    const fa = await phone();
    await fa.page.goto(pageUrl(created, 'fa'));
    await shown(fa.page);
    await payAtBank(fa.page, 'failure');
    await fa.page.locator('#outcome[data-kind="failed"]').waitFor();
    await shown(fa.page);
    await screenshot(fa.page, 'hostile-description-result-fa');
    // English: the payment page of the now failed payment.
    const en = await phone();
    await en.page.goto(pageUrl(created, 'en'));
    assert.equal(await en.page.locator('#outcome').getAttribute('data-kind'), 'failed');
    await shown(en.page);
    for (const { dialogs, errors } of [fa, en]) {
      assert.deepEqual(dialogs, [], 'no script ran');
      assert.deepEqual(errors, [], 'nothing was even attempted (a CSP violation would be a console error)');
    }
  });

  it('security headers are on every page: payment, result, not found, refused, and the stylesheet', async () => {
    const created = await shopPayment();
    const id = created.payment.id;
    for (const [what, path, method] of [
      ['payment page', `/pay/${id}`, 'GET'],
      ['result page', `/pay/${id}/result`, 'GET'],
      ['404 page', `/pay/${randomUUID()}`, 'GET'],
      ['403 page', `/pay/${id}`, 'POST'],
    ] as const) {
      const res = await fetch(`${h.baseUrl}${path}`, {
        method,
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: method === 'POST' ? 'outcome=success' : undefined,
      });
      assertSecurityHeaders(res.headers, what);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, what);
      assert.equal(res.headers.get('cache-control'), 'no-store', what);
    }
    const html = await (await fetch(`${h.baseUrl}/pay/${id}`)).text();
    const css = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
    assert.ok(css?.startsWith('/assets/'), 'the stylesheet is served by the gateway itself');
    const sheet = await fetch(`${h.baseUrl}${css}`);
    assert.equal(sheet.status, 200);
    assert.match(sheet.headers.get('content-type') ?? '', /^text\/css/);
    assertSecurityHeaders(sheet.headers, 'stylesheet');
    assert.doesNotMatch(html, /https?:\/\/(?!127\.0\.0\.1)/, 'no third-party asset');
    assert.doesNotMatch(html, /<script/i, 'no script at all');
  });

  it('an expired payment says so and offers no way to pay', async () => {
    const shortLived = await apiWith({ PAYMENT_TTL_SECONDS: '2' });
    const created = await shopPayment({}, shortLived);
    await waitForStatus(shortLived, key, created.payment.id, 'expired');
    for (const lang of ['fa', 'en'] as const) {
      const { page } = await phone();
      const response = await page.goto(pageUrl(created, lang, shortLived));
      assert.equal(response?.status(), 200);
      await assertLanguage(page, lang);
      assert.equal(await page.locator('#outcome').getAttribute('data-kind'), 'expired');
      assert.match(
        await page.locator('#outcome').innerText(),
        lang === 'fa' ? /مهلت پرداخت به پایان رسیده/ : /has expired/,
      );
      assert.equal(await page.locator('form, button').count(), 0);
      assert.ok((await page.locator('#return').getAttribute('href'))?.includes('status=failed'));
      await screenshot(page, `expired-page-${lang}`);
    }
    assert.equal((await chooseOutcome(shortLived, created.payment.id, 'success')).status, 403);
    assert.equal(await signalsOf(h, created.payment.id), 0);
  });

  it('a payment that does not exist gets a friendly 404 page in the reader’s language', async () => {
    for (const [path, lang] of [
      [`/pay/${randomUUID()}`, 'fa'],
      [`/pay/${randomUUID()}/result?lang=en`, 'en'],
      ['/pay/not-a-payment', 'fa'],
    ] as const) {
      const { page } = await phone();
      const response = await page.goto(`${h.baseUrl}${path}`);
      assert.equal(response?.status(), 404, path);
      await assertLanguage(page, lang);
      assert.match(
        await page.locator('#message h1').innerText(),
        lang === 'fa' ? /پرداخت پیدا نشد/ : /Payment not found/,
      );
      if (path.startsWith('/pay/not')) await screenshot(page, 'not-found-fa');
    }
  });

  it('a cross-site form post is refused with a 403 page and nothing reaches the workflow', async () => {
    const created = await shopPayment();
    const id = created.payment.id;
    const target = `${h.baseUrl}/pay/${id}`;

    // 1. Another site's page that auto-submits the bank form in the customer's browser.
    const { page } = await phone();
    await page.goto(pageUrl(created, 'fa')); // the customer has the gateway's cookie
    const attack = shop.page(
      `/attack-${id}`,
      `<!doctype html><form method="post" action="${target}"><input name="outcome" value="success"><input name="csrf_token" value="forged"></form><script>document.forms[0].submit()</script>`,
    );
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.url() === target && r.request().method() === 'POST'),
      page.goto(attack),
    ]);
    assert.equal(refused.status(), 403);
    await page.locator('#message').waitFor();
    await assertLanguage(page, 'fa');

    // 2. A valid cookie and token, but sent from a foreign origin; 3. the right origin without the token; 4. without the cookie.
    const get = await fetch(target);
    const cookie = get.headers.get('set-cookie')!.split(';')[0]!;
    const token = /name="csrf_token" value="([^"]+)"/.exec(await get.text())![1]!;
    const post = (headers: Record<string, string>, body: string) =>
      fetch(target, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body,
      });
    const withToken = `action=pay&csrf_token=${encodeURIComponent(token)}`;
    assert.equal((await post({ cookie, origin: shop.origin }, withToken)).status, 403, 'foreign origin');
    assert.equal((await post({ cookie, origin: 'null' }, withToken)).status, 403, 'opaque origin');
    assert.equal((await post({ cookie }, withToken)).status, 403, 'no origin and no referer');
    assert.equal((await post({ cookie, origin: h.baseUrl }, 'action=pay')).status, 403, 'no token');
    assert.equal((await post({ origin: h.baseUrl }, withToken)).status, 403, 'no cookie');
    assert.equal(
      (await post({ cookie, origin: h.baseUrl }, `${withToken}&pad=${'x'.repeat(4_000)}`)).status,
      413,
      'oversized body',
    );
    assert.equal(
      (await post({ cookie, origin: h.baseUrl }, `action=steal&csrf_token=${encodeURIComponent(token)}`)).status,
      400,
      'unknown action',
    );

    await new Promise((r) => setTimeout(r, 300)); // a signal, had one been sent, would be in history by now
    assert.equal(await signalsOf(h, id), 0);
    assert.equal(
      (await client(h.baseUrl, key).get<{ payment: Payment }>(`/payments/${id}`)).body.payment.status,
      'created',
    );

    // The same request from our own origin is accepted: the refusals above were about the origin and the token.
    // It only sends the customer to the bank: nothing is paid until the bank confirms.
    const accepted = await post({ cookie, origin: h.baseUrl }, withToken);
    assert.equal(accepted.status, 303);
    assert.match(accepted.headers.get('location') ?? '', /\/OnlinePG\/SendToken\?token=[0-9a-f]+$/);
    assert.equal(
      (await client(h.baseUrl, key).get<{ payment: Payment }>(`/payments/${id}`)).body.payment.status,
      'created',
    );
  });

  it('a result page that finds the payment still created says "processing" and refreshes itself, never a final answer', async () => {
    // A payment recorded but whose bank answer has not been recorded yet (no workflow runs for it here).
    const payment = await createdPayment(h.baseUrl, key);
    const stalled: Payment = {
      ...payment,
      id: randomUUID(),
      tracking_code: String(randomInt(100_000_000_000, 1_000_000_000_000)),
      merchant_reference: `stalled-${randomUUID()}`,
    };
    await h.db
      .insertInto('payments')
      .values(rowFromNewPayment(stalled, merchantId, null))
      .execute();
    const { page } = await phone();
    await page.goto(`${h.baseUrl}/pay/${stalled.id}/result?lang=en`);
    assert.equal(await page.locator('#outcome').getAttribute('data-kind'), 'processing');
    assert.equal(await page.locator('meta[http-equiv="refresh"]').getAttribute('content'), '1');
    assert.equal(await page.locator('#return').count(), 0, 'no way to the merchant before the answer is known');
    await screenshot(page, 'processing-page-en');
    await page.waitForEvent('load', { timeout: 10_000 }); // it reloads itself
    assert.equal(new URL(page.url()).pathname, `/pay/${stalled.id}/result`);
  });

  it('a live payment says no live bank is configured, shows no bank, and its outcome cannot be posted', async () => {
    const test = await shopPayment();
    const live: Payment = {
      ...test.payment,
      id: randomUUID(),
      mode: 'live',
      tracking_code: String(randomInt(100_000_000_000, 1_000_000_000_000)),
      merchant_reference: `live-${randomUUID()}`,
      settlement_status: 'pending',
    };
    await h.db
      .insertInto('payments')
      .values(rowFromNewPayment(live, merchantId, null))
      .execute();
    const { page } = await phone();
    await page.goto(`${h.baseUrl}/pay/${live.id}?lang=en`);
    assert.match(await page.locator('#live-notice').innerText(), /No live bank is configured/);
    assert.equal(await page.locator('form, button').count(), 0);
    assert.equal(await page.locator('.test-banner').count(), 0);
    await screenshot(page, 'live-page-en');

    // Even with a valid token (from a test payment's page) and our own origin, the outcome is refused.
    const get = await fetch(`${h.baseUrl}/pay/${test.payment.id}`);
    const cookie = get.headers.get('set-cookie')!.split(';')[0]!;
    const token = /name="csrf_token" value="([^"]+)"/.exec(await get.text())![1]!;
    const res = await fetch(`${h.baseUrl}/pay/${live.id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: h.baseUrl },
      body: `outcome=success&csrf_token=${encodeURIComponent(token)}`,
    });
    assert.equal(res.status, 403);
    assert.match(await res.text(), /بانک واقعی/);
    const row = await h.db.selectFrom('payments').select('status').where('id', '=', live.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'created');
  });
});
