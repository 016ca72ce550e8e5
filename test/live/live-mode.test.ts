import assert from 'node:assert/strict';
import { getHarness } from '../support/harness.ts';
import { client, request } from '../support/http.ts';
import { LIVE_DOMAIN, liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { approveTypedIban, REFUND_IBAN, waitForRefund } from '../support/refunds.ts';
import { createMerchant } from '../../src/merchants/merchants.ts';
import { createKey } from '../../src/merchants/keys.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';

describe('live mode', () => {
  it('a live payment goes created → paid → verified → partially_refunded with settlement pending, unseen by the test key', async () => {
    const h = await getHarness();
    const m = await liveMerchant();
    const live = client(h.baseUrl, m.liveKey);
    const test = client(h.baseUrl, m.testKey);

    const plainHttp = await live.post<{ code: string }>('/payments', {
      amount: 100_000,
      callback_url: 'http://localhost:8000/r',
      merchant_reference: 'live-http',
    });
    assert.equal(plainHttp.status, 422);
    assert.equal(plainHttp.body.code, 'callback_url_not_allowed');

    const payment = await verifiedLivePayment(h.baseUrl, m.liveKey, 2_000_000);
    assert.equal(payment.mode, 'live');
    assert.equal(payment.status, 'verified');
    assert.equal(payment.settlement_status, 'pending');
    assert.equal(payment.fee, 20_000, '1 % of 2 000 000 rials under the default fee plan');
    assert.ok(payment.callback_url.startsWith(`https://${LIVE_DOMAIN}/`));

    const refund = await live.post<{ refund: Refund }>(
      `/payments/${payment.id}/refunds`,
      { destination_iban: REFUND_IBAN, amount: 500_000 },
      { idempotencyKey: 'live-refund-1' },
    );
    assert.equal(refund.status, 201, refund.text);
    await approveTypedIban(refund.body.refund);
    await waitForRefund(h.baseUrl, m.liveKey, refund.body.refund.id, 'succeeded');
    const after = await live.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.equal(after.body.payment.status, 'partially_refunded');
    assert.equal(after.body.payment.refunded_amount, 500_000);
    assert.equal(after.body.payment.settlement_status, 'pending');

    const testPayments = await test.get<{ data: Payment[] }>('/payments');
    assert.ok(!testPayments.body.data.some((p) => p.id === payment.id), 'test list never shows live payments');
    const livePayments = await live.get<{ data: Payment[] }>('/payments');
    assert.deepEqual(
      livePayments.body.data.map((p) => p.id),
      [payment.id],
    );
    assert.equal((await test.get(`/payments/${payment.id}`)).status, 404);
    assert.equal((await test.get(`/refunds/${refund.body.refund.id}`)).status, 404);
  });

  it('a live key whose merchant has no live mode answers 403 live_mode_not_enabled', async () => {
    const h = await getHarness();
    const m = await createMerchant(h.db, h.config, { name: 'Not yet live', domain: LIVE_DOMAIN });
    const key = await createKey(h.db, m.merchant_id, 'live');
    for (const [method, path] of [
      ['GET', '/api/v1/payments'],
      ['POST', '/api/v1/payments'],
    ] as const) {
      const res = await request<{ code: string }>(h.baseUrl, method, path, {
        key: key.key,
        body: method === 'POST' ? {} : undefined,
      });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'live_mode_not_enabled');
    }
    assert.equal(
      (await request(h.baseUrl, 'GET', '/api/v1/payments', { key: m.test_key })).status,
      200,
      'the test key works meanwhile',
    );
  });
});
