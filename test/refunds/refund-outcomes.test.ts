import assert from 'node:assert/strict';
import { bankFault } from '../support/bank.ts';
import { paymentWorkflowId, refundsWorkflowId } from '../../src/domain/payment-workflow.ts';
import { apiWith, getHarness, newMerchant } from '../support/harness.ts';
import { client, waitFor } from '../support/http.ts';
import { approveTypedIban, REFUND_IBAN, refundsAtBank, verifiedPayment, waitForRefund } from '../support/refunds.ts';
import { closedWorkflow } from '../support/work.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';

describe('refund outcomes', () => {
  afterEach(() => bankFault(null));

  it('a refund the bank declines ends failed and gives its amount back to the payment', async () => {
    const { baseUrl } = await getHarness();
    {
      // The bank refuses the next two refunds, as a real bank may (closed account, for example): test
      // mode's PSP (SEP) has no refund operation, so they are transfers to the IBAN given; and the
      // whole payment's reversal, which a full refund inside SEP's window is, refused too.
      await bankFault({ operation: 'payout', fault: 'unknown', times: 2 });
      await bankFault({ operation: 'reverse', fault: 'unknown', times: 1 });
      const m = await newMerchant();
      const api = client(baseUrl, m.key);
      const payment = await verifiedPayment(baseUrl, m.key, { amount: 400_000 });
      const res = await api.post<{ refund: Refund }>(`/payments/${payment.id}/refunds`, {
        destination_iban: REFUND_IBAN,
        amount: 100_000,
      });
      assert.equal(res.status, 201, res.text);
      await approveTypedIban(res.body.refund);
      const failed = await waitForRefund(baseUrl, m.key, res.body.refund.id, 'failed');
      assert.deepEqual(failed.failure?.code, 'bank_refused');
      const events = await api.get<{ data: { data: { refund?: Refund } }[] }>('/events?type=refund.failed');
      assert.deepEqual(
        events.body.data.map((e) => e.data.refund?.id),
        [res.body.refund.id],
      );
      assert.equal(failed.succeeded_at, null);
      const after = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
      assert.equal(after.body.payment.status, 'verified');
      assert.equal(after.body.payment.refunded_amount, 0);
      const ledger = await refundsAtBank(payment.id);
      assert.equal(ledger.length, 0);

      // The amount is refundable again: a full refund is taken (and declined again).
      const full = await api.post<{ refund: Refund }>(`/payments/${payment.id}/refunds`, {
        destination_iban: REFUND_IBAN,
      });
      assert.equal(full.status, 201, full.text);
      assert.equal(full.body.refund.amount, 400_000);
      await waitForRefund(baseUrl, m.key, full.body.refund.id, 'failed');
    }
  });

  it('after the refund window, read on the record, refunds answer 409 payment_not_refundable; the workflows that took the earlier one are closed', async () => {
    const h = await getHarness();
    const baseUrl = await apiWith({ REFUND_WINDOW_SECONDS: '2' });
    const m = await newMerchant();
    const api = client(baseUrl, m.key);
    const payment = await verifiedPayment(baseUrl, m.key, { amount: 300_000 });
    const partial = await api.post<{ refund: Refund }>(`/payments/${payment.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 100_000,
    });
    assert.equal(partial.status, 201, partial.text);
    await approveTypedIban(partial.body.refund);
    await waitForRefund(baseUrl, m.key, partial.body.refund.id, 'succeeded');

    for (const workflowId of [paymentWorkflowId(payment.id), refundsWorkflowId(payment.id)])
      assert.equal(await closedWorkflow(h.temporal.client, workflowId), 'COMPLETED', workflowId);
    // Two seconds after verified_at the window has closed: no timer is needed to say so.
    await waitFor('the refund window to pass', async () =>
      Date.now() > Date.parse(payment.verified_at!) + 2_000 ? true : undefined,
    );
    const late = await api.post<{ code: string; message: string }>(`/payments/${payment.id}/refunds`, {
      destination_iban: REFUND_IBAN,
      amount: 100_000,
    });
    assert.equal(late.status, 409, late.text);
    assert.equal(late.body.code, 'payment_not_refundable');
    assert.equal(late.body.message, "The payment's refund window has closed.");
    const after = await api.get<{ payment: Payment }>(`/payments/${payment.id}`);
    assert.equal(after.body.payment.status, 'partially_refunded');
    assert.equal(after.body.payment.refunded_amount, 100_000);
  });
});
