/**
 * Who pays the fee (docs/PAYMENTS.md#who-pays-the-fee) against the real stack: the bank simulator
 * charges a customer-pays payment amount + fee, verify takes the merchant's amount, a live one
 * settles the whole amount, a reversal and a refund give back what the customer paid, and the fee
 * preview answers the same split. The ledger is checked after each test (the suite's root hooks) and
 * here too.
 */
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Settlement, SettlementLine } from '../../src/domain/settlement-schemas.ts';
import { setSettlementIban } from '../../src/settlements/service.ts';
import { bankOperations, payoutTransfers } from '../support/bank.ts';
import { getHarness, liveBankApi, newMerchant } from '../support/harness.ts';
import { client, request } from '../support/http.ts';
import { assertLedgerBalanced } from '../support/ledger.ts';
import { createdLivePayment, liveMerchant } from '../support/live.ts';
import { chooseOutcome, createdPayment, paidPayment, payAtBank, waitForStatus } from '../support/payments.ts';
import { approveTypedIban, REFUND_IBAN, refundsAtBank, waitForRefund, type RefundBody } from '../support/refunds.ts';
import { defaultPlanFee, SETTLEMENT_IBAN, settleNow } from '../support/settlement.ts';

type Body = { payment: Payment; code?: string; message?: string; request_id?: string };

/** What the bank simulator did with the payment's money: its operations, tokens left out. */
async function atBank(paymentId: string) {
  return (await bankOperations(paymentId)).map(({ kind, amount }) => ({ kind, amount }));
}

