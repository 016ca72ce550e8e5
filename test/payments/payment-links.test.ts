/**
 * Payment links on the real stack (docs/PAYMENTS.md#payment-links): the API's
 * create (idempotent), list, read and deactivate; bad input refused with
 * nothing written; a customer's payment on the link, through the bank
 * simulator, verified by the gateway itself with no merchant call and
 * announced by payment.verified; max_payments held under concurrent
 * customers; deactivated and expired links that start nothing; the QR code.
 * The customer's side is plain HTTP here; payment-link pages in Chromium are
 * test/pages/payment-links.test.ts.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { PaymentLink } from '../../src/domain/payment-link.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { paymentWorkflowId } from '../../src/domain/payment-workflow.ts';
import { feeAtVerify } from '../../src/domain/payment.ts';
import { bankOperations } from '../support/bank.ts';
import { getHarness, newMerchant, type Harness } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { createdLink, openLink, postLink, startedPaymentId } from '../support/payment-links.ts';
import { chooseOutcome, createdPayment, waitForStatus } from '../support/payments.ts';
import { historyText, recordFixture } from '../support/replay.ts';
import { closeReceivers, forPayment, merchantWithReceiver } from '../support/webhooks.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories');
type Api = ReturnType<typeof client>;

describe('payment links', function () {
  this.timeout(90_000);
  let h: Harness;
  let api: Api;
  let key: string;

  before(async () => {
    h = await getHarness();
    ({ key } = await newMerchant());
    api = client(h.baseUrl, key);
  });
  after(closeReceivers);

  const paymentsOfLink = (linkId: string) =>
    h.db.selectFrom('payments').selectAll().where('payment_link_id', '=', linkId).execute();

  describe('the API', () => {
    it('creates a link once per Idempotency-Key, reads it, lists it by cursor and deactivates it', async () => {
      const idem = randomUUID();
      const body = {
        title: 'Handmade notebook',
        description: 'A5, 80 pages',
        min_amount: 100_000,
        max_amount: 900_000,
        collect: { name: 'required', note: 'optional' },
        max_payments: 5,
      };
      const first = await api.post<{ payment_link: PaymentLink }>('/payment_links', body, { idempotencyKey: idem });
      assert.equal(first.status, 201, first.text);
      const link = first.body.payment_link;
      assert.match(link.slug, /^[a-z2-9]{10}$/);
      assert.equal(link.url, `${h.config.PUBLIC_BASE_URL}/l/${link.slug}`);
      assert.equal(link.qr_url, `${link.url}/qr.svg`);
      assert.deepEqual(
        {
          mode: link.mode,
          amount: link.amount,
          min: link.min_amount,
          max: link.max_amount,
          collect: link.collect,
          active: link.active,
          count: link.payments_count,
          max_payments: link.max_payments,
          expires: link.expires_at,
        },
        {
          mode: 'test',
          amount: null,
          min: 100_000,
          max: 900_000,
          collect: { name: 'required', note: 'optional' },
          active: true,
          count: 0,
          max_payments: 5,
          expires: null,
        },
      );

      const replay = await api.post<{ payment_link: PaymentLink }>('/payment_links', body, { idempotencyKey: idem });
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body.payment_link, link);
      const reused = await api.post('/payment_links', { ...body, title: 'Another' }, { idempotencyKey: idem });
      assert.equal(reused.status, 422);
      assert.equal(reused.body.code, 'idempotency_key_reused');

      assert.deepEqual(
        (await api.get<{ payment_link: PaymentLink }>(`/payment_links/${link.id}`)).body.payment_link,
        link,
      );
      const second = await createdLink(api, { title: 'Second' });
      const page1 = await api.get<{ data: PaymentLink[]; has_more: boolean; next_cursor: string }>(
        '/payment_links?limit=1',
      );
      assert.equal(page1.status, 200);
      assert.equal(page1.body.has_more, true);
      assert.equal(page1.body.data[0]!.id, second.id, 'newest first');
      const page2 = await api.get<{ data: PaymentLink[]; has_more: boolean }>(
        `/payment_links?limit=1&cursor=${page1.body.next_cursor}`,
      );
      assert.deepEqual(
        page2.body.data.map((l) => l.id),
        [link.id],
      );

      const off = await api.post<{ payment_link: PaymentLink }>(`/payment_links/${link.id}/deactivate`);
      assert.equal(off.status, 200);
      assert.equal(off.body.payment_link.active, false);
      const again = await api.post<{ payment_link: PaymentLink }>(`/payment_links/${link.id}/deactivate`);
      assert.deepEqual(again.body.payment_link, off.body.payment_link, 'deactivating again answers the same');
    });

    it("keeps links to their merchant and mode: another merchant's answer 404 payment_link_not_found", async () => {
      const link = await createdLink(api, {});
      const other = client(h.baseUrl, (await newMerchant()).key);
      for (const res of [
        await other.get(`/payment_links/${link.id}`),
        await other.post(`/payment_links/${link.id}/deactivate`),
        await api.get(`/payment_links/${randomUUID()}`),
      ]) {
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.code, 'payment_link_not_found');
        assert.equal(typeof res.body.request_id, 'string');
      }
      assert.equal(
        (await api.get<{ payment_link: PaymentLink }>(`/payment_links/${link.id}`)).body.payment_link.active,
        true,
        'still active',
      );
      assert.deepEqual((await other.get<{ data: unknown[] }>('/payment_links')).body.data, []);
    });

    it('answers 422 validation_failed for bad input and writes nothing', async () => {
      const own = client(h.baseUrl, (await newMerchant()).key);
      const past = new Date(Date.now() - 60_000).toISOString();
      const cases: Record<string, unknown>[] = [
        {},
        { title: 'No amount' },
        { title: 'Both', amount: 1000, min_amount: 500, max_amount: 2000 },
        { title: 'Half a range', min_amount: 1000 },
        { title: 'Upside down', min_amount: 5000, max_amount: 1000 },
        { title: 'Too small', amount: h.config.AMOUNT_MIN - 1 },
        { title: 'Too big', amount: h.config.AMOUNT_MAX + 1 },
        { title: 'Expired', amount: 10_000, expires_at: past },
        { title: 'Bad date', amount: 10_000, expires_at: 'tomorrow' },
        { title: 'No places', amount: 10_000, max_payments: 0 },
        { title: 'Odd collect', amount: 10_000, collect: { name: 'maybe' } },
        { title: 'Unknown field to collect', amount: 10_000, collect: { email: 'required' } },
        { title: 'Unknown field', amount: 10_000, slug: 'mychoice22' },
        { title: '', amount: 10_000 },
        { title: 'Bidi \u202E', amount: 10_000 },
      ];
      for (const body of cases) {
        const res = await own.post('/payment_links', body, { idempotencyKey: randomUUID() });
        assert.equal(res.status, 422, JSON.stringify(body));
        assert.equal(res.body.code, 'validation_failed', JSON.stringify(body));
        assert.ok(Array.isArray(res.body.details) && res.body.details.length > 0, JSON.stringify(body));
      }
      assert.deepEqual((await own.get<{ data: unknown[] }>('/payment_links')).body.data, [], 'no link was written');
    });
  });

  describe("a customer's payment", () => {
    it('is started on the link page, paid at the bank and verified by the gateway itself: no merchant call, payment.verified with payment_link', async () => {
      const merchant = await merchantWithReceiver(['payment.verified']);
      const link = await createdLink(merchant.api, {
        title: 'Cake',
        amount: undefined,
        min_amount: 200_000,
        max_amount: 2_000_000,
        collect: { name: 'required', mobile: 'optional', note: 'optional' },
      });
      const page = await openLink(h.baseUrl, link.slug);
      assert.equal(page.status, 200);
      assert.ok(page.session, 'the form has its CSRF token');
      const started = await postLink(h.baseUrl, link.slug, page.session, {
        amount: '۷۵۰٬۰۰۰',
        name: 'سارا رضایی',
        mobile: '09121234567',
        note: 'بدون شکر',
      });
      const paymentId = startedPaymentId(started);

      const created = (await merchant.api.get<{ payment: Payment }>(`/payments/${paymentId}`)).body.payment;
      assert.equal(created.status, 'created');
      assert.equal(created.payment_link, link.id);
      assert.equal(created.amount, 750_000);
      assert.equal(created.merchant_reference, `link-${link.slug}`);
      assert.equal(created.description, 'Cake');
      assert.equal(created.callback_url, `${h.config.PUBLIC_BASE_URL}/l/${link.slug}/receipt/${paymentId}`);
      assert.deepEqual(created.metadata, {
        link_name: 'سارا رضایی',
        link_mobile: '09121234567',
        link_note: 'بدون شکر',
      });

      assert.equal((await chooseOutcome(h.baseUrl, paymentId, 'success')).status, 303);
      const verified = await waitForStatus(h.baseUrl, merchant.merchant.key, paymentId, 'verified');
      assert.equal(
        verified.fee,
        feeAtVerify(verified, { bps: h.config.FEE_BPS, min: h.config.FEE_MIN, max: h.config.FEE_MAX }),
        'the fee as verify computes it',
      );
      assert.ok(verified.fee > 0);
      assert.notEqual(verified.verified_at, null);
      assert.deepEqual(
        (await bankOperations(paymentId)).map((o) => o.kind),
        ['confirm'],
        "captured at SEP's verify at the return: no settle (docs/psps/sep.md)",
      );
      const [delivery] = await merchant.rcv.waitForDeliveries(forPayment(paymentId, 'payment.verified'));
      assert.equal(delivery!.event.data.payment?.payment_link, link.id);
      assert.equal(delivery!.event.data.payment?.status, 'verified');
      assert.equal(delivery!.verifiedWith.length, 1, 'signed with the endpoint secret');
      assert.equal(
        (await merchant.api.get<{ payment_link: PaymentLink }>(`/payment_links/${link.id}`)).body.payment_link
          .payments_count,
        1,
      );
      // A merchant that verifies anyway gets the same answer.
      const verify = await merchant.api.post<{ payment: Payment }>(`/payments/${paymentId}/verify`, {
        amount: 750_000,
      });
      assert.equal(verify.status, 200);
      assert.equal(verify.body.payment.status, 'verified');

      const receipt = await fetch(`${h.baseUrl}/l/${link.slug}/receipt/${paymentId}?lang=en`);
      assert.equal(receipt.status, 200);
      const html = await receipt.text();
      assert.match(html, /data-kind="success"/);
      assert.match(html, /Your payment is done and confirmed/);
      assert.ok(html.includes(verified.rrn!), 'the receipt shows the RRN');

      const history = await h.temporal.client.workflow.getHandle(paymentWorkflowId(paymentId)).fetchHistory();
      // The payment flow workflow verifies a link's payment with no patch marker (the lifecycle type's v13 fixture holds it).
      assert.ok(!historyText(history).includes('payment-link-auto-verify'), 'no patch marker in the history');
      recordFixture(FIXTURES, 'RECORD_HISTORIES', 'link-verified', history);
    });

    it("other payments take no patch marker and still wait for the merchant's verify", async () => {
      const p = await createdPayment(h.baseUrl, key);
      assert.equal(p.payment_link, null);
      assert.equal((await chooseOutcome(h.baseUrl, p.id, 'success')).status, 303);
      await waitForStatus(h.baseUrl, key, p.id, 'paid');
      await new Promise((r) => setTimeout(r, 1_500));
      assert.equal(
        (await api.get<{ payment: Payment }>(`/payments/${p.id}`)).body.payment.status,
        'paid',
        'not verified by itself',
      );
      const history = await h.temporal.client.workflow.getHandle(paymentWorkflowId(p.id)).fetchHistory();
      assert.ok(!historyText(history).includes('payment-link-auto-verify'), 'no marker of the patch');
      assert.equal((await api.post(`/payments/${p.id}/verify`, { amount: p.amount })).status, 200);
    });

    it('refuses an amount outside the range, a missing required field and a post without its CSRF token: nothing created', async () => {
      const link = await createdLink(api, {
        title: 'Donation',
        amount: undefined,
        min_amount: 100_000,
        max_amount: 500_000,
        collect: { name: 'required' },
      });
      const { session } = await openLink(h.baseUrl, link.slug, 'en');
      const cases: Record<string, string>[] = [
        { amount: '99999', name: 'Ali' },
        { amount: '500001', name: 'Ali' },
        { amount: 'lots', name: 'Ali' },
        { amount: '200000' },
        { amount: '200000', name: '   ' },
      ];
      for (const fields of cases) {
        const res = await postLink(h.baseUrl, link.slug, session, fields);
        assert.equal(res.status, 422, JSON.stringify(fields));
        assert.match(await res.text(), /id="form-problems"/);
      }
      const forged = await postLink(h.baseUrl, link.slug, undefined, { amount: '200000', name: 'Ali' });
      assert.equal(forged.status, 403);
      const otherOrigin = await fetch(`${h.baseUrl}/l/${link.slug}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://evil.example',
          cookie: session!.cookie,
        },
        body: new URLSearchParams({ csrf_token: session!.token, amount: '200000', name: 'Ali' }).toString(),
        redirect: 'manual',
      });
      assert.equal(otherOrigin.status, 403);
      assert.deepEqual(await paymentsOfLink(link.id), []);
      assert.equal(
        (await api.get<{ payment_link: PaymentLink }>(`/payment_links/${link.id}`)).body.payment_link.payments_count,
        0,
      );
    });

    it('holds max_payments under concurrent customers: exactly that many payments start, then the page says it is used up', async () => {
      const link = await createdLink(api, { title: 'Two seats', max_payments: 2 });
      const sessions = await Promise.all(Array.from({ length: 6 }, () => openLink(h.baseUrl, link.slug)));
      const answers = await Promise.all(sessions.map((s) => postLink(h.baseUrl, link.slug, s.session, {})));
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses, [303, 303, 410, 410, 410, 410]);
      for (const refused of answers.filter((r) => r.status === 410))
        assert.match(await refused.text(), /data-why="payment_link_used_up"/);
      assert.equal((await paymentsOfLink(link.id)).length, 2);
      assert.equal(
        (await api.get<{ payment_link: PaymentLink }>(`/payment_links/${link.id}`)).body.payment_link.payments_count,
        2,
      );
      const closed = await openLink(h.baseUrl, link.slug);
      assert.equal(closed.status, 410);
      assert.equal(closed.session, undefined, 'no form');
    });

    it('a deactivated link and an expired one start nothing, and their pages say so', async () => {
      const link = await createdLink(api, { title: 'Soon off' });
      const { session } = await openLink(h.baseUrl, link.slug);
      assert.equal((await api.post(`/payment_links/${link.id}/deactivate`)).status, 200);
      const page = await openLink(h.baseUrl, link.slug, 'en');
      assert.equal(page.status, 410);
      assert.match(page.html, /This payment link was deactivated/);
      const late = await postLink(h.baseUrl, link.slug, session, {});
      assert.equal(late.status, 410);
      assert.match(await late.text(), /data-why="payment_link_inactive"/);

      const brief = await createdLink(api, { title: 'Brief', expires_at: new Date(Date.now() + 1_500).toISOString() });
      const early = await openLink(h.baseUrl, brief.slug);
      assert.equal(early.status, 200);
      await waitFor(
        'the link to expire',
        async () => ((await openLink(h.baseUrl, brief.slug)).status === 410 ? true : undefined),
        5_000,
        200,
      );
      const expired = await postLink(h.baseUrl, brief.slug, early.session, {});
      assert.equal(expired.status, 410);
      assert.match(await expired.text(), /data-why="payment_link_expired"/);
      assert.deepEqual([...(await paymentsOfLink(link.id)), ...(await paymentsOfLink(brief.id))], []);
      const missing = await openLink(h.baseUrl, 'zzzzzzzzzz');
      assert.equal(missing.status, 404);
    });

    it('serves the QR code as an SVG drawn on the server', async () => {
      const link = await createdLink(api, {});
      const res = await fetch(`${h.baseUrl}/l/${link.slug}/qr.svg`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^image\/svg\+xml/);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      const svg = await res.text();
      assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      assert.match(svg, /<path /);
      const other = await (await fetch(`${h.baseUrl}/l/${(await createdLink(api, {})).slug}/qr.svg`)).text();
      assert.notEqual(other, svg, 'each link its own code');
      assert.equal((await fetch(`${h.baseUrl}/l/zzzzzzzzzz/qr.svg`)).status, 404);
    });
  });

  it('the receipt shows only payments of its own link', async () => {
    const a = await createdLink(api, {});
    const b = await createdLink(api, {});
    const { session } = await openLink(h.baseUrl, a.slug);
    const paymentId = startedPaymentId(await postLink(h.baseUrl, a.slug, session, {}));
    assert.equal((await fetch(`${h.baseUrl}/l/${a.slug}/receipt/${paymentId}`)).status, 200);
    assert.equal((await fetch(`${h.baseUrl}/l/${b.slug}/receipt/${paymentId}`)).status, 404);
    const plain = await createdPayment(h.baseUrl, key);
    assert.equal((await fetch(`${h.baseUrl}/l/${a.slug}/receipt/${plain.id}`)).status, 404);
  });
});
