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
import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  patched,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { bankCallIdentityOf } from '../src/domain/bank-call.ts';
import type { Payment } from '../src/domain/payment-schemas.ts';
import {
  paymentQuery,
  refundDecisionUpdate,
  refundUpdate,
  type RefundDecision,
  searchAttributes,
  type RefundRequest,
  type RefundsWorkflowInput,
} from '../src/domain/payment-workflow.ts';
import {
  directDebitRefundMethod,
  initialRefundStatus,
  recordedRefundRefusal,
  refundMethod,
  type RefundCapabilities,
  type RefundMethod,
} from '../src/domain/refund.ts';
import type { Refund } from '../src/domain/refund-schemas.ts';
import { StepLock } from './lock.ts';
import { checkTransition } from './failures.ts';
import { bankCalls, pspCapabilitiesOf, recordWrites, refundTransfers } from './proxies.ts';
import { checkRefundDecision, checkRefundRequest, RefundBook } from './refund-lifecycle.ts';
import { REFUNDS_BY_CAPABILITY_PATCH, REFUNDS_TO_PAYER_PATCH } from './patches.ts';
import { refusalFailure } from './failures.ts';

/** The PSP of the payment as its record names it (a payment older than routing has none: SEP's). */
/** A refund's method; one recorded before refund methods existed (an older run's history) has none: the PSP's refund operation. */
const methodOf = (refund: Partial<Pick<Refund, 'method'>>): RefundMethod => refund.method ?? 'psp_refund';

/** Whether the bank answered the call with a refusal (not an outage: those are retried until it answers). */
const refusedByBank = (error: unknown) =>
  error instanceof ActivityFailure && error.cause instanceof ApplicationFailure && error.cause.type === 'bank_refused';

export async function paymentRefundsWorkflow(input: RefundsWorkflowInput): Promise<Payment | null> {
  const lock = new StepLock();
  /** The payment and its version as last read or written; read again for each new refund. */
  let recorded: { payment: Payment; version: number } | undefined;
  const current = () => {
    if (recorded === undefined)
      throw ApplicationFailure.nonRetryable('no refund has read the payment yet', 'payment_not_read');
    return recorded;
  };

  /** The payment's PSP's capabilities, read at this run's first new refund. */
  let capabilities: RefundCapabilities | undefined;

  /** The refund's transfer to `iban`, once per refund id at the bank. */
  const transfer = async (refund: Refund, iban: string | null) => {
    if (iban === null)
      throw ApplicationFailure.nonRetryable('the refund names no IBAN to pay it to', 'refund_needs_iban');
    const { payment } = current();
    await refundTransfers.payRefundToIban({
      refund_id: refund.id,
      payment_id: payment.id,
      mode: payment.mode,
      iban,
      amount: refund.amount,
    });
  };

  const refunds = new RefundBook({
    payment: () => current().payment,
    refusal: (amount) => recordedRefundRefusal(current().payment, amount, input.refund_window_ms, Date.now()),
    async method(request, amount) {
      const destination_iban = request.destination_iban ?? null;
      if (!patched(REFUNDS_BY_CAPABILITY_PATCH)) return { method: 'psp_refund', destination_iban };
      const { payment } = current();
      // A debit's payment has no PSP to ask (src/domain/refund.ts directDebitRefundMethod). No history
      // recorded before debits holds such a payment, so those replay as they ran.
      if (payment.method === 'direct_debit') {
        const way = directDebitRefundMethod(destination_iban);
        if ('code' in way) return way;
        return { method: way.method, destination_iban, ...initialRefundStatus(way.method) };
      }
      capabilities ??= await pspCapabilitiesOf.pspCapabilities(bankCallIdentityOf(payment));
      // Only to the payer: a refund no PSP call can make waits for the customer's claim with the paying
      // card, and a typed IBAN for the operator's approval (docs/PAYMENTS.md#how-a-refund-is-paid-out).
      if (patched(REFUNDS_TO_PAYER_PATCH)) {
        const way = refundMethod(payment, amount, capabilities, destination_iban, Date.now(), true);
        if ('code' in way) return way;
        return { method: way.method, destination_iban, ...initialRefundStatus(way.method) };
      }
      const way = refundMethod(payment, amount, capabilities, destination_iban, Date.now());
      return 'code' in way ? way : { method: way.method, destination_iban };
    },
    async record(refund, next, withinBalance) {
      const { payment, version } = current();
      if (next !== null) checkTransition(payment, next);
      const nextVersion = next === null ? null : { payment: next, version: version + 1 };
      const written = await recordWrites.recordRefund({
        refund,
        merchant_id: input.merchant_id,
        mode: input.mode,
        payment: nextVersion,
        ...(withinBalance === true ? { within_balance: true } : {}),
      });
      if (nextVersion !== null) {
        recorded = nextVersion;
        upsertSearchAttributes([{ key: searchAttributes.status, value: nextVersion.payment.status }]);
      }
      // A run from before the balance check recorded nothing to answer (its history holds no result).
      return written ?? undefined;
    },
    async payOut(refund): Promise<RefundMethod | undefined> {
      const { payment } = current();
      // At the PSP that took the payment (the record's; a payment older than routing has none: SEP's).
      const atPsp = { ...bankCallIdentityOf(payment), ref_num: payment.reference_id ?? '' };
      const method = methodOf(refund);
      if (method === 'iban_payout' || method === 'payer_card') {
        await transfer(refund, refund.destination_iban);
        return undefined;
      }
      if (method === 'reversal') {
        try {
          // The payment-keyed reverse, the merchant's own: the PSP reverses a payment once.
          await bankCalls.reverseAtBank(atPsp);
          return undefined;
        } catch (error) {
          // Refused (its window closed between the choice and the call): paid to the IBAN when one was given,
          // by a refund from before the patch `refunds-to-payer` (its refunds carry `held_for`): a typed IBAN
          // is paid only on the operator's approval now, and the refund fails, its amount refundable again.
          if (!refusedByBank(error) || refund.destination_iban === null || refund.held_for !== undefined) throw error;
          await transfer(refund, refund.destination_iban);
          return 'iban_payout';
        }
      }
      await bankCalls.refundAtBank({ ...atPsp, refund_id: refund.id, amount: refund.amount });
      return undefined;
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
        const read = await recordWrites.readPaymentForRefund({
          payment_id: input.payment_id,
          refund_id: request.refund_id,
        });
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

  setHandler(
    refundDecisionUpdate,
    (decision: RefundDecision) =>
      lock.run(async () => {
        const read = await recordWrites.readPaymentForRefund({
          payment_id: input.payment_id,
          refund_id: decision.refund_id,
        });
        if (read.refund === null)
          throw refusalFailure({ code: 'refund_not_found', message: `No refund ${decision.refund_id}.` });
        recorded = { payment: read.payment, version: read.version };
        return refunds.decide(read.refund, decision);
      }),
    { validator: checkRefundDecision },
  );

  // Done once no refund waits for the bank and no step or Update is under way. An Update that
  // reaches the server while this run completes is not lost: the server refuses the completion and
  // hands the Update to this run, which takes it first.
  await condition(() => allHandlersFinished() && !lock.held && !refunds.pending());
  return recorded?.payment ?? null;
}
