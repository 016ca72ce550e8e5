/**
 * One payment, one workflow (docs/PAYMENTS.md), shaped as Temporal's
 * message-handling samples are: each handler hands its message to the class
 * that holds the payment (payment-lifecycle.ts), and the function then reads
 * as the payment's timeline. The workflow alone decides transitions; each is
 * written to MySQL by an activity before anyone can see it, and the timers for
 * `expires_at` and `verify_deadline_at` are durable: they fire after worker or
 * server restarts just the same. A payment link's payment (`auto_verify`) is
 * verified by the workflow itself once paid. It ends soon after the payment's
 * final state (verified included); refunds are the payment's refunds
 * workflow's (workflows/refunds.ts).
 *
 * Two types run the same timeline (docs/ARCHITECTURE.md#two-payment-workflow-types): paymentFlowWorkflow,
 * which every new payment starts, and paymentLifecycleWorkflow, the type before it, kept registered for the
 * payments still running on it. The flow type writes about a third less history for the same guarantees:
 * no patch markers (it takes every branch its predecessor's patches chose), the token in one local
 * activity, the PSP's search attributes written with the next transition, and timers left running
 * rather than canceled.
 */
import { allHandlersFinished, condition, setHandler } from '@temporalio/workflow';
import type { Payment } from '../src/domain/payment-schemas.ts';
import {
  advanceClockUpdate,
  bankCallbackUpdate,
  bankTokenUpdate,
  cancelUpdate,
  paymentQuery,
  reverseUpdate,
  verifyUpdate,
  type AdvanceClockInput,
  type PaymentWorkflowInput,
  type VerifyInput,
} from '../src/domain/payment-workflow.ts';
import { PaymentLifecycle } from './payment-lifecycle.ts';

/** Every new payment's workflow (PAYMENT_WORKFLOW). */
export async function paymentFlowWorkflow(input: PaymentWorkflowInput): Promise<Payment> {
  // Created: the payment as the API inserted it, and what the bank will charge for it.
  return paymentTimeline(new PaymentLifecycle(input, 'flow'));
}

/** The type before paymentFlowWorkflow: registered for the payments started on it, which replay and end on it. */
export async function paymentLifecycleWorkflow(input: PaymentWorkflowInput): Promise<Payment> {
  return paymentTimeline(new PaymentLifecycle(input, 'lifecycle'));
}

async function paymentTimeline(payment: PaymentLifecycle): Promise<Payment> {
  // The announcement takes the lock before any handler is set: a bank answer sent with the
  // workflow's start is delivered as soon as its handler is, and must wait for it.
  const announced = payment.announce();

  // Every message is handed to the payment, which takes them one step at a time (its lock).
  setHandler(paymentQuery, () => payment.payment);
  setHandler(bankTokenUpdate, (request) => payment.onBankToken(request));
  setHandler(bankCallbackUpdate, (callback) => payment.onBankCallback(callback));
  setHandler(cancelUpdate, () => payment.onCancel(), { validator: () => payment.validateCancel() });
  setHandler(reverseUpdate, () => payment.onReverse(), { validator: () => payment.validateReverse() });
  setHandler(advanceClockUpdate, (request) => payment.onAdvanceClock(request), {
    validator: (request: AdvanceClockInput) => payment.validateAdvanceClock(request),
  });
  setHandler(verifyUpdate, (request) => payment.onVerify(request), {
    validator: (request: VerifyInput) => payment.validateVerify(request),
  });

  // 0. The payment is announced (payment.created), before any change of it.
  await announced;

  // 1. The customer asks for the bank's page (bankToken: the route, a PSP's token) and comes back
  //    (bankCallback: the PSP's confirmation pays), until expires_at; nobody answered: it expires.
  if (!(await payment.answeredBeforeExpiry())) await payment.expire();

  // 2. The bank keeps the payment "in progress": it is asked again until it answers or the limit passes.
  if (payment.pending) await payment.awaitConfirmation();

  // 3. Paid. A payment link's payment: nobody else will verify it, so its workflow does.
  if (payment.isPaidLinkPayment()) await payment.verifyLinkPayment();

  // 4. Still paid: the merchant must verify (verify: settled, then verified) before the deadline, or
  //    the money goes back.
  if (payment.paid && !(await payment.verifiedBeforeDeadline())) await payment.reverseAtDeadline();

  // 5. Final: the last Updates answered, the workflow ends. Refunds are the refunds workflow's.
  payment.stopClock();
  await condition(allHandlersFinished);
  return payment.payment;
}
