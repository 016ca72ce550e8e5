/**
 * Refunds by what the payment's PSP offers (docs/PAYMENTS.md#how-a-refund-is-paid-out), against the
 * real stack: test mode's PSP is SEP, whose references show no refund operation. A part of a payment
 * goes to the card that paid (claimed by the customer: test/refunds/refunds-to-payer.test.ts); an IBAN
 * the merchant types is held for the operator; the whole payment inside SEP's reversal window is its
 * reversal.
 */
import assert from 'node:assert/strict';
import type { ErrorBody } from '../../src/api/schemas.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { REFUND_IBAN, refundsAtBank, verifiedPayment, type RefundBody } from '../support/refunds.ts';
import { shebaFor } from '../support/sheba.ts';

describe('refunds by what the PSP offers', () => {
  it('a part of a SEP payment without an IBAN goes to the card that paid (awaiting its payer); a malformed IBAN is refused 422 and writes nothing; a typed IBAN is held for the operator, never paid by the key', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 800_000 });

    for (const iban of ['IR000000000000000000000000', 'IR12', shebaFor('1').replace('IR', 'DE')]) {
      const bad = await api.post<ErrorBody>(`/payments/${payment.id}/refunds`, {
        amount: 300_000,
        destination_iban: iban,
      });
      assert.equal(bad.status, 422, `${iban}: ${bad.text}`);
      assert.equal(bad.body.code, 'validation_failed');
    }
    // Nothing written: no refund, no posting, the payment as it was.
    assert.deepEqual(await h.db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute(), []);
    assert.equal(
      (
        await h.db
          .selectFrom('ledger_postings')
          .select('cause')
          .where('cause', 'like', 'refund:%')
          .where('merchant_id', '=', m.merchantId)
          .execute()
      ).length,
      0,
    );
    const unchanged = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.deepEqual([unchanged.body.payment.status, unchanged.body.payment.refunded_amount], ['verified', 0]);

    const toPayer = await api.post<RefundBody>(
      `/payments/${payment.id}/refunds`,
      { amount: 300_000 },
      { idempotencyKey: `to-payer-${payment.id}` },
    );
    assert.equal(toPayer.status, 201, toPayer.text);
    assert.deepEqual(
      [toPayer.body.refund.method, toPayer.body.refund.status, toPayer.body.refund.destination_iban],
      ['payer_card', 'awaiting_payer', null],
    );
    assert.ok(toPayer.body.refund.claim_url !== null && toPayer.body.refund.claim_url !== undefined);

    const typed = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, {
      amount: 200_000,
      destination_iban: REFUND_IBAN,
    });
    assert.equal(typed.status, 201, typed.text);
    assert.deepEqual(
      [
        typed.body.refund.method,
        typed.body.refund.status,
        typed.body.refund.held_for,
        typed.body.refund.destination_iban,
      ],
      ['iban_payout', 'awaiting_approval', 'typed_iban', REFUND_IBAN],
    );
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(
      (await refundsAtBank(payment.id)).map((op) => op.kind),
      [],
      'nothing paid: the payer has not claimed, the operator has not approved',
    );
    // The payer's refund has left the balance (refund:<id>:pending); the held one nothing yet.
    const postings = await h.db
      .selectFrom('ledger_postings')
      .select('cause')
      .where('cause', 'like', 'refund:%')
      .where('merchant_id', '=', m.merchantId)
      .execute();
    assert.deepEqual(
      postings.map((p) => p.cause),
      [`refund:${toPayer.body.refund.id}:pending`],
    );
  });

  it('the whole SEP payment inside its reversal window needs no IBAN: the refund is its reversal at the PSP', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 400_000 });
    const whole = await api.post<RefundBody>(`/payments/${payment.id}/refunds`, {});
    assert.equal(whole.status, 201, whole.text);
    assert.deepEqual(
      [whole.body.refund.amount, whole.body.refund.method, whole.body.refund.destination_iban],
      [400_000, 'reversal', null],
    );
    // The PSP's answer decides the outcome (a reversal the PSP refuses gives the amount back, as any refused refund):
    // either way the refund reaches a final status and the ledger balances (checked after every test).
    const final = await waitFor(`refund ${whole.body.refund.id} to be final`, async () => {
      const res = await api.get<RefundBody>(`/refunds/${whole.body.refund.id}`);
      return res.body.refund.status === 'pending' ? undefined : res.body.refund;
    });
    assert.equal(
      (await refundsAtBank(payment.id)).filter((op) => op.operation_key.startsWith('refund-payout:')).length,
      0,
      'nothing transferred: the reversal returns it',
    );
    assert.equal(final.method, 'reversal');
  });
});
