import assert from 'node:assert/strict';
import { getHarness, newMerchant } from '../support/harness.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { client } from '../support/http.ts';
import { createdPayment, paidPayment } from '../support/payments.ts';
import {
  approveTypedIban,
  REFUND_IBAN,
  refundsAtBank,
  verifiedPayment,
  waitForRefund,
  type RefundBody,
} from '../support/refunds.ts';
import type { ErrorBody } from '../../src/api/schemas.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';

describe('refunds', () => {
  it('a partial refund makes the payment partially_refunded, a second one for the rest makes it refunded', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 1_000_000 });

    const first = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 300_000,
      reason: 'One notebook returned',
    });
    assert.equal(first.status, 201, first.text);
    // A typed IBAN is held for the operator: the key alone pays nothing.
    assert.deepEqual([first.body.refund.status, first.body.refund.held_for], ['awaiting_approval', 'typed_iban']);
    assert.equal(first.body.refund.amount, 300_000);
    assert.equal(first.body.refund.payment_id, payment.id);
    assert.equal(first.body.refund.reason, 'One notebook returned');
    const afterFirst = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.equal(afterFirst.body.payment.status, 'partially_refunded');
    assert.equal(afterFirst.body.payment.refunded_amount, 300_000);
    assert.deepEqual(await refundsAtBank(payment.id), [], 'nothing paid before the approval');
    await approveTypedIban(first.body.refund);
    const succeeded = await waitForRefund(h.baseUrl, m.key, first.body.refund.id, 'succeeded');
    assert.ok(succeeded.succeeded_at !== null);

    // No amount: everything that is left.
    const rest = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, { destination_iban: REFUND_IBAN });
    assert.equal(rest.status, 201, rest.text);
    assert.equal(rest.body.refund.amount, 700_000);
    assert.equal(rest.body.refund.reason, null);
    await approveTypedIban(rest.body.refund);
    await waitForRefund(h.baseUrl, m.key, rest.body.refund.id, 'succeeded');
    const after = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.equal(after.body.payment.status, 'refunded');
    assert.equal(after.body.payment.refunded_amount, 1_000_000);
    assert.equal(after.body.payment.fee, payment.fee, 'the fee of the verified payment stays');

    const list = await api.get<{ data: Refund[]; has_more: boolean }>(`/payments/${payment.id}/refunds`);
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data.map((r) => r.id).sort(), [first.body.refund.id, rest.body.refund.id].sort());
    assert.ok(list.body.data.every((r) => r.status === 'succeeded'));

    const again = await api.post<ErrorBody>(`/payments/${payment.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 10_000,
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.code, 'payment_not_refundable');

    const ledger = await refundsAtBank(payment.id);
    assert.deepEqual(
      ledger.map((op) => Number(op.amount)).sort((a, b) => a - b),
      [300_000, 700_000],
    );

    // Each refund's final status is an event for webhooks.
    const events = await api.get<{ data: { type: string; data: { refund?: Refund } }[] }>(
      '/events?type=refund.succeeded',
    );
    assert.deepEqual(
      events.body.data.map((e) => e.data.refund?.id).sort(),
      [first.body.refund.id, rest.body.refund.id].sort(),
    );
    assert.ok(events.body.data.every((e) => e.data.refund?.status === 'succeeded'));
  });

  it('a full refund in one call makes the payment refunded', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 250_000 });
    const res = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, { destination_iban: REFUND_IBAN });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.refund.amount, 250_000);
    await waitForRefund(h.baseUrl, m.key, res.body.refund.id, 'succeeded');
    const after = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.equal(after.body.payment.status, 'refunded');
    assert.equal(after.body.payment.refunded_amount, 250_000);
  });

  it('refuses more than is left with 422 refund_exceeds_amount and writes nothing', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 100_000 });
    const res = await api.post<ErrorBody>(`/payments/${payment.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 100_001,
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'refund_exceeds_amount');
    const rows = await h.db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute();
    assert.equal(rows.length, 0);
    const after = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.equal(after.body.payment.status, 'verified');
    assert.equal(after.body.payment.refunded_amount, 0);
  });

  it('refuses a refund of a payment that is not verified with 409 payment_not_refundable', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const created = await createdPayment(h.baseUrl, m.key);
    const paid = await paidPayment(h.baseUrl, m.key);
    for (const payment of [created, paid]) {
      const res = await api.post<ErrorBody>(
        `/payments/${payment.id}/refunds`,
        { destination_iban: REFUND_IBAN, amount: 10_000 },
        { idempotencyKey: `refused-${payment.id}` },
      );
      assert.equal(res.status, 409, res.text);
      assert.equal(res.body.code, 'payment_not_refundable');
    }
    const rows = await h.db
      .selectFrom('refunds')
      .select('id')
      .where('payment_id', 'in', [created.id, paid.id])
      .execute();
    assert.equal(rows.length, 0);
    const keys = await h.db
      .selectFrom('idempotency_keys')
      .select('idempotency_key')
      .where('merchant_id', '=', m.merchantId)
      .where('operation', '=', 'create_refund')
      .execute();
    assert.deepEqual(keys, [], 'a refused refund leaves no Idempotency-Key record either');
  });

  it('validates the body: amount a positive integer, reason text, no unknown fields', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key);
    for (const body of [
      { amount: 0 },
      { amount: 1.5 },
      { amount: '1000' },
      { reason: 'x'.repeat(256) },
      { reason: '' },
      { refund: true },
    ]) {
      const res = await api.post<ErrorBody>(`/payments/${payment.id}/refunds`, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.body.code, 'validation_failed');
    }
    const rows = await h.db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute();
    assert.equal(rows.length, 0);
  });

  it('answers 404 refund_not_found for an unknown refund', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const res = await client(h.baseUrl, m.key).get<ErrorBody>('/refunds/3f1d2c4b-0000-4000-8000-000000000000');
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'refund_not_found');
  });

  it('ten concurrent refunds of 40% each never refund more than the amount; the rest get 422 refund_exceeds_amount', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 1_000_000 });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.post<RefundBody & ErrorBody>(
          `/payments/${payment.id}/refunds`,
          { destination_iban: REFUND_IBAN, amount: 400_000 },
          { idempotencyKey: `race-${i}` },
        ),
      ),
    );
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    assert.equal(accepted.length, 2, results.map((r) => `${r.status} ${r.text}`).join('\n'));
    for (const r of refused) {
      assert.equal(r.status, 422, r.text);
      assert.equal(r.body.code, 'refund_exceeds_amount');
    }
    for (const r of accepted) {
      await approveTypedIban(r.body.refund);
      await waitForRefund(h.baseUrl, m.key, r.body.refund.id, 'succeeded');
    }

    const after = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.equal(after.body.payment.refunded_amount, 800_000);
    assert.equal(after.body.payment.status, 'partially_refunded');
    const rows = await h.db.selectFrom('refunds').selectAll().where('payment_id', '=', payment.id).execute();
    assert.equal(rows.length, 2);
    const ledger = await refundsAtBank(payment.id);
    assert.equal(ledger.length, 2);
    assert.equal(
      ledger.reduce((sum, op) => sum + Number(op.amount), 0),
      800_000,
    );
    assert.deepEqual(
      ledger.map((op) => op.operation_key).sort(),
      accepted.map((r) => `refund-payout:${r.body.refund.id}`).sort(),
    );
    await assertLedgerBalanced(h.db, 'after ten concurrent refunds', { merchantIds: [m.merchantId] });
  });

  it('replays a refund for the same Idempotency-Key and body, and refuses the key with another body', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 500_000 });
    const first = await api.post<RefundBody>(
      `/payments/${payment.id}/refunds`,
      { destination_iban: REFUND_IBAN, amount: 500_000, reason: 'cancelled order' },
      { idempotencyKey: 'refund-once' },
    );
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    await waitForRefund(h.baseUrl, m.key, first.body.refund.id, 'succeeded');

    // The payment is now fully refunded, yet the retry gets the first answer, not a refusal.
    const replay = await api.post<RefundBody>(
      `/payments/${payment.id}/refunds`,
      { destination_iban: REFUND_IBAN, reason: 'cancelled order', amount: 500_000 },
      { idempotencyKey: 'refund-once' },
    );
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, first.body);

    const other = await api.post<ErrorBody>(
      `/payments/${payment.id}/refunds`,
      { destination_iban: REFUND_IBAN, amount: 100_000 },
      { idempotencyKey: 'refund-once' },
    );
    assert.equal(other.status, 422);
    assert.equal(other.body.code, 'idempotency_key_reused');

    const rows = await h.db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute();
    assert.equal(rows.length, 1);
    const ledger = await refundsAtBank(payment.id);
    assert.equal(ledger.length, 1);
  });
});
