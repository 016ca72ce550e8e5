/**
 * One debit of a mandate (docs/SUBSCRIPTIONS.md#debits-are-payments), a workflow type of its own (the
 * payment workflow is not changed): its payment, admitted by the API within the mandate's limits and
 * recorded `created` with `method: direct_debit`, is announced, the money is taken at the provider in
 * two steps (the transaction named and its authority recorded, then checked out: activities/debits.ts
 * says why a retry never takes it twice), and the payment is recorded `paid` then `verified` through
 * PaymentState.commit, the one way every payment's workflow records a transition: the same
 * recordTransition activity, so the ledger posts `capture` and `verify` and the `payment.*` events go out
 * exactly as for a verified card payment. A refusal gives the mandate's counts back and records the
 * payment `failed`. Nobody waits on it: there is no customer, and the merchant learns the outcome by
 * webhook or GET.
 */
import { proxyActivities, setHandler } from '@temporalio/workflow';
import type { DebitActivities } from '../activities/debits.ts';
import type { DebitClaim, DebitWorkflowInput } from '../src/domain/debit-workflow.ts';
import { feeAtVerify, PAYMENT_FAILURES } from '../src/domain/payment.ts';
import type { Payment } from '../src/domain/payment-schemas.ts';
import { paymentQuery } from '../src/domain/payment-workflow.ts';
import { PaymentState } from './payment-state.ts';

// Provider calls and their records are retried until the provider answers: an outage is waited out
// (the same authority is sent each time), a refusal is an answer the activity returns.
const provider = proxyActivities<DebitActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
});

export async function directDebitWorkflow(input: DebitWorkflowInput): Promise<Payment> {
  const state = new PaymentState(input.payment, input.merchant_id);
  setHandler(paymentQuery, () => state.payment);
  await state.announce();

  const { id, mode, amount } = input.payment;
  const claim: DebitClaim = {
    debit_id: input.debit_id,
    payment_id: id,
    mode,
    amount,
    merchant_id: input.merchant_id,
  };
  const prepared = await provider.prepareDebitAtProvider(claim);
  const step = prepared.outcome === 'prepared' ? await provider.takeDebitAtProvider(claim) : prepared;

  await state.exclusive(async () => {
    if (step.outcome !== 'taken') {
      // The counts first, so a merchant who retries on payment.failed finds them free.
      await provider.releaseDebitReservation({ debit_id: input.debit_id });
      await state.commit({ ...state.payment, status: 'failed', failure: PAYMENT_FAILURES.debitRefused });
      return;
    }
    // No customer to come back and no merchant's verify to wait for: the money is taken, so it is
    // paid and verified at once (verify_deadline_at is the moment it was paid).
    const paidAt = new Date().toISOString();
    await state.commit({
      ...state.payment,
      status: 'paid',
      reference_id: step.reference,
      paid_at: paidAt,
      verify_deadline_at: paidAt,
    });
    await state.commit({
      ...state.payment,
      status: 'verified',
      verified_at: new Date().toISOString(),
      fee: feeAtVerify(state.payment, input.fee_plan),
    });
  });
  return state.payment;
}
