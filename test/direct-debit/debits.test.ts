/**
 * Debits end to end (docs/API.md#debits, docs/SUBSCRIPTIONS.md#debits-are-payments) on the real stack:
 * the API, the debit workflow on the suite's worker, MySQL, and the Payman simulator as its own
 * process. A debit within the limits ends `verified` through the same records as a card payment (its
 * ledger balances, `payment.verified` is delivered); a debit past a limit is refused before the
 * provider is asked; concurrent debits never pass the daily count; one Idempotency-Key is one debit; a
 * debit of a mandate not active is refused; a refusal at the provider fails the payment and gives the
 * count back.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { computeFee } from '../../src/domain/payment.ts';
import type { Debit, Mandate } from '../../src/domain/mandate-schemas.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Harness } from '../support/harness.ts';
import { waitFor } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { approveTypedIban, REFUND_IBAN, waitForRefund, type RefundBody } from '../support/refunds.ts';
import { mandateOf, paymanCalls, paymanFault } from '../support/mandates.ts';
import type { Receiver } from '../support/receiver.ts';
import { closeReceivers, forPayment, merchantWithReceiver, type Api } from '../support/webhooks.ts';

interface Debited {
  debit: Debit;
  payment: Payment;
}
interface Refusal {
  code: string;
  message: string;
  request_id: string;
  details?: { path: string; message: string }[];
}

describe('direct debits (API, workflow, ledger, simulator)', function () {
  this.timeout(120_000);
  let h: Harness;
  let api: Api;
  let rcv: Receiver;
  let merchantId: string;
  let key: string;

  before(async () => {
    const m = await merchantWithReceiver(['payment.verified', 'payment.failed']);
    ({ h, api, rcv } = m);
    merchantId = m.merchant.merchantId;
    key = m.merchant.key;
  });
  after(async () => {
    await paymanFault('checkout', 'clear');
    await closeReceivers();
  });

  const debit = (mandate: Mandate, amount: number, key: string | undefined = randomUUID(), ref = 'invoice-1') =>
    api.post<Debited & Refusal>(
      `/mandates/${mandate.id}/debits`,
      { amount, merchant_reference: ref, description: 'monthly plan' },
      key === undefined ? {} : { idempotencyKey: key },
    );

  const settled = (paymentId: string) =>
    waitFor(`payment ${paymentId} settled`, async () => {
      const res = await api.get<{ payment: Payment }>(`/payments/${paymentId}`);
      // `paid` is a step on the way: a debit ends verified or failed.
      return ['verified', 'failed'].includes(res.body.payment.status) ? res.body.payment : undefined;
    });

  const usage = async (mandateId: string) =>
    Object.fromEntries(
      (await h.db.selectFrom('mandate_usage').selectAll().where('mandate_id', '=', mandateId).execute()).map((u) => [
        u.period.slice(0, 1),
        u.used,
      ]),
    );

  it('a debit within the limits ends verified, with its fee, balanced postings and payment.verified', async () => {
    const mandate = await mandateOf(h, api, { max_amount: 5_000_000, max_daily_count: 3, max_monthly_count: 10 });
    const res = await debit(mandate, 1_500_000);
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.payment.method, 'direct_debit');
    assert.equal(res.body.payment.status, 'created');
    assert.equal(res.body.debit.mandate_id, mandate.id);
    assert.equal(res.body.debit.payment_id, res.body.payment.id);

    const payment = await settled(res.body.payment.id);
    assert.equal(payment.status, 'verified');
    assert.equal(payment.method, 'direct_debit');
    assert.equal(payment.merchant_reference, 'invoice-1');
    assert.ok(payment.reference_id !== null && payment.paid_at !== null && payment.verified_at !== null);
    const merchant = await h.db
      .selectFrom('merchants')
      .select(['fee_bps', 'fee_min', 'fee_max'])
      .where('id', '=', merchantId)
      .executeTakeFirstOrThrow();
    assert.equal(
      payment.fee,
      computeFee(1_500_000, { bps: merchant.fee_bps, min: merchant.fee_min, max: merchant.fee_max }),
    );

    const postings = await h.db
      .selectFrom('ledger_postings')
      .select('movement')
      .where('payment_id', '=', payment.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      postings.map((p) => p.movement),
      ['capture', 'verify'],
      'the postings of a verified card payment',
    );
    await assertLedgerBalanced(h.db, 'after a debit', { merchantIds: [merchantId] });

    const [delivered] = await rcv.waitForDeliveries(forPayment(payment.id, 'payment.verified'));
    assert.equal(delivered!.event.data.payment?.method, 'direct_debit');
    assert.ok(delivered!.verifiedWith.length > 0, 'the webhook is signed');

    const listed = await api.get<{ data: Payment[] }>('/payments?merchant_reference=invoice-1');
    assert.ok(listed.body.data.some((p) => p.id === payment.id && p.method === 'direct_debit'));
    const row = await h.db
      .selectFrom('mandate_debits')
      .selectAll()
      .where('payment_id', '=', payment.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'taken');
  });

  it('over the per-debit amount or the daily count: refused before the provider, nothing written', async () => {
    const mandate = await mandateOf(h, api, { max_amount: 2_000_000, max_daily_count: 1, max_monthly_count: 5 });
    const before = await paymanCalls();
    const tooMuch = await debit(mandate, 2_000_001);
    assert.equal(tooMuch.status, 422, tooMuch.text);
    assert.equal(tooMuch.body.code, 'mandate_limit_exceeded');
    assert.match(tooMuch.body.request_id, /^req_/);
    assert.deepEqual(await paymanCalls(), before, 'the provider was not asked');

    const first = await debit(mandate, 1_000_000);
    assert.equal(first.status, 201, first.text);
    await settled(first.body.payment.id);
    const afterFirst = await paymanCalls();
    const second = await debit(mandate, 1_000_000);
    assert.equal(second.status, 422, second.text);
    assert.equal(second.body.code, 'mandate_limit_exceeded');
    assert.deepEqual(second.body.details?.[0]?.message, 'daily_count');
    assert.deepEqual(await paymanCalls(), afterFirst, 'the provider was not asked');
    const debits = await h.db.selectFrom('mandate_debits').select('id').where('mandate_id', '=', mandate.id).execute();
    assert.equal(debits.length, 1, 'a refused debit writes nothing');
  });

  it('ten concurrent debits of a mandate of three a day: exactly three are taken', async () => {
    const mandate = await mandateOf(h, api, { max_amount: 1_000_000, max_daily_count: 3, max_monthly_count: 30 });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => debit(mandate, 100_000, randomUUID(), `race-${i}`)),
    );
    const admitted = results.filter((r) => r.status === 201);
    assert.equal(admitted.length, 3, results.map((r) => r.status).join(','));
    assert.ok(
      results
        .filter((r) => r.status !== 201)
        .every((r) => r.status === 422 && r.body.code === 'mandate_limit_exceeded'),
    );
    const payments = await Promise.all(admitted.map((r) => settled(r.body.payment.id)));
    assert.deepEqual(
      payments.map((p) => p.status),
      ['verified', 'verified', 'verified'],
    );
    assert.deepEqual(await usage(mandate.id), { d: 3, m: 3 });
  });

  it('one Idempotency-Key is one debit: the same answer again; another body is refused', async () => {
    const mandate = await mandateOf(h, api, { max_amount: 1_000_000, max_daily_count: 5, max_monthly_count: 5 });
    const key = randomUUID();
    const first = await debit(mandate, 300_000, key);
    assert.equal(first.status, 201, first.text);
    const again = await debit(mandate, 300_000, key);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    const other = await debit(mandate, 400_000, key);
    assert.equal(other.status, 422);
    assert.equal(other.body.code, 'idempotency_key_reused');
    await settled(first.body.payment.id);
    assert.deepEqual(await usage(mandate.id), { d: 1, m: 1 });
  });

  it('a pending or canceled mandate is not debited', async () => {
    const pending = await mandateOf(h, api, { max_amount: 1_000_000, max_daily_count: 2, max_monthly_count: 5 }, false);
    const before = await paymanCalls();
    const onPending = await debit(pending, 100_000);
    assert.equal(onPending.status, 409, onPending.text);
    assert.equal(onPending.body.code, 'mandate_not_active');

    const active = await mandateOf(h, api, { max_amount: 1_000_000, max_daily_count: 2, max_monthly_count: 5 });
    const canceled = await api.post<{ mandate: Mandate }>(`/mandates/${active.id}/cancel`);
    assert.equal(canceled.body.mandate.status, 'canceled');
    const afterCancel = await paymanCalls();
    const onCanceled = await debit(active, 100_000);
    assert.equal(onCanceled.status, 409, onCanceled.text);
    assert.equal(onCanceled.body.code, 'mandate_not_active');
    assert.deepEqual(await paymanCalls(), afterCancel);
    assert.equal(afterCancel.checkout, before.checkout, 'no checkout for either');

    const missing = await api.post<Refusal>(`/mandates/${randomUUID()}/debits`, {
      amount: 1000,
      merchant_reference: 'x',
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'mandate_not_found');
  });

  it('refused by the provider: the payment fails, payment.failed is sent, and the count is given back', async () => {
    const mandate = await mandateOf(h, api, { max_amount: 1_000_000, max_daily_count: 1, max_monthly_count: 5 });
    await paymanFault('checkout', 'refuse');
    let refused: Payment;
    try {
      const res = await debit(mandate, 200_000);
      assert.equal(res.status, 201, res.text);
      refused = await settled(res.body.payment.id);
    } finally {
      await paymanFault('checkout', 'clear');
    }
    assert.equal(refused.status, 'failed');
    assert.equal(refused.failure?.code, 'debit_refused');
    await rcv.waitForDeliveries(forPayment(refused.id, 'payment.failed'));
    assert.deepEqual(await usage(mandate.id), { d: 0, m: 0 }, 'the reservation is released');
    const postings = await h.db
      .selectFrom('ledger_postings')
      .select('id')
      .where('payment_id', '=', refused.id)
      .execute();
    assert.equal(postings.length, 0, 'no money moved, nothing posted');
    // The day's one debit is free again.
    const next = await debit(mandate, 200_000);
    assert.equal(next.status, 201, next.text);
    assert.equal((await settled(next.body.payment.id)).status, 'verified');
  });

  it("a debit's refund: no card to claim and no provider refund, so only to an IBAN the operator approves, then paid", async () => {
    const mandate = await mandateOf(h, api, { max_amount: 1_000_000, max_daily_count: 1, max_monthly_count: 5 });
    const res = await debit(mandate, 600_000);
    assert.equal(res.status, 201, res.text);
    const payment = await settled(res.body.payment.id);
    const noIban = await api.post<Refusal>(`/payments/${payment.id}/refunds`, { amount: 100_000 });
    assert.equal(noIban.status, 422, noIban.text);
    assert.equal(noIban.body.code, 'refund_needs_iban');
    const held = await api.post<RefundBody>(
      `/payments/${payment.id}/refunds`,
      { amount: 100_000, destination_iban: REFUND_IBAN },
      { idempotencyKey: randomUUID() },
    );
    assert.equal(held.status, 201, held.text);
    const approved = await approveTypedIban(held.body.refund);
    assert.equal(approved.method, 'iban_payout');
    await waitForRefund(h.baseUrl, key, approved.id, 'succeeded');
    const after = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.equal(after.body.payment.status, 'partially_refunded');
    assert.equal(after.body.payment.refunded_amount, 100_000);
    await assertLedgerBalanced(h.db, "after a debit's refund", { merchantIds: [merchantId] });
  });

  it('bad input gets the documented error and writes nothing', async () => {
    const mandate = await mandateOf(h, api, { max_amount: 1_000_000, max_daily_count: 1, max_monthly_count: 5 });
    for (const body of [
      { amount: 0, merchant_reference: 'a' },
      { amount: 1000 },
      { amount: 1000, merchant_reference: 'a', extra: 1 },
    ]) {
      const res = await api.post<Refusal>(`/mandates/${mandate.id}/debits`, body, { idempotencyKey: randomUUID() });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.code, 'validation_failed');
      assert.match(res.body.request_id, /^req_/);
    }
    const debits = await h.db.selectFrom('mandate_debits').select('id').where('mandate_id', '=', mandate.id).execute();
    assert.equal(debits.length, 0);
  });
});
