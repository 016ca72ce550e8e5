/**
 * Mandates end to end (docs/API.md#mandates, docs/SUBSCRIPTIONS.md#mandates) on the real stack: the
 * API, the mandate workflow on the suite's worker, MySQL, the Payman simulator `npm test` started,
 * and a real Chromium at the bank page and the simulator's signing page. A signed mandate becomes
 * active by the customer's return, its sealed signature never enters the workflow's history, its
 * `mandate.active` webhook arrives signed, and cancel ends it (at the provider too); a refusal at the
 * bank declines it; bad input gets the documented error and writes nothing.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { secretBox } from '../../src/accounts/secret-box.ts';
import { mandateWorkflowId } from '../../src/domain/mandate-workflow.ts';
import type { Mandate } from '../../src/domain/mandate-schemas.ts';
import { launchChromium, phonePage, screenshot, type PhonePage } from '../support/browser.ts';
import {
  assertAccessible,
  assertLanguage,
  assertNoScript,
  assertStrictHeaders,
  rials,
  type Lang,
} from '../support/dashboard.ts';
import type { Harness } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import type { Receiver } from '../support/receiver.ts';
import { closeReceivers, merchantWithReceiver, type Api } from '../support/webhooks.ts';

const DAY = 86_400_000;

interface Created {
  mandate: Mandate;
  bank_page_url: string;
}

describe('direct debit mandates (API, workflow, bank page, real browser)', function () {
  this.timeout(120_000);
  let h: Harness;
  let api: Api;
  let rcv: Receiver;
  let merchantId: string;
  let browser: Browser;
  let returnUrl: string;
  const open: PhonePage[] = [];

  before(async () => {
    const m = await merchantWithReceiver(['mandate.active', 'mandate.declined', 'mandate.canceled']);
    ({ h, api, rcv } = m);
    merchantId = m.merchant.merchantId;
    browser = await launchChromium();
    // The merchant's page the customer comes back to, under the merchant's domain (localhost) at a port
    // Chromium allows (the gateway's, as every browser test's); atTheBank answers it in the browser.
    returnUrl = `http://localhost:${new URL(h.baseUrl).port}/mandate-done`;
  });
  after(async () => {
    for (const p of open) await p.context.close();
    await browser?.close();
    await closeReceivers();
  });

  const body = (overrides: Record<string, unknown> = {}) => ({
    mobile: '09121234567',
    max_amount: 5_000_000,
    max_daily_count: 2,
    max_monthly_count: 10,
    expires_at: new Date(Date.now() + 60 * DAY).toISOString(),
    return_url: returnUrl,
    reference: 'plan-gold',
    ...overrides,
  });

  const mandateRows = () => h.db.selectFrom('mandates').selectAll().where('merchant_id', '=', merchantId).execute();

  /** The customer at the bank page: picks the first bank, then signs or refuses at the simulator's page. */
  async function atTheBank(created: Created, decision: 'sign' | 'refuse'): Promise<Page> {
    const p = await phonePage(browser);
    open.push(p);
    const { page } = p;
    // The merchant's page the customer lands on stands in the browser: Chromium may resolve localhost to
    // ::1, where nothing of the test listens.
    await page.route(
      (url) => url.pathname === '/mandate-done',
      (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the shop' }),
    );
    await page.goto(created.bank_page_url);
    // The page refreshes itself until the workflow has registered the mandate at the provider.
    await page.locator('a.bank').first().waitFor({ timeout: 20_000 });
    assert.equal(await page.getAttribute('html', 'dir'), 'rtl');
    await screenshot(page, `mandate-bank-page-${decision}`);
    await page.locator('a.bank').first().click();
    await page.waitForURL((url) => url.pathname.startsWith('/pg/StartPayman/'));
    await page.locator(`form:has(input[value="${decision}"]) button`).click();
    await page.waitForURL((url) => url.pathname === '/mandate-done');
    assert.deepEqual(p.errors, [], 'no script error or CSP violation on the pages');
    return page;
  }

  it('bad input is refused with the documented error and writes nothing', async () => {
    const cases: [Record<string, unknown>, string, number][] = [
      [body({ expires_at: new Date(Date.now() + 10 * DAY).toISOString() }), 'validation_failed', 422],
      [body({ max_daily_count: 5, max_monthly_count: 4 }), 'validation_failed', 422],
      [body({ mobile: '9121234567' }), 'validation_failed', 422],
      [body({ return_url: 'https://elsewhere.example/back' }), 'callback_url_not_allowed', 422],
      [body({ extra: true }), 'validation_failed', 422],
    ];
    for (const [request, code, status] of cases) {
      const res = await api.post<{ code: string; message: string; request_id: string }>('/mandates', request, {
        idempotencyKey: randomUUID(),
      });
      assert.equal(res.status, status, res.text);
      assert.equal(res.body.code, code, res.text);
      assert.ok(res.body.message.length > 0);
      assert.match(res.body.request_id, /^req_/);
    }
    assert.deepEqual(await mandateRows(), [], 'no mandate row written');
    const keys = await h.db
      .selectFrom('idempotency_keys')
      .select('idempotency_key')
      .where('merchant_id', '=', merchantId)
      .execute();
    assert.deepEqual(keys, [], 'no Idempotency-Key taken');
  });

  it('the bank page in Persian and English: the limits in the reader’s digits, the banks as links, the language link, axe; phone and desktop screenshots', async () => {
    const res = await api.post<Created>('/mandates', body(), { idempotencyKey: randomUUID() });
    assert.equal(res.status, 201, res.text);
    const { id } = res.body.mandate;
    const p = await phonePage(browser);
    open.push(p);
    const { page } = p;
    const desktop = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    try {
      const text = async (selector: string) => (await page.locator(selector).innerText()).trim();
      const check = async (lang: Lang) => {
        const name = `mandate-bank-page-${lang}`;
        await assertLanguage(page, lang);
        await assertNoScript(page, name);
        await assertAccessible(page, name);
        assert.equal(await text('#max-amount bdi'), rials(5_000_000, lang));
        assert.equal(await text('#daily-count'), lang === 'fa' ? 'حداکثر ۲ بار' : 'At most 2');
        assert.equal(await text('#monthly-count'), lang === 'fa' ? 'حداکثر ۱۰ بار' : 'At most 10');
        // The limits in one script (the merchant's name is the merchant's own).
        const limits = await text('dl.details');
        if (lang === 'fa') assert.doesNotMatch(limits, /[0-9]/, 'Persian digits only on the Persian page');
        else assert.doesNotMatch(limits, /[۰-۹]/, 'Latin digits only on the English page');
        assert.ok((await text('#merchant')).length > 0, 'the merchant is named');
        assert.ok((await text('#expires')).length > 0);
        assert.equal(await page.locator('.test-banner').count(), 1, 'the test-mode banner');
        const query = lang === 'en' ? '?lang=en' : '';
        const links = await page.locator('a.bank').all();
        assert.deepEqual(
          await Promise.all(links.map(async (a) => [await a.getAttribute('data-bank'), await a.getAttribute('href')])),
          [
            ['SABCIR', `/mandates/${id}/bank/SABCIR${query}`],
            ['SINAIR', `/mandates/${id}/bank/SINAIR${query}`],
          ],
        );
        // The tappable card: as tall as the pages' buttons.
        assert.ok((await page.locator('a.bank').first().boundingBox())!.height >= 48);
        await screenshot(page, `${name}-390`);
        await desktop.goto(page.url());
        await assertAccessible(desktop, `${name} (desktop)`);
        await screenshot(desktop, `${name}-1280`);
      };

      const first = await page.goto(res.body.bank_page_url);
      assertStrictHeaders(first!.headers(), 'the bank page');
      // The page refreshes itself until the workflow has registered the mandate at the provider.
      await page.locator('a.bank').first().waitFor({ timeout: 20_000 });
      await check('fa');
      // The language link keeps the page.
      await Promise.all([page.waitForURL(/\/bank\?lang=en$/), page.locator('a.lang').click()]);
      await check('en');
      assert.equal(await page.locator('a.lang').getAttribute('href'), `/mandates/${id}/bank`);
      assert.deepEqual(p.errors, [], 'no script error or CSP violation on the pages');

      // No such mandate: a 404 page of the same look, in the language asked.
      const missing = await page.goto(`${h.baseUrl}/mandates/${randomUUID()}/bank?lang=en`);
      assert.equal(missing!.status(), 404);
      assert.equal(await text('#mandate-notice h1'), 'Mandate not found');
      await assertAccessible(page, 'the mandate not-found page');
      await screenshot(page, 'mandate-not-found-en-390');
    } finally {
      await desktop.context().close();
    }
  });

  it('signed at the bank: active, signature sealed and out of the history, webhook signed; then canceled', async () => {
    const key = randomUUID();
    const asked = body();
    const res = await api.post<Created>('/mandates', asked, { idempotencyKey: key });
    assert.equal(res.status, 201, res.text);
    const created = res.body;
    assert.equal(created.mandate.status, 'pending');
    assert.equal(created.mandate.mobile, '0912***4567');
    assert.equal(created.mandate.bank, null, 'no bank before the customer chooses one');
    assert.equal(created.bank_page_url, `${h.baseUrl}/mandates/${created.mandate.id}/bank`);
    // The same key answers the same mandate and makes no second one.
    const again = await api.post<Created>('/mandates', asked, { idempotencyKey: key });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(again.body.mandate.id, created.mandate.id);

    const page = await atTheBank(created, 'sign');
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('mandate_id'), created.mandate.id);
    assert.equal(back.searchParams.get('status'), 'active');

    const got = await api.get<{ mandate: Mandate }>(`/mandates/${created.mandate.id}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.mandate.status, 'active');
    assert.ok(got.body.mandate.activated_at !== null);
    // The first bank of the page, recorded as the customer chose it there (the provider never says).
    assert.deepEqual(got.body.mandate.bank, { code: 'SABCIR', name: 'بانک سامان' });
    assert.ok(!JSON.stringify(got.body).includes('signature'), 'the API never shows the signature');

    // The signature is stored sealed, opens to the provider's 200 characters, and is nowhere in the history.
    const row = await h.db
      .selectFrom('mandates')
      .selectAll()
      .where('id', '=', created.mandate.id)
      .executeTakeFirstOrThrow();
    assert.ok(row.signature_sealed !== null);
    const signature = secretBox(h.config.DASHBOARD_SECRETS_KEY).open(row.signature_sealed, row.id);
    assert.equal(signature.length, 200);
    assert.ok(!row.signature_sealed.includes(signature));
    const handle = h.temporal.client.workflow.getHandle(mandateWorkflowId(created.mandate.id));
    assert.ok(!JSON.stringify(await handle.fetchHistory()).includes(signature), 'no signature in the history');

    const [delivery] = await rcv.waitForDeliveries(
      (d) => d.event.type === 'mandate.active' && d.event.data.mandate?.id === created.mandate.id,
    );
    assert.ok(delivery!.verifiedWith.length > 0, 'the delivery is signed with the endpoint secret');
    assert.equal(delivery!.event.data.mandate!.status, 'active');

    const listed = await api.get<{ data: Mandate[] }>('/mandates');
    assert.ok(listed.body.data.some((m) => m.id === created.mandate.id));

    const canceled = await api.post<{ mandate: Mandate }>(`/mandates/${created.mandate.id}/cancel`);
    assert.equal(canceled.status, 200, canceled.text);
    assert.equal(canceled.body.mandate.status, 'canceled');
    assert.ok(canceled.body.mandate.ended_at !== null);
    // Cancelling again answers the same.
    const twice = await api.post<{ mandate: Mandate }>(`/mandates/${created.mandate.id}/cancel`);
    assert.equal(twice.body.mandate.status, 'canceled');
    await rcv.waitForDeliveries(
      (d) => d.event.type === 'mandate.canceled' && d.event.data.mandate?.id === created.mandate.id,
    );
    // The workflow ended it at the provider before recording it canceled.
    const history = JSON.stringify(await handle.fetchHistory());
    assert.match(history, /cancelMandateAtProvider/);
    assert.equal(await handle.result(), 'canceled');
  });

  it('refused at the bank: declined, with its webhook; the bank page then says so', async () => {
    const res = await api.post<Created>('/mandates', body({ national_code: '0012345679' }));
    assert.equal(res.status, 201, res.text);
    const page = await atTheBank(res.body, 'refuse');
    assert.equal(new URL(page.url()).searchParams.get('status'), 'declined');
    const got = await waitFor('declined', async () => {
      const r = await api.get<{ mandate: Mandate }>(`/mandates/${res.body.mandate.id}`);
      return r.body.mandate.status === 'declined' ? r.body.mandate : undefined;
    });
    assert.equal(got.failure_code, 'refused_at_bank');
    await rcv.waitForDeliveries(
      (d) => d.event.type === 'mandate.declined' && d.event.data.mandate?.id === res.body.mandate.id,
    );
    const again = await fetch(res.body.bank_page_url);
    assert.equal(again.status, 409);
  });

  it('an unknown mandate is mandate_not_found', async () => {
    const res = await api.get<{ code: string }>(`/mandates/${randomUUID()}`);
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'mandate_not_found');
  });
});
