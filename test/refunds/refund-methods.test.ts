/**
 * Refunds by what the payment's PSP offers (docs/PAYMENTS.md#how-a-refund-is-paid-out), against the
 * real stack: test mode's PSP is SEP, whose references show no refund operation. A part of a payment
 * is paid by a Paya transfer to the IBAN the merchant gives with the refund; without one it is refused
 * and nothing is written; the whole payment inside SEP's reversal window is its reversal.
 */
import assert from 'node:assert/strict';
import type { ErrorBody } from '../../src/api/schemas.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { bankAdmin } from '../support/bank.ts';
import { getHarness, newMerchant } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { REFUND_IBAN, refundsAtBank, verifiedPayment, waitForRefund, type RefundBody } from '../support/refunds.ts';
import { shebaFor } from '../support/sheba.ts';

describe('refunds by what the PSP offers', () => {
  it('a part of a SEP payment without an IBAN is refused 422 refund_needs_iban, saying what is needed, and writes nothing; a malformed IBAN is refused 422; with one, a single transfer to it', async () => {
    const h = await getHarness();
    const m = await newMerchant();
    const api = client(h.baseUrl, m.key);
    const payment = await verifiedPayment(h.baseUrl, m.key, { amount: 800_000 });

    const refused = await api.post<ErrorBody>(
      `/payments/${payment.id}/refunds`,
      { amount: 300_000 },
      { idempotencyKey: `needs-iban-${payment.id}` },
    );
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.code, 'refund_needs_iban');
    assert.match(
      refused.body.message,
      /^PSP sep has no refund operation and a reversal returns the whole payment only, within 50 minutes of it: give destination_iban, the customer's Sheba IBAN/,
    );
    assert.ok(typeof refused.body.request_id === 'string' && refused.body.request_id !== '');
    for (const iban of ['IR000000000000000000000000', 'IR12', shebaFor('1').replace('IR', 'DE')]) {
      const bad = await api.post<ErrorBody>(`/payments/${payment.id}/refunds`, {
        amount: 300_000,
        destination_iban: iban,
      });
      assert.equal(bad.status, 422, `${iban}: ${bad.text}`);
      assert.equal(bad.body.code, 'validation_failed');
    }
    // Nothing written: no refund, no Idempotency-Key kept, no posting, the payment as it was.
    assert.deepEqual(await h.db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute(), []);
    assert.deepEqual(
      await h.db
        .selectFrom('idempotency_keys')
        .select('idempotency_key')
        .where('merchant_id', '=', m.merchantId)
        .where('operation', '=', 'create_refund')
        .execute(),
      [],
    );
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

    const taken = await api.post<RefundBody>(
      `/payments/${payment.id}/refunds`,
      { amount: 300_000, destination_iban: REFUND_IBAN },
      { idempotencyKey: `needs-iban-${payment.id}` },
    );
    assert.equal(taken.status, 201, taken.text);
    assert.deepEqual([taken.body.refund.method, taken.body.refund.destination_iban], ['iban_payout', REFUND_IBAN]);
    const done = await waitForRefund(h.baseUrl, m.key, taken.body.refund.id, 'succeeded');
    assert.equal(done.method, 'iban_payout');
    const { transfers } = await bankAdmin<{ transfers: { transfer_id: string; iban: string; amount: number }[] }>(
      '/admin/transfers',
    );
    assert.deepEqual(
      transfers
        .filter((t) => t.transfer_id === `refund-payout:${taken.body.refund.id}`)
        .map((t) => [t.iban, Number(t.amount)]),
      [[REFUND_IBAN, 300_000]],
      'one transfer, to the IBAN given, keyed by the refund',
    );
    assert.deepEqual(
      (await refundsAtBank(payment.id)).map((op) => op.kind),
      ['refund'],
      'no call SEP does not have, no reversal of a part',
    );
    const postings = await h.db
      .selectFrom('ledger_postings')
      .select('cause')
      .where('cause', 'like', `refund:${taken.body.refund.id}:%`)
      .orderBy('cause')
      .execute();
    assert.deepEqual(
      postings.map((p) => p.cause),
      [`refund:${taken.body.refund.id}:pending`, `refund:${taken.body.refund.id}:succeeded`],
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
      'nothing transferred: no IBAN was given',
    );
    assert.equal(final.method, 'reversal');
  });
});
