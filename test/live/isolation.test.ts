import assert from 'node:assert/strict';
import { getHarness } from '../support/harness.ts';
import { client } from '../support/http.ts';
import { liveMerchant, verifiedLivePayment } from '../support/live.ts';
import { approveTypedIban, REFUND_IBAN, verifiedPayment, waitForRefund } from '../support/refunds.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';

interface Owned {
  owner: string;
  payment: Payment;
  refund: Refund;
}

describe('merchant and mode isolation', () => {
  it("every object endpoint answers 404 for another merchant's or the other mode's payments and refunds, and writes nothing", async () => {
    const h = await getHarness();
    const a = await liveMerchant();
    const b = await liveMerchant();
    const keys: Record<string, string> = {
      'A test': a.testKey,
      'A live': a.liveKey,
      'B test': b.testKey,
      'B live': b.liveKey,
    };

    // Each of A's modes owns a verified, partly refunded payment (test: localhost callback, live: https on its domain).
    const owned: Owned[] = [];
    for (const [owner, payment] of [
      ['A test', await verifiedPayment(h.baseUrl, a.testKey, { amount: 300_000 })],
      ['A live', await verifiedLivePayment(h.baseUrl, a.liveKey, 300_000)],
    ] as const) {
      const res = await client(h.baseUrl, keys[owner]!).post<{ refund: Refund }>(`/payments/${payment.id}/refunds`, {
        destination_iban: REFUND_IBAN,
        amount: 100_000,
      });
      assert.equal(res.status, 201, res.text);
      await approveTypedIban(res.body.refund);
      owned.push({
        owner,
        payment,
        refund: await waitForRefund(h.baseUrl, keys[owner]!, res.body.refund.id, 'succeeded'),
      });
    }

    for (const { owner, payment, refund } of owned) {
      for (const [caller, key] of Object.entries(keys)) {
        const api = client(h.baseUrl, key);
        const calls = {
          'GET /payments/{id}': () => api.get(`/payments/${payment.id}`),
          'POST /payments/{id}/verify': () => api.post(`/payments/${payment.id}/verify`, { amount: payment.amount }),
          'GET /payments/{id}/refunds': () => api.get(`/payments/${payment.id}/refunds`),
          'POST /payments/{id}/refunds': () =>
            api.post(
              `/payments/${payment.id}/refunds`,
              { destination_iban: REFUND_IBAN, amount: 10_000 },
              { idempotencyKey: `probe-${caller.replace(' ', '-')}` },
            ),
          'GET /refunds/{id}': () => api.get(`/refunds/${refund.id}`),
        };
        for (const [endpoint, call] of Object.entries(calls)) {
          const res = await call();
          const label = `${caller} → ${owner}'s object: ${endpoint}`;
          if (caller === owner) {
            if (endpoint !== 'POST /payments/{id}/refunds') assert.equal(res.status, 200, `${label}: ${res.text}`);
            continue;
          }
          assert.equal(res.status, 404, `${label}: ${res.text}`);
          assert.equal(
            res.body.code,
            endpoint === 'GET /refunds/{id}' ? 'refund_not_found' : 'payment_not_found',
            label,
          );
          assert.ok(!res.text.includes(payment.merchant_reference), `${label}: nothing of the object leaks`);
        }
        const list = await api.get<{ data: Payment[] }>('/payments');
        assert.equal(
          list.body.data.some((p) => p.id === payment.id),
          caller === owner,
          `${caller} lists ${owner}'s payment only if it owns it`,
        );
      }
      // Only the owner's two refunds (the one above and its own probe) exist; the strangers' probes wrote nothing.
      const refunds = await h.db
        .selectFrom('refunds')
        .select(['amount', 'mode', 'merchant_id'])
        .where('payment_id', '=', payment.id)
        .execute();
      assert.deepEqual(
        refunds.map((r) => Number(r.amount)).sort((x, y) => x - y),
        [10_000, 100_000],
      );
      assert.ok(refunds.every((r) => r.merchant_id === a.merchantId && r.mode === payment.mode));
    }
    const strangerKeys = await h.db
      .selectFrom('idempotency_keys')
      .select('idempotency_key')
      .where('merchant_id', '=', b.merchantId)
      .execute();
    assert.deepEqual(strangerKeys, [], "a stranger's refund probe leaves no idempotency record");
  });
});