describe('who pays the fee', () => {
  const A = 1_500_000;
  const F = defaultPlanFee(A); // 15 000
  const C = A + F;

  it('a customer-pays test payment is charged amount + fee at the bank; verify takes the amount, not the charged one', async () => {
    const h = await getHarness();
    const { key, merchantId } = await newMerchant();
    const api = client(h.baseUrl, key);
    const created = await createdPayment(h.baseUrl, key, { amount: A, fee_payer: 'customer' });
    assert.deepEqual([created.fee_payer, created.amount, created.charged_amount, created.fee], ['customer', A, C, 0]);

    // The bank is asked for the charged amount: its token and its confirmation are of C.
    const paid = await paidPayment(h.baseUrl, key, { amount: A, fee_payer: 'customer' });
    assert.equal(paid.charged_amount, C);
    assert.equal(paid.fee, 0);
    assert.deepEqual(
      (await bankOperations(paid.id, 'token')).map((op) => op.amount),
      [C],
    );
    assert.deepEqual(await atBank(paid.id), [{ kind: 'confirm', amount: C }]);

    const charged = await api.post<Body>(`/payments/${paid.id}/verify`, { amount: C });
    assert.equal(charged.status, 422, charged.text);
    assert.equal(charged.body.code, 'amount_mismatch');
    const verified = await api.post<Body>(`/payments/${paid.id}/verify`, { amount: A });
    assert.equal(verified.status, 200, verified.text);
    assert.deepEqual(
      [
        verified.body.payment.status,
        verified.body.payment.fee_payer,
        verified.body.payment.amount,
        verified.body.payment.charged_amount,
        verified.body.payment.fee,
      ],
      ['verified', 'customer', A, C, F],
    );
    // SEP's verify at the return captured C: the merchant's verify asks the bank nothing more.
    assert.deepEqual(await atBank(paid.id), [{ kind: 'confirm', amount: C }]);
    // The record shows the same.
    const read = await api.get<Body>(`/payments/${paid.id}`);
    assert.deepEqual(
      [read.body.payment.fee_payer, read.body.payment.charged_amount, read.body.payment.fee],
      ['customer', C, F],
    );
    // The record keeps the sum create worked out, as itself, and its fee beside it (docs/PAYMENTS.md#how-the-record-keeps-the-charged-sum).
    const row = await h.db
      .selectFrom('payments')
      .select(['amount', 'customer_fee', 'charged_amount'])
      .where('id', '=', paid.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([Number(row.amount), Number(row.customer_fee), Number(row.charged_amount)], [A, F, C]);
    await assertLedgerBalanced(h.db, 'after a customer-pays verify', { merchantIds: [merchantId] });
  });

  it('a customer-pays payment whose row has no charged_amount (a replica of the previous release inserted it) is charged, verified and refunded as amount + customer_fee', async () => {
    const h = await getHarness();
    const { key, merchantId } = await newMerchant();
    const api = client(h.baseUrl, key);
    const created = await createdPayment(h.baseUrl, key, { amount: A, fee_payer: 'customer' });
    // The row as the previous release's create writes it: amount and customer_fee, no charged_amount.
    await sql`UPDATE payments SET charged_amount = NULL WHERE id = ${created.id}`.execute(h.db);
    const stored = await h.db
      .selectFrom('payments')
      .select(['customer_fee', 'charged_amount'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([Number(stored.customer_fee), stored.charged_amount], [F, null]);
    assert.equal((await api.get<Body>(`/payments/${created.id}`)).body.payment.charged_amount, C);

    // The bank is asked for, and confirms, amount + customer_fee; verify takes the amount.
    const paid = await payAtBank(h.baseUrl, key, created);
    assert.equal(paid.charged_amount, C);
    assert.deepEqual(
      (await bankOperations(paid.id, 'token')).map((op) => op.amount),
      [C],
    );
    assert.deepEqual(await atBank(paid.id), [{ kind: 'confirm', amount: C }]);
    const verified = await api.post<Body>(`/payments/${paid.id}/verify`, { amount: A });
    assert.equal(verified.status, 200, verified.text);
    assert.deepEqual([verified.body.payment.charged_amount, verified.body.payment.fee], [C, F]);

    // Refunds are bounded by the same sum: one past it is refused, everything left (a reversal) is all of it.
    const tooMuch = await api.post<RefundBody & { code?: string }>(`/payments/${paid.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: C + 1,
    });
    assert.equal(tooMuch.status, 422, tooMuch.text);
    assert.equal(tooMuch.body.code, 'refund_exceeds_amount');
    const all = await api.post<RefundBody>(`/payments/${paid.id}/refunds`, { destination_iban: REFUND_IBAN });
    assert.equal(all.status, 201, all.text);
    assert.deepEqual([all.body.refund.amount, all.body.refund.method], [C, 'reversal']);
    await waitForRefund(h.baseUrl, key, all.body.refund.id, 'succeeded');
    // Everything left of a payment refunded whole is a reversal at the bank, of the charged sum.
    assert.deepEqual(await atBank(paid.id), [
      { kind: 'confirm', amount: C },
      { kind: 'reverse', amount: C },
    ]);
    const refunded = await api.get<Body>(`/payments/${paid.id}`);
    assert.deepEqual(
      [refunded.body.payment.status, refunded.body.payment.refunded_amount, refunded.body.payment.charged_amount],
      ['refunded', C, C],
    );
    // Nothing of this release wrote the column on the row: it is left for the next release's backfill.
    const after = await h.db
      .selectFrom('payments')
      .select('charged_amount')
      .where('id', '=', paid.id)
      .executeTakeFirstOrThrow();
    assert.equal(after.charged_amount, null);
    await assertLedgerBalanced(h.db, 'after a customer-pays payment without charged_amount', {
      merchantIds: [merchantId],
    });
  });

  it('a merchant-pays payment (the default) is charged its amount and shows charged_amount = amount', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const paid = await paidPayment(h.baseUrl, key, { amount: A });
    assert.deepEqual([paid.fee_payer, paid.charged_amount], ['merchant', A]);
    assert.deepEqual(await atBank(paid.id), [{ kind: 'confirm', amount: A }]);
    const verified = await client(h.baseUrl, key).post<Body>(`/payments/${paid.id}/verify`, { amount: A });
    assert.deepEqual([verified.body.payment.fee, verified.body.payment.charged_amount], [F, A]);
  });

  it('a reversal returns the charged amount at the bank', async () => {
    const h = await getHarness();
    const { key, merchantId } = await newMerchant();
    const paid = await paidPayment(h.baseUrl, key, { amount: A, fee_payer: 'customer' });
    const reversed = await client(h.baseUrl, key).post<Body>(`/payments/${paid.id}/reverse`);
    assert.equal(reversed.status, 200, reversed.text);
    assert.deepEqual(
      [reversed.body.payment.status, reversed.body.payment.refunded_amount, reversed.body.payment.fee],
      ['reversed', C, 0],
    );
    assert.deepEqual(await atBank(paid.id), [
      { kind: 'confirm', amount: C },
      { kind: 'reverse', amount: C },
    ]);
    await assertLedgerBalanced(h.db, 'after a customer-pays reversal', { merchantIds: [merchantId] });
  });

  it('a customer-pays payment may be refunded up to what the customer paid, and no more', async () => {
    const h = await getHarness();
    const { key, merchantId } = await newMerchant();
    const api = client(h.baseUrl, key);
    const paid = await paidPayment(h.baseUrl, key, { amount: A, fee_payer: 'customer' });
    assert.equal((await api.post<Body>(`/payments/${paid.id}/verify`, { amount: A })).status, 200);

    const tooMuch = await api.post<RefundBody & { code?: string }>(`/payments/${paid.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: C + 1,
    });
    assert.equal(tooMuch.status, 422, tooMuch.text);
    assert.equal(tooMuch.body.code, 'refund_exceeds_amount');
    const part = await api.post<RefundBody>(`/payments/${paid.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: A,
    });
    assert.equal(part.status, 201, part.text);
    await approveTypedIban(part.body.refund);
    await waitForRefund(h.baseUrl, key, part.body.refund.id, 'succeeded');
    assert.equal((await api.get<Body>(`/payments/${paid.id}`)).body.payment.status, 'partially_refunded');
    // What is left is the fee the customer paid: everything left (no amount) returns it.
    const rest = await api.post<RefundBody>(`/payments/${paid.id}/refunds`, { destination_iban: REFUND_IBAN });
    assert.equal(rest.status, 201, rest.text);
    assert.equal(rest.body.refund.amount, F);
    await approveTypedIban(rest.body.refund);
    await waitForRefund(h.baseUrl, key, rest.body.refund.id, 'succeeded');
    const refunded = await api.get<Body>(`/payments/${paid.id}`);
    assert.deepEqual(
      [refunded.body.payment.status, refunded.body.payment.refunded_amount, refunded.body.payment.fee],
      ['refunded', C, F],
    );
    assert.deepEqual(
      (await refundsAtBank(paid.id)).map((op) => op.amount),
      [A, F],
    );
    await assertLedgerBalanced(h.db, 'after a customer-pays payment refunded in full', { merchantIds: [merchantId] });
  });

  it('a live customer-pays payment verified and settled pays the merchant the whole amount', async function () {
    this.timeout(180_000);
    const h = await getHarness();
    const m = await liveMerchant();
    await setSettlementIban(h.db, m.merchantId, SETTLEMENT_IBAN);
    const liveApi = await liveBankApi();
    const amount = 2_000_000;
    const fee = defaultPlanFee(amount);
    const created = await createdLivePayment(liveApi, m.liveKey, amount, { fee_payer: 'customer' });
    assert.equal(created.charged_amount, amount + fee);
    const answered = await chooseOutcome(liveApi, created.id, 'success');
    assert.equal(answered.status, 303, answered.text);
    await waitForStatus(liveApi, m.liveKey, created.id, 'paid');
    const verified = await client(liveApi, m.liveKey).post<Body>(`/payments/${created.id}/verify`, { amount });
    assert.equal(verified.status, 200, verified.text);
    assert.equal(verified.body.payment.fee, fee);

    const { id, outcome } = await settleNow(m.merchantId);
    assert.deepEqual(outcome, { result: 'paid', settlement_id: id, net: amount });
    const got = await client(h.baseUrl, m.liveKey).get<{ settlement: Settlement; lines: SettlementLine[] }>(
      `/settlements/${id}`,
    );
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(
      [got.body.settlement.gross, got.body.settlement.fees, got.body.settlement.net],
      [amount + fee, fee, amount],
    );
    assert.deepEqual(
      (await payoutTransfers(id)).map((t) => t.amount),
      [amount],
    );
    await assertLedgerBalanced(h.db, 'after a customer-pays live settlement', { merchantIds: [m.merchantId] });
  });

  it('the fee preview answers the split from the merchant’s fee plan, for either payer', async () => {
    const h = await getHarness();
    const { key } = await newMerchant();
    const api = client(h.baseUrl, key);
    const customer = await api.get(`/fees?amount=${A}&fee_payer=customer`);
    assert.equal(customer.status, 200, customer.text);
    assert.deepEqual(customer.body, {
      amount: A,
      fee_payer: 'customer',
      fee: F,
      charged_amount: C,
      merchant_receives: A,
    });
    const merchant = await api.get(`/fees?amount=${A}`);
    assert.deepEqual(merchant.body, {
      amount: A,
      fee_payer: 'merchant',
      fee: F,
      charged_amount: A,
      merchant_receives: A - F,
    });
    // The preview is what create then does.
    const created = await createdPayment(h.baseUrl, key, { amount: A, fee_payer: 'customer' });
    assert.equal(created.charged_amount, customer.body.charged_amount);

    for (const query of ['?amount=1500000&fee_payer=bank', '?fee_payer=customer', '?amount=abc', '?amount=0']) {
      const refused = await api.get<{ code: string; message: string; request_id: string }>(`/fees${query}`);
      assert.equal(refused.status, 422, `${query}: ${refused.text}`);
      assert.equal(refused.body.code, 'validation_failed');
      assert.ok(refused.body.message !== '' && refused.body.request_id !== '');
    }
    const anonymous = await request<{ code: string }>(h.baseUrl, 'GET', `/api/v1/fees?amount=${A}`, {});
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.code, 'missing_api_key');
  });

  it('a customer-pays create whose amount + fee passes AMOUNT_MAX is 422 charged_amount_exceeds_max and writes nothing', async () => {
    const h = await getHarness();
    const { key, merchantId } = await newMerchant();
    const max = h.config.AMOUNT_MAX; // 500,000,000: the default plan's fee there is its maximum, 400,000
    const count = async () =>
      Number(
        (
          await h.db
            .selectFrom('payments')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('merchant_id', '=', merchantId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const create = (amount: number, fee_payer: 'merchant' | 'customer', idempotencyKey?: string) =>
      request<Body & { details?: { path: string; message: string }[] }>(h.baseUrl, 'POST', '/api/v1/payments', {
        key,
        body: {
          amount,
          callback_url: 'http://localhost:8000/return',
          merchant_reference: `max-${fee_payer}-${amount}`,
          fee_payer,
        },
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      });
    const idem = `charged-max-${Date.now()}`;
    for (const [amount, idempotencyKey] of [
      [max, idem],
      [max - 399_999, undefined],
    ] as const) {
      const refused = await create(amount, 'customer', idempotencyKey);
      assert.equal(refused.status, 422, refused.text);
      assert.equal(refused.body.code, 'charged_amount_exceeds_max');
      assert.match(
        refused.body.message ?? '',
        new RegExp(
          `${amount + 400_000} rials .* more than the largest payment, ${max} rials: ask for at most ${max - 400_000} rials`,
        ),
      );
      assert.ok((refused.body.request_id ?? '') !== '');
      assert.deepEqual(
        refused.body.details?.map((d) => d.path),
        ['amount'],
      );
    }
    assert.equal(await count(), 0, 'no payment written');
    // The fee preview quotes nothing create would refuse: the same code and message, by the same rule.
    const api = client(h.baseUrl, key);
    const quoted = await api.get<Body & { charged_amount?: number }>(`/fees?amount=${max}&fee_payer=customer`);
    assert.equal(quoted.status, 422, quoted.text);
    assert.equal(quoted.body.code, 'charged_amount_exceeds_max');
    assert.match(quoted.body.message ?? '', new RegExp(`ask for at most ${max - 400_000} rials`));
    for (const [query, charged] of [
      [`?amount=${max - 400_000}&fee_payer=customer`, max],
      [`?amount=${max}`, max],
    ] as const) {
      const fits = await api.get<{ charged_amount: number }>(`/fees${query}`);
      assert.equal(fits.status, 200, `${query}: ${fits.text}`);
      assert.equal(fits.body.charged_amount, charged);
    }
    assert.deepEqual(
      await h.db
        .selectFrom('idempotency_keys')
        .select('idempotency_key')
        .where('merchant_id', '=', merchantId)
        .execute(),
      [],
      'nor its Idempotency-Key',
    );

    // The largest amount that fits is charged exactly AMOUNT_MAX; the merchant paying the fee may ask for AMOUNT_MAX itself.
    const fits = await create(max - 400_000, 'customer');
    assert.equal(fits.status, 201, fits.text);
    assert.deepEqual([fits.body.payment.amount, fits.body.payment.charged_amount], [max - 400_000, max]);
    const merchantPays = await create(max, 'merchant');
    assert.equal(merchantPays.status, 201, merchantPays.text);
    assert.equal(merchantPays.body.payment.charged_amount, max);
    // The same key may be used again: the refusal left no record of it.
    const again = await create(max - 400_000, 'customer', idem);
    assert.equal(again.status, 201, again.text);
  });

  it('a bad fee_payer is 422 validation_failed and writes nothing', async () => {
    const h = await getHarness();
    const { key, merchantId } = await newMerchant();
    const count = async () =>
      Number(
        (
          await h.db
            .selectFrom('payments')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('merchant_id', '=', merchantId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (const fee_payer of ['bank', '', null, 1]) {
      const res = await request<{ code: string; message: string; request_id: string; details?: { path: string }[] }>(
        h.baseUrl,
        'POST',
        '/api/v1/payments',
        {
          key,
          body: {
            amount: A,
            callback_url: 'http://localhost:8000/return',
            merchant_reference: `bad-${String(fee_payer)}`,
            fee_payer,
          },
        },
      );
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.code, 'validation_failed');
      assert.ok(res.body.request_id !== '');
    }
    assert.equal(await count(), 0);
  });
});
