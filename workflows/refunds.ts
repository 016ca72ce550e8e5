/**
 * The refunds of one verified payment (docs/PAYMENTS.md#refunds), workflow id
 * `refunds-<payment id>`: started on demand by the API's Update-with-Start of
 * a refund, it takes refunds one at a time under one lock, and ends once none
 * of them waits for the bank; the next refund starts it again. Each refund is
 * decided on the payment as recorded, read under the lock (the window and the
 * amount left: recordedRefundRefusal), so the workflow carries nothing from
 * one run to the next. While it runs it is the only writer of the payment's
 * record: the payment's own workflow has ended at verify.
 */
import { allHandlersFinished, ApplicationFailure, condition, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { Payment } from '../src/domain/payment-schemas.ts';
import { paymentQuery, refundUpdate, searchAttributes, type RefundRequest, type RefundsWorkflowInput } from '../src/domain/payment-workflow.ts';
import { recordedRefundRefusal } from '../src/domain/refund.ts';
import { StepLock } from './lock.ts';
import { checkTransition } from './failures.ts';
import { bankCalls, recordWrites } from './proxies.ts';
import { checkRefundRequest, RefundBook } from './refund-lifecycle.ts';

export async function paymentRefundsWorkflow(input: RefundsWorkflowInput): Promise<Payment | null> {
  const lock = new StepLock();
  /** The payment and its version as last read or written; read again for each new refund. */
  let recorded: { payment: Payment; version: number } | undefined;
  const current = () => {
    if (recorded === undefined) throw ApplicationFailure.nonRetryable('no refund has read the payment yet', 'payment_not_read');
    return recorded;
  };

  const refunds = new RefundBook({
    payment: () => current().payment,
    refusal: (amount) => recordedRefundRefusal(current().payment, amount, input.refund_window_ms, Date.now()),
    async record(refund, next) {
      const { payment, version } = current();
      if (next !== null) checkTransition(payment, next);
      const nextVersion = next === null ? null : { payment: next, version: version + 1 };
      await recordWrites.recordRefund({ refund, merchant_id: input.merchant_id, mode: input.mode, payment: nextVersion });
      if (nextVersion === null) return;
      recorded = nextVersion;
      upsertSearchAttributes([{ key: searchAttributes.status, value: nextVersion.payment.status }]);
    },
    async payOut(refund) {
      const { payment } = current();
      // At the PSP that took the payment (the record's; a payment older than routing has none: SEP's).
      await bankCalls.refundAtBank({
        payment_id: payment.id,
        mode: payment.mode,
        ref_num: payment.reference_id ?? '',
        refund_id: refund.id,
        amount: refund.amount,
        ...(payment.psp === undefined || payment.psp === null ? {} : { psp: payment.psp.name }),
      });
    },
    exclusive: (step) => lock.run(step),
    now: () => new Date().toISOString(),
  });

  setHandler(paymentQuery, () => current().payment);

  setHandler(
    refundUpdate,
    (request: RefundRequest) =>
      lock.run(async () => {
        const known = refunds.taken.get(request.refund_id);
        if (known !== undefined) return known;
        const read = await recordWrites.readPaymentForRefund({ payment_id: input.payment_id, refund_id: request.refund_id });
        // Taken before, by an earlier run (the request retried after that run ended): the refund as
        // recorded, and its payout when no run finished it.
        if (read.refund !== null) {
          recorded = { payment: read.payment, version: read.version };
          return refunds.resume(read.refund);
        }
        recorded = { payment: read.payment, version: read.version };
        return refunds.reserve(request);
      }),
    { validator: checkRefundRequest },
  );

  // Done once no refund waits for the bank and no step or Update is under way. An Update that
  // reaches the server while this run completes is not lost: the server refuses the completion and
  // hands the Update to this run, which takes it first.
  await condition(() => allHandlersFinished() && !lock.held && !refunds.pending());
  return recorded?.payment ?? null;
}
