/**
 * The dashboard's webhooks area, a payment's refund form and timeline, and
 * the overview, in real Chromium against the real stack: the endpoint's
 * receiver is a real HTTP server on 127.0.0.1 that verifies every delivery's
 * signature, payments go through the bank simulator, refunds through the
 * payment's workflow.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { apiWith, getHarness } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { screenshot } from '../support/browser.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { createdPayment } from '../support/payments.ts';
import { approveTypedIban, REFUND_IBAN, verifiedPayment, waitForRefund } from '../support/refunds.ts';
import {
  assertAccessible,
  assertLanguage,
  assertNoScript,
  assertStrictHeaders,
  dashboardBrowser,
  merchantInBrowser as signedUpMerchant,
  persian,
  rials,
  type Lang,
} from '../support/dashboard.ts';
import { tehranDay } from '../../src/domain/calendar.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import type { Event } from '../../src/domain/webhook-schemas.ts';

const count = (n: number, lang: Lang) => (lang === 'fa' ? persian(String(n)) : String(n));

describe('merchant dashboard: webhooks, refunds, timeline, overview', function () {
  this.timeout(240_000);
  const receivers: Receiver[] = [];
  const dashboard = dashboardBrowser();
  let base: string;

  before(async () => {
    await getHarness();
    ({ base } = dashboard);
  });
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close();
  });

  const phone = () => dashboard.phone();
  const desktopOf = (page: Page) => dashboard.desktopOf(page);
  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };

  /** A merchant signed up and in through the pages, with localhost as its domain and a test key made on the developers page. */
  const merchantInBrowser = (page: Page, lang: Lang) =>
    signedUpMerchant(page, { base, mailbox: dashboard.mailbox }, lang, `Shop ${lang} ${randomUUID().slice(0, 8)}`);

  /** Adds an endpoint on the webhooks page and answers the secret it shows once. */
  async function addEndpoint(page: Page, url: string): Promise<string> {
    await page.goto(`${base}/dashboard/webhooks`);
    await page.fill('#endpoint-url', url);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/dashboard/webhooks/endpoints') && r.request().method() === 'POST'),
      page.click('#endpoint-form button[type=submit]'),
    ]);
    assert.equal(response.status(), 201);
    const secret = await page.locator('#new-secret').innerText();
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
    return secret;
  }

  /** Opens `path` again and again (a GET: never a form's repost) until `probe` answers something. */
  const revisitUntil = <T>(page: Page, path: string, what: string, probe: () => Promise<T | undefined>) =>
    waitFor(
      what,
      async () => {
        await page.goto(`${base}${path}`);
        return probe();
      },
      30_000,
      500,
    );

  /** The attempts table of an event's page: status code and whether it succeeded, per row. */
  const attemptRows = async (page: Page) =>
    page.locator('#attempts tbody tr').evaluateAll((rows) =>
      rows.map((r) => ({
        code: r.querySelector('.status-code')?.textContent?.trim() ?? '',
        ok: r.className === 'attempt-ok',
      })),
    );

  for (const lang of ['fa', 'en'] as const) {
    it(`(${lang}) webhooks: an endpoint added in the dashboard gets signed deliveries; failed attempts, redeliver, rotate, disable and re-enable, delete`, async () => {
      const { page, dialogs, errors } = await phone();
      const { key } = await merchantInBrowser(page, lang);
      const rcv = await receiver();
      const api = client(base, key);

      // The webhooks page, empty; a refused URL gets the API's own message.
      const first = await page.goto(`${base}/dashboard/webhooks${lang === 'en' ? '?lang=en' : ''}`);
      assertStrictHeaders(first!.headers(), 'webhooks page');
      await assertLanguage(page, lang);
      await assertNoScript(page, 'webhooks page');
      assert.ok(await page.locator('#no-endpoints').isVisible());
      await page.fill('#endpoint-url', 'http://10.0.0.1/hooks');
      await page.click('#endpoint-form button[type=submit]');
      const refusedByApi = await api.post<{ message: string }>('/webhook_endpoints', { url: 'http://10.0.0.1/hooks' });
      assert.equal(refusedByApi.status, 422);
      assert.equal(await page.locator('#form-error-detail').innerText(), refusedByApi.body.message);
      await assertAccessible(page, 'webhooks page with a refused URL');
      assert.equal((await api.get<{ data: unknown[] }>('/webhook_endpoints')).body.data.length, 0, 'nothing stored');

      // Added: the secret is shown once, and it verifies a real delivery's signature.
      const secret = await addEndpoint(page, rcv.url);
      await assertAccessible(page, 'webhooks page with a new secret');
      await screenshot(page, `dashboard-${lang}-390-webhooks-secret`);
      await page.goto(`${base}/dashboard/webhooks`);
      assert.equal(await page.locator('#new-secret').count(), 0, 'the secret is shown once');
      assert.equal(await page.locator('#endpoints > li').count(), 1);
      rcv.secrets.push(secret);
      // The receiver fails the first two attempts of each event, then takes it.
      rcv.respond = ({ count: n }) => (n <= 2 ? 500 : 200);
      const payment = await createdPayment(base, key);
      const [delivered] = await rcv.waitForDeliveries(
        (d) => d.event.type === 'payment.created' && d.event.data.payment?.id === payment.id && d.answered === 200,
      );
      assert.deepEqual(delivered!.verifiedWith, [secret], 'the secret shown once verifies the signature');
      const eventId = delivered!.id;

      // The events list links to the event; its page shows every attempt: 500, 500, then 200.
      await page.goto(`${base}/dashboard/webhooks/events`);
      await assertAccessible(page, 'events page');
      await screenshot(page, `dashboard-${lang}-390-webhook-events`);
      await Promise.all([
        page.waitForURL(new RegExp(`/dashboard/webhooks/events/${eventId}$`)),
        page.click(`#events tr[data-id="${eventId}"] a`),
      ]);
      const eventPath = `/dashboard/webhooks/events/${eventId}`;
      const attempts = await revisitUntil(page, eventPath, 'three attempts on the event page', async () => {
        const rows = await attemptRows(page);
        return rows.length === 3 ? rows : undefined;
      });
      assert.deepEqual(attempts, [
        { code: count(500, lang), ok: false },
        { code: count(500, lang), ok: false },
        { code: count(200, lang), ok: true },
      ]);
      assert.equal(await page.locator('#event-type').innerText(), 'payment.created');
      await assertAccessible(page, 'event page');
      await screenshot(page, `dashboard-${lang}-390-webhook-event`);
      const wide = await desktopOf(page);
      await wide.goto(page.url());
      await screenshot(wide, `dashboard-${lang}-1280-webhook-event`);

      // Redeliver: the same webhook-id arrives again (its 4th delivery, answered 200) and the attempt is listed.
      await Promise.all([page.waitForURL(/done=redelivered/), page.click('#redeliver-form button')]);
      assert.ok(await page.locator('#notice').isVisible());
      await rcv.waitForDeliveries((d) => d.id === eventId, 4);
      await revisitUntil(page, eventPath, 'the redelivery on the event page', async () =>
        (await attemptRows(page)).length === 4 ? true : undefined,
      );

      // Rotate: a new secret, shown once; deliveries are signed with both until the window ends.
      await page.goto(`${base}/dashboard/webhooks`);
      await page.click('#endpoints button.rotate');
      const rotated = await page.locator('#new-secret').innerText();
      assert.notEqual(rotated, secret);
      await assertAccessible(page, 'webhooks page after a rotation');
      rcv.secrets.push(rotated);
      rcv.respond = () => 200;
      const second = await createdPayment(base, key);
      const [signedTwice] = await rcv.waitForDeliveries(
        (d) => d.event.data.payment?.id === second.id && d.event.type === 'payment.created',
      );
      assert.deepEqual(signedTwice!.verifiedWith.sort(), [secret, rotated].sort());

      // 410 Gone disables the endpoint; the dashboard shows it and enables it again.
      rcv.respond = () => 410;
      const third = await createdPayment(base, key);
      await rcv.waitForDeliveries((d) => d.event.data.payment?.id === third.id && d.answered === 410);
      await revisitUntil(page, '/dashboard/webhooks', 'the endpoint shown disabled', async () =>
        (await page.locator('#endpoints button.enable').count()) === 1 ? true : undefined,
      );
      assert.equal(
        (await client(base, key).get<{ data: { disabled_reason: string }[] }>('/webhook_endpoints')).body.data[0]
          ?.disabled_reason,
        await page.locator('#endpoints dd[lang=en]').innerText(),
      );
      await assertAccessible(page, 'webhooks page with a disabled endpoint');
      await screenshot(page, `dashboard-${lang}-390-webhooks`);
      const wideList = await desktopOf(page);
      await wideList.goto(`${base}/dashboard/webhooks`);
      await screenshot(wideList, `dashboard-${lang}-1280-webhooks`);
      await Promise.all([page.waitForURL(/done=enabled/), page.click('#endpoints button.enable')]);
      assert.equal(await page.locator('#endpoints button.enable').count(), 0);
      const [endpoint] = (await api.get<{ data: { status: string }[] }>('/webhook_endpoints')).body.data;
      assert.equal(endpoint?.status, 'enabled');

      // Delete: gone from the list and from the API.
      await Promise.all([page.waitForURL(/done=deleted/), page.click('#endpoints button.delete')]);
      assert.ok(await page.locator('#no-endpoints').isVisible());
      assert.equal((await api.get<{ data: unknown[] }>('/webhook_endpoints')).body.data.length, 0);

      assert.deepEqual(dialogs, [], 'no script ran');
      assert.deepEqual(
        errors.filter((e) => !/^Failed to load resource: the server responded with a status of (4\d\d)/.test(e)),
        [],
      );
    });

    it(`(${lang}) a verified payment refunded in part from its page, its timeline, and the overview's exact numbers and chart`, async () => {
      const { page } = await phone();
      const { key } = await merchantInBrowser(page, lang);
      const rcv = await receiver();
      rcv.secrets.push(await addEndpoint(page, rcv.url));
      const api = client(base, key);

      const paid = await verifiedPayment(base, key, { amount: 1_000_000 });
      const other = await verifiedPayment(base, key, { amount: 250_000 });
      await createdPayment(base, key, { amount: 7_000_000 }); // never paid: not a successful payment

      // Refund 400,000 of 1,000,000 from the page (typed in Persian digits on the Persian page).
      await page.goto(`${base}/dashboard/payments/${paid.id}`);
      await assertAccessible(page, 'payment page with the refund form');
      assert.equal(await page.locator('#refund-amount').inputValue(), '1000000', 'the form offers what is left');
      await page.fill('#refund-amount', lang === 'fa' ? '۴۰۰۰۰۰' : '400,000');
      await page.fill('#refund-reason', 'One notebook was out of stock');
      // Test mode's PSP (SEP) has no refund operation: a part is paid to the customer's IBAN, once the operator
      // approved it (a typed IBAN is held: docs/PAYMENTS.md#refund-states).
      await page.fill('#refund-iban', REFUND_IBAN);
      await Promise.all([page.waitForURL(/done=refund/), page.click('#refund-form button[type=submit]')]);
      assert.ok(await page.locator('#notice').isVisible());
      const refunds = (await api.get<{ data: Refund[] }>(`/payments/${paid.id}/refunds`)).body.data;
      assert.equal(refunds.length, 1);
      assert.equal(refunds[0]!.amount, 400_000);
      assert.equal(refunds[0]!.reason, 'One notebook was out of stock');
      await approveTypedIban(refunds[0]!);
      await waitForRefund(base, key, refunds[0]!.id, 'succeeded');
      await page.goto(`${base}/dashboard/payments/${paid.id}`);
      assert.match(
        await page.locator(`#refunds tr[data-id="${refunds[0]!.id}"]`).innerText(),
        new RegExp(rials(400_000, lang)),
      );
      assert.equal(await page.locator('#refundable').innerText(), rials(600_000, lang));

      // More than is left: refused with the API's own message, and nothing written.
      await page.fill('#refund-amount', '700000');
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith(`/dashboard/payments/${paid.id}/refunds`)),
        page.click('#refund-form button[type=submit]'),
      ]);
      const byApi = await api.post<{ message: string }>(`/payments/${paid.id}/refunds`, {
        destination_iban: REFUND_IBAN,
        amount: 700_000,
      });
      assert.equal(refused.status(), byApi.status);
      assert.equal(await page.locator('#form-error-detail').innerText(), byApi.body.message);
      await assertAccessible(page, 'payment page with a refused refund');

      // A double submit of one form is one refund: the form's idempotency key.
      const csrf = await page.locator('#refund-form input[name=csrf_token]').inputValue();
      const idempotencyKey = await page.locator('#refund-form input[name=idempotency_key]').inputValue();
      const post = () =>
        page.context().request.post(`${base}/dashboard/payments/${paid.id}/refunds`, {
          form: {
            csrf_token: csrf,
            idempotency_key: idempotencyKey,
            amount: '100000',
            reason: '',
            destination_iban: REFUND_IBAN,
          },
          headers: { origin: base },
          maxRedirects: 0,
        });
      assert.equal((await post()).status(), 303);
      assert.equal((await post()).status(), 303);
      const after = (await api.get<{ data: Refund[] }>(`/payments/${paid.id}/refunds`)).body.data;
      assert.equal(after.length, 2, 'two submits of one form made one refund');
      await approveTypedIban(after[0]!);
      await waitForRefund(base, key, after[0]!.id, 'succeeded');

      // The timeline: every transition in order, with the webhook attempts among them.
      await revisitUntil(
        page,
        `/dashboard/payments/${paid.id}`,
        'the timeline with the refunds and their deliveries',
        async () => {
          const attemptsShown = await page.locator('#timeline li[data-kind="attempt"]').count();
          return attemptsShown >= 7 ? true : undefined; // created, paid, verified, and two refunds' created/succeeded/status events all delivered
        },
      );
      const transitions = await page.locator('#timeline li[data-kind="transition"] .timeline-label').allInnerTexts();
      const labels =
        lang === 'en'
          ? ['Payment created', 'Paid', 'Verified', 'Refund requested', 'Partially refunded', 'Refund succeeded']
          : [
              'پرداخت ساخته شد',
              'پرداخت شد',
              'تأیید شد',
              'بازپرداخت درخواست شد',
              'بخشی بازپرداخت شد',
              'بازپرداخت انجام شد',
            ];
      for (const label of labels) assert.ok(transitions.includes(label), `${label} in ${transitions.join(' | ')}`);
      assert.ok(
        transitions.indexOf(labels[0]!) < transitions.indexOf(labels[1]!) &&
          transitions.indexOf(labels[1]!) < transitions.indexOf(labels[2]!),
        'in time order',
      );
      const times = await page
        .locator('#timeline time')
        .evaluateAll((nodes) => nodes.map((n) => Date.parse(n.getAttribute('datetime') ?? '')));
      assert.deepEqual(
        [...times].sort((a, b) => a - b),
        times,
        'the timeline is in time order',
      );
      await assertAccessible(page, 'payment page with its timeline');
      await screenshot(page, `dashboard-${lang}-390-payment-timeline`);
      const wide = await desktopOf(page);
      await wide.goto(page.url());
      await screenshot(wide, `dashboard-${lang}-1280-payment-timeline`);

      // The overview: the two verified payments, exactly; the unpaid one is not counted.
      const verifiedAt = [paid, other].map((p) => new Date(p.verified_at!));
      const loaded = new Date();
      await page.goto(`${base}/dashboard/overview`);
      const today = verifiedAt.filter((at) => tehranDay(at) === tehranDay(loaded));
      assert.equal(await page.locator('#period-count').innerText(), count(2, lang));
      assert.equal(await page.locator('#period-volume').innerText(), rials(1_250_000, lang));
      assert.equal(await page.locator('#today-count').innerText(), count(today.length, lang));
      assert.equal(await page.locator('#today-volume').innerText(), rials(today.length === 2 ? 1_250_000 : 0, lang));
      const chart = page.locator('svg#volume-chart');
      assert.equal(await chart.getAttribute('role'), 'img');
      assert.equal(await chart.locator('rect.chart-bar').count(), 30);
      assert.match((await chart.locator('desc').textContent()) ?? '', new RegExp(rials(1_250_000, lang)));
      assert.equal(await page.locator('#daily-totals tbody tr').count(), 30);
      const todayRow = page.locator(`#daily-totals tr[data-day="${tehranDay(loaded)}"]`);
      assert.match((await todayRow.textContent()) ?? '', new RegExp(rials(today.length === 2 ? 1_250_000 : 0, lang)));
      // Right to left, today is the leftmost bar; left to right, the rightmost.
      const bars = await chart
        .locator('rect.chart-bar')
        .evaluateAll((rects) =>
          rects.map((r) => ({ x: Number(r.getAttribute('x')), h: Number(r.getAttribute('height')) })),
        );
      const last = bars.at(-1)!;
      assert.equal(
        last.x === Math.min(...bars.map((b) => b.x)),
        lang === 'fa',
        "today's bar is at the end of the reading direction",
      );
      if (today.length === 2) assert.equal(last.h, Math.max(...bars.map((b) => b.h)));
      await assertLanguage(page, lang);
      await assertNoScript(page, 'overview');
      await assertAccessible(page, 'overview');
      await screenshot(page, `dashboard-${lang}-390-overview`);
      const wideOverview = await desktopOf(page);
      await wideOverview.goto(`${base}/dashboard/overview`);
      await screenshot(wideOverview, `dashboard-${lang}-1280-overview`);
      // Live mode has none of it.
      await page.click('#mode-live');
      assert.equal(await page.locator('#period-count').innerText(), count(0, lang));

      // Past the refund window (the record read 181 days on; REFUND_WINDOW_SECONDS is 180 days) the page offers no form, and says why.
      await (
        await getHarness()
      ).db
        .updateTable('payments')
        .set({ verified_at: new Date(Date.now() - 181 * 86_400_000) })
        .where('id', '=', paid.id)
        .execute();
      await page.goto(`${base}/dashboard/payments/${paid.id}`);
      assert.equal(await page.locator('#refund-form').count(), 0, 'no refund form past the window');
      assert.equal(
        await page.locator('#refund-window-closed').innerText(),
        lang === 'en'
          ? "This payment's refund window has closed; it can no longer be refunded."
          : 'مهلت بازپرداخت این پرداخت به پایان رسیده است؛ دیگر نمی‌توان آن را بازپرداخت کرد.',
      );
      await assertAccessible(page, 'payment page past its refund window');
    });
  }

  it("a session of merchant A gets 404 for B's endpoint, event and refund form by URL; posts without the CSRF token are refused", async () => {
    const a = await phone();
    const b = await phone();
    await merchantInBrowser(a.page, 'en');
    const { key: keyB } = await merchantInBrowser(b.page, 'en');
    const rcv = await receiver();
    rcv.secrets.push(await addEndpoint(b.page, rcv.url));
    const endpointB = (await client(base, keyB).get<{ data: { id: string }[] }>('/webhook_endpoints')).body.data[0]!.id;
    const paymentB: Payment = await verifiedPayment(base, keyB, { amount: 50_000 });
    const eventB = (await client(base, keyB).get<{ data: Event[] }>('/events')).body.data[0]!.id;

    assert.equal((await b.page.goto(`${base}/dashboard/webhooks/events/${eventB}`))?.status(), 200);
    const other = await a.page.goto(`${base}/dashboard/webhooks/events/${eventB}`);
    assert.equal(other?.status(), 404);
    await assertAccessible(a.page, 'not-found page');

    await a.page.goto(`${base}/dashboard/webhooks`);
    const token = await a.page.locator('#endpoint-form input[name=csrf_token]').inputValue();
    const postAsA = (path: string, form: Record<string, string>) =>
      a.context.request.post(`${base}${path}`, {
        form: { csrf_token: token, ...form },
        headers: { origin: base },
        maxRedirects: 0,
      });
    for (const action of ['rotate', 'delete', 'enable']) {
      assert.equal(
        (await postAsA(`/dashboard/webhooks/endpoints/${endpointB}/${action}`, { mode: 'test' })).status(),
        404,
        action,
      );
    }
    assert.equal((await postAsA(`/dashboard/webhooks/events/${eventB}/redeliver`, {})).status(), 404, 'redeliver');
    assert.equal(
      (
        await postAsA(`/dashboard/payments/${paymentB.id}/refunds`, { idempotency_key: randomUUID(), amount: '1000' })
      ).status(),
      404,
      'refund',
    );
    assert.equal(
      (await client(base, keyB).get<{ data: unknown[] }>(`/payments/${paymentB.id}/refunds`)).body.data.length,
      0,
      "no refund of B's payment",
    );
    assert.equal(
      (await client(base, keyB).get<{ data: { status: string }[] }>('/webhook_endpoints')).body.data.length,
      1,
      "B's endpoint is still there",
    );

    // B's own forms without the token: 403, nothing changes.
    const noToken = (path: string, form: Record<string, string>) =>
      b.context.request.post(`${base}${path}`, { form, headers: { origin: base }, maxRedirects: 0 });
    assert.equal(
      (await noToken('/dashboard/webhooks/endpoints', { url: 'http://localhost:9/x', mode: 'test' })).status(),
      403,
    );
    assert.equal((await noToken(`/dashboard/webhooks/endpoints/${endpointB}/delete`, { mode: 'test' })).status(), 403);
    assert.equal(
      (
        await noToken(`/dashboard/payments/${paymentB.id}/refunds`, { idempotency_key: randomUUID(), amount: '1000' })
      ).status(),
      403,
    );
    assert.equal((await client(base, keyB).get<{ data: unknown[] }>('/webhook_endpoints')).body.data.length, 1);
    assert.equal(
      (await client(base, keyB).get<{ data: unknown[] }>(`/payments/${paymentB.id}/refunds`)).body.data.length,
      0,
    );

    // The API's redelivery quota holds in the dashboard too (the same bucket): at 1 a minute, three quick asks meet a refusal.
    const limited = await apiWith({ SMTP_URL: dashboard.mailbox.url, WEBHOOK_REDELIVERIES_PER_MINUTE: '1' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      await b.page.goto(`${limited}/dashboard/webhooks/events/${eventB}`);
      const [answer] = await Promise.all([
        b.page.waitForResponse((r) => r.url().endsWith(`/dashboard/webhooks/events/${eventB}/redeliver`)),
        b.page.click('#redeliver-form button'),
      ]);
      statuses.push(answer.status());
      if (answer.status() === 429) {
        assert.match(
          await b.page.locator('#form-error-detail').innerText(),
          /^Too many redeliveries: a merchant may ask for at most 1 a minute\./,
        );
        await assertAccessible(b.page, 'event page with a refused redelivery');
      }
    }
    assert.ok(statuses.includes(429), `a refusal among ${statuses.join(', ')}`);
  });
});
