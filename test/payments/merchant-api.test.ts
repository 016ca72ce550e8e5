/**
 * The merchant API beyond create and verify, against the real stack:
 * metadata, cancel and reverse, the test helpers that drive a payment
 * without a browser or a wait, and an event for every change, delivered to
 * a real receiver.
 */
import { bankOperations } from '../support/bank.ts';
import assert from 'node:assert/strict';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { liveMerchant, LIVE_DOMAIN } from '../support/live.ts';
import { createdPayment, paymentRequest } from '../support/payments.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { approveTypedIban, REFUND_IBAN, waitForRefund } from '../support/refunds.ts';

type PaymentBody = { payment: Payment; code?: string; details?: { path: string; message: string }[] };

describe('the merchant API', () => {
  let baseUrl: string;
  let key: string;
  let api: ReturnType<typeof client>;

  before(async () => {
    const h = await getHarness();
    baseUrl = h.baseUrl;
    ({ key } = await newMerchant());
    api = client(baseUrl, key);
  });

  const helper = (id: string, what: 'bank_outcome' | 'advance', body: unknown) =>
    api.post<PaymentBody>(`/test_helpers/payments/${id}/${what}`, body);
  const paid = async (overrides: Record<string, unknown> = {}) => {
    const payment = await createdPayment(baseUrl, key, overrides);
    // A busy worker may not answer within the API's bound on a Temporal call: 503, and the merchant asks again.
    let res = await helper(payment.id, 'bank_outcome', { outcome: 'success' });
    for (let retry = 0; res.status === 503 && retry < 10; retry++)
      res = await helper(payment.id, 'bank_outcome', { outcome: 'success' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.payment.status, 'paid');
    return res.body.payment;
  };

  describe('metadata', () => {
    it('starts empty, is kept from create, and is returned by retrieve and list', async () => {
      const plain = await createdPayment(baseUrl, key);
      assert.deepEqual(plain.metadata, {});
      const tagged = await createdPayment(baseUrl, key, { metadata: { order_id: '1042', 'customer-ref': 'c_77' } });
      assert.deepEqual(tagged.metadata, { order_id: '1042', 'customer-ref': 'c_77' });
      assert.deepEqual((await api.get<PaymentBody>(`/payments/${tagged.id}`)).body.payment.metadata, tagged.metadata);
      const listed = await api.get<{ data: Payment[] }>(`/payments?merchant_reference=${tagged.merchant_reference}`);
      assert.deepEqual(listed.body.data[0]?.metadata, tagged.metadata);
    });

    it('merges an update: a string sets a key, null removes it, keys not named stay; verify keeps it', async () => {
      const payment = await paid({ metadata: { a: '1', b: '2' } });
      const updated = await api.post<PaymentBody>(`/payments/${payment.id}`, { metadata: { b: null, c: '3' } });
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(updated.body.payment.metadata, { a: '1', c: '3' });
      const verified = await api.post<PaymentBody>(`/payments/${payment.id}/verify`, { amount: payment.amount });
      assert.equal(verified.body.payment.status, 'verified');
      assert.deepEqual(verified.body.payment.metadata, { a: '1', c: '3' });
    });

    it('refuses bad metadata with validation_failed and writes nothing', async () => {
      const payment = await createdPayment(baseUrl, key, { metadata: { keep: 'me' } });
      const tooMany = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v']));
      const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`n${i}`, 'v']));
      for (const metadata of [
        tooMany,
        { 'bad key': 'v' },
        { ['k'.repeat(41)]: 'v' },
        { k: 'x'.repeat(501) },
        { k: 7 },
        twenty,
      ]) {
        const res = await api.post<PaymentBody>(`/payments/${payment.id}`, { metadata });
        assert.equal(res.status, 422, JSON.stringify(metadata).slice(0, 80));
        assert.equal(res.body.code, 'validation_failed');
      }
      assert.deepEqual((await api.get<PaymentBody>(`/payments/${payment.id}`)).body.payment.metadata, { keep: 'me' });
      const create = await api.post<PaymentBody>('/payments', paymentRequest({ metadata: tooMany }));
      assert.equal(create.status, 422);
    });

    it("another merchant's payment is not found, and is not changed", async () => {
      const payment = await createdPayment(baseUrl, key, { metadata: { mine: 'yes' } });
      const other = client(baseUrl, (await newMerchant()).key);
      assert.equal(
        (await other.post<PaymentBody>(`/payments/${payment.id}`, { metadata: { mine: 'no' } })).body.code,
        'payment_not_found',
      );
      assert.deepEqual((await api.get<PaymentBody>(`/payments/${payment.id}`)).body.payment.metadata, { mine: 'yes' });
    });
  });

  describe('cancel', () => {
    it('cancels a created payment, answers the same again, and its page then says canceled', async () => {
      const payment = await createdPayment(baseUrl, key);
      const canceled = await api.post<PaymentBody>(`/payments/${payment.id}/cancel`);
      assert.equal(canceled.status, 200, canceled.text);
      assert.equal(canceled.body.payment.status, 'canceled');
      assert.equal(canceled.body.payment.failure?.code, 'canceled_by_merchant');
      const again = await api.post<PaymentBody>(`/payments/${payment.id}/cancel`);
      assert.equal(again.status, 200);
      assert.equal(again.body.payment.status, 'canceled');
      const page = await fetch(`${baseUrl}/pay/${payment.id}?lang=en`);
      assert.match(await page.text(), /The shop canceled this payment/);
      assert.match(await (await fetch(`${baseUrl}/pay/${payment.id}`)).text(), /فروشگاه این پرداخت را لغو کرد/);
      const outcome = await helper(payment.id, 'bank_outcome', { outcome: 'success' });
      assert.equal(outcome.body.payment.status, 'canceled', 'the bank can no longer pay it');
    });

    it('refuses a paid payment with 409 payment_not_cancelable', async () => {
      const payment = await paid();
      const res = await api.post<PaymentBody>(`/payments/${payment.id}/cancel`);
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'payment_not_cancelable');
    });

    it('racing the bank: one transition, and every answer agrees with it', async () => {
      const h = await getHarness();
      for (let round = 0; round < 4; round++) {
        const payment = await createdPayment(baseUrl, key);
        const [cancel, outcome] = await Promise.all([
          api.post<PaymentBody>(`/payments/${payment.id}/cancel`),
          helper(payment.id, 'bank_outcome', { outcome: 'success' }),
        ]);
        const row = await h.db
          .selectFrom('payments')
          .select(['status', 'version'])
          .where('id', '=', payment.id)
          .executeTakeFirstOrThrow();
        assert.equal(row.version, 2, 'exactly one transition');
        if (row.status === 'canceled') {
          assert.equal(cancel.status, 200);
          assert.equal(outcome.body.payment.status, 'canceled');
        } else {
          assert.equal(row.status, 'paid');
          assert.equal(cancel.body.code, 'payment_not_cancelable');
          assert.equal(outcome.body.payment.status, 'paid');
        }
      }
    });
  });

  describe('reverse', () => {
    it('reverses a paid payment now with one bank reversal, and answers the same again', async () => {
      const payment = await paid();
      const reversed = await api.post<PaymentBody>(`/payments/${payment.id}/reverse`);
      assert.equal(reversed.status, 200, reversed.text);
      assert.equal(reversed.body.payment.status, 'reversed');
      assert.equal(reversed.body.payment.refunded_amount, payment.amount);
      assert.equal(reversed.body.payment.fee, 0);
      assert.equal((await api.post<PaymentBody>(`/payments/${payment.id}/reverse`)).body.payment.status, 'reversed');
      const verify = await api.post<PaymentBody>(`/payments/${payment.id}/verify`, { amount: payment.amount });
      assert.equal(verify.body.code, 'verify_deadline_passed');
      const reversals = await bankOperations(payment.id, 'reverse');
      assert.equal(reversals.length, 1);
    });

    it('refuses a created or verified payment with 409 payment_not_reversible', async () => {
      const created = await createdPayment(baseUrl, key);
      assert.equal(
        (await api.post<PaymentBody>(`/payments/${created.id}/reverse`)).body.code,
        'payment_not_reversible',
      );
      const payment = await paid();
      await api.post(`/payments/${payment.id}/verify`, { amount: payment.amount });
      const res = await api.post<PaymentBody>(`/payments/${payment.id}/reverse`);
      assert.equal(res.status, 409);
      assert.equal(res.body.code, 'payment_not_reversible');
    });

    it('racing verify: exactly one of them wins, and the money moves once', async () => {
      const h = await getHarness();
      for (let round = 0; round < 4; round++) {
        const payment = await paid();
        const [reverse, verify] = await Promise.all([
          api.post<PaymentBody>(`/payments/${payment.id}/reverse`),
          api.post<PaymentBody>(`/payments/${payment.id}/verify`, { amount: payment.amount }),
        ]);
        const row = await h.db
          .selectFrom('payments')
          .select(['status', 'version'])
          .where('id', '=', payment.id)
          .executeTakeFirstOrThrow();
        assert.equal(row.version, 3, 'paid, then exactly one more transition');
        const reversals = await bankOperations(payment.id, 'reverse');
        if (row.status === 'reversed') {
          assert.equal(reverse.status, 200);
          assert.equal(verify.body.code, 'verify_deadline_passed');
          assert.equal(reversals.length, 1);
        } else {
          assert.equal(row.status, 'verified');
          assert.equal(verify.status, 200);
          assert.equal(reverse.body.code, 'payment_not_reversible');
          assert.equal(reversals.length, 0);
        }
      }
    });
  });

  describe('cancel and reverse in every state', () => {
    it('answer by the status the payment is in', async () => {
      // A bank that confirms a delayed payment only after ten minutes, so `pending` stays pending.
      const slowBank = await apiWith({ BANK_RECONFIRM_AFTER_SECONDS: '600' });
      /** A payment brought to `status` through the API alone. */
      const inStatus = async (status: string): Promise<Payment> => {
        const p = await createdPayment(slowBank, key);
        const outcome = (o: string) => helper(p.id, 'bank_outcome', { outcome: o });
        if (status === 'pending') await outcome('delay');
        if (status === 'failed') await outcome('failure');
        if (status === 'canceled') await outcome('cancel');
        if (status === 'expired') await helper(p.id, 'advance', { seconds: 24 * 3600 });
        if (['paid', 'verified', 'reversed', 'refunded'].includes(status)) await outcome('success');
        if (status === 'verified' || status === 'refunded')
          await api.post(`/payments/${p.id}/verify`, { amount: p.amount });
        if (status === 'reversed') await api.post(`/payments/${p.id}/reverse`);
        if (status === 'refunded') await api.post(`/payments/${p.id}/refunds`, { destination_iban: REFUND_IBAN });
        const now = (await api.get<PaymentBody>(`/payments/${p.id}`)).body.payment;
        assert.equal(now.status, status);
        return now;
      };
      // [status, cancel answers, reverse answers]: a code is a refusal, a status the payment's answer.
      const table: [string, string, string][] = [
        ['pending', 'payment_not_cancelable', 'payment_not_reversible'],
        ['failed', 'payment_not_cancelable', 'payment_not_reversible'],
        ['canceled', 'payment_not_cancelable', 'payment_not_reversible'],
        ['expired', 'payment_not_cancelable', 'payment_not_reversible'],
        ['verified', 'payment_not_cancelable', 'payment_not_reversible'],
        ['reversed', 'payment_not_cancelable', 'reversed'],
        ['refunded', 'payment_not_cancelable', 'payment_not_reversible'],
      ];
      for (const [status, cancelAnswer, reverseAnswer] of table) {
        const p = await inStatus(status);
        for (const [action, expected] of [
          ['cancel', cancelAnswer],
          ['reverse', reverseAnswer],
        ] as const) {
          const res = await api.post<PaymentBody>(`/payments/${p.id}/${action}`);
          const answer = res.status === 200 ? res.body.payment.status : res.body.code;
          assert.equal(answer, expected, `${action} of a ${status} payment`);
          if (res.status !== 200) assert.equal(res.status, 409);
        }
        assert.equal(
          (await api.get<PaymentBody>(`/payments/${p.id}`)).body.payment.status,
          status,
          'a refusal changes nothing',
        );
      }
    });
  });

  describe('test helpers', () => {
    it('bank_outcome does what each bank button does', async () => {
      const expected = { success: 'paid', failure: 'failed', cancel: 'canceled', delay: 'pending' } as const;
      for (const [outcome, status] of Object.entries(expected)) {
        const payment = await createdPayment(baseUrl, key);
        const res = await helper(payment.id, 'bank_outcome', { outcome });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.payment.status, status, outcome);
      }
      const created = await createdPayment(baseUrl, key);
      assert.equal((await helper(created.id, 'bank_outcome', { outcome: 'maybe' })).body.code, 'validation_failed');
    });

    it('advance past expires_at expires the payment before the answer', async () => {
      const payment = await createdPayment(baseUrl, key);
      const ttl = (Date.parse(payment.expires_at) - Date.parse(payment.created_at)) / 1000;
      const res = await helper(payment.id, 'advance', { seconds: ttl + 1 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.payment.status, 'expired');
      assert.equal((await api.get<PaymentBody>(`/payments/${payment.id}`)).body.payment.status, 'expired');
    });

    it('pay, then advance past verify_deadline_at: reversed at once, with its event', async () => {
      const rcv = await startReceiver();
      try {
        const local = client(baseUrl, (await newMerchant()).key);
        const endpoint = await local.post<{ secret: string }>('/webhook_endpoints', {
          url: rcv.url,
          events: ['payment.reversed'],
        });
        rcv.secrets.push(endpoint.body.secret);
        const created = await local.post<PaymentBody>('/payments', paymentRequest());
        const id = created.body.payment.id;
        const payment = (
          await local.post<PaymentBody>(`/test_helpers/payments/${id}/bank_outcome`, { outcome: 'success' })
        ).body.payment;
        const window = (Date.parse(payment.verify_deadline_at!) - Date.parse(payment.paid_at!)) / 1000;
        const started = Date.now();
        const res = await local.post<PaymentBody>(`/test_helpers/payments/${id}/advance`, { seconds: window });
        assert.equal(res.body.payment.status, 'reversed');
        const [event] = await rcv.waitForDeliveries(
          (d) => d.event.type === 'payment.reversed' && d.event.data.payment?.id === id,
        );
        assert.ok(Date.now() - started < 15_000, 'within seconds, not the verify window');
        assert.equal(event!.event.data.payment?.status, 'reversed');
      } finally {
        await rcv.close();
      }
    });

    it('answers a live key with 403 test_mode_only and changes nothing', async () => {
      const m = await liveMerchant();
      const live = client(baseUrl, m.liveKey);
      const created = await live.post<PaymentBody>('/payments', {
        ...paymentRequest(),
        callback_url: `https://${LIVE_DOMAIN}/return`,
      });
      assert.equal(created.status, 201, created.text);
      for (const [what, body] of [
        ['bank_outcome', { outcome: 'success' }],
        ['advance', { seconds: 60 }],
      ] as const) {
        const res = await live.post<PaymentBody>(`/test_helpers/payments/${created.body.payment.id}/${what}`, body);
        assert.equal(res.status, 403, what);
        assert.equal(res.body.code, 'test_mode_only');
      }
      assert.equal(
        (await live.get<PaymentBody>(`/payments/${created.body.payment.id}`)).body.payment.status,
        'created',
      );
    });
  });

  describe('events', () => {
    let rcv: Receiver;
    before(async () => {
      rcv = await startReceiver();
    });
    after(async () => {
      await rcv.close();
    });

    it('every change of a payment and of a refund is delivered, with the metadata', async () => {
      const localKey = (await newMerchant()).key;
      const local = client(baseUrl, localKey);
      const endpoint = await local.post<{ secret: string }>('/webhook_endpoints', { url: rcv.url });
      rcv.secrets.push(endpoint.body.secret);
      const of =
        (id: string, type: string) => (d: { event: { type: string; data: { payment?: Payment; refund?: Refund } } }) =>
          d.event.type === type &&
          (d.event.data.payment?.id === id || d.event.data.refund?.id === id || d.event.data.refund?.payment_id === id);

      const created = (
        await local.post<PaymentBody>('/payments', paymentRequest({ amount: 1_000_000, metadata: { order: '9' } }))
      ).body.payment;
      await local.post(`/test_helpers/payments/${created.id}/bank_outcome`, { outcome: 'success' });
      await local.post(`/payments/${created.id}/verify`, { amount: 1_000_000 });
      const partial = await local.post<{ refund: Refund }>(`/payments/${created.id}/refunds`, {
        destination_iban: REFUND_IBAN,
        amount: 400_000,
      });
      await approveTypedIban(partial.body.refund);
      await waitForRefund(baseUrl, localKey, partial.body.refund.id, 'succeeded');
      const rest = await local.post<{ refund: Refund }>(`/payments/${created.id}/refunds`, {
        destination_iban: REFUND_IBAN,
      });
      assert.equal(rest.status, 201, rest.text);
      await approveTypedIban(rest.body.refund);

      for (const type of [
        'payment.created',
        'payment.paid',
        'payment.verified',
        'payment.partially_refunded',
        'payment.refunded',
      ]) {
        const [d] = await rcv.waitForDeliveries(of(created.id, type));
        assert.deepEqual(d!.event.data.payment?.metadata, { order: '9' }, type);
        assert.ok(d!.verifiedWith.length > 0, `${type} is signed`);
      }
      for (const type of ['refund.created', 'refund.succeeded']) {
        const deliveries = await rcv.waitForDeliveries(of(created.id, type), 2);
        assert.deepEqual(
          deliveries.map((d) => d.event.data.refund!.id).sort(),
          [partial.body.refund.id, rest.body.refund.id].sort(),
          type,
        );
      }

      const canceled = (await local.post<PaymentBody>('/payments', paymentRequest())).body.payment;
      await local.post(`/payments/${canceled.id}/cancel`);
      await rcv.waitForDeliveries(of(canceled.id, 'payment.canceled'));
      const reversed = (await local.post<PaymentBody>('/payments', paymentRequest())).body.payment;
      await local.post(`/test_helpers/payments/${reversed.id}/bank_outcome`, { outcome: 'success' });
      await local.post(`/payments/${reversed.id}/reverse`);
      await rcv.waitForDeliveries(of(reversed.id, 'payment.reversed'));
      const pending = (await local.post<PaymentBody>('/payments', paymentRequest())).body.payment;
      await local.post(`/test_helpers/payments/${pending.id}/bank_outcome`, { outcome: 'delay' });
      await rcv.waitForDeliveries(of(pending.id, 'payment.pending'));
      const failed = (await local.post<PaymentBody>('/payments', paymentRequest())).body.payment;
      await local.post(`/test_helpers/payments/${failed.id}/bank_outcome`, { outcome: 'failure' });
      await rcv.waitForDeliveries(of(failed.id, 'payment.failed'));
      const expired = (await local.post<PaymentBody>('/payments', paymentRequest())).body.payment;
      await local.post(`/test_helpers/payments/${expired.id}/advance`, { seconds: 24 * 3600 });
      await rcv.waitForDeliveries(of(expired.id, 'payment.expired'));
    });
  });
});
