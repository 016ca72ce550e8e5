/** Payment workflows as the API starts them, and the ways a test talks to them. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Payment } from '../../../src/domain/payment-schemas.ts';
import type { FeePlan } from '../../../src/domain/payment.ts';
import { newPayment, paymentWorkflowInput, startPaymentWorkflow } from '../../../src/payments/service.ts';
import type { Refund } from '../../../src/domain/refund-schemas.ts';
import {
  bankCallbackUpdate,
  bankTokenUpdate,
  PAYMENT_LIFECYCLE_WORKFLOW,
  paymentQuery,
  paymentSearchAttributes,
  paymentWorkflowId,
  refundsWorkflowId,
  verifyUpdate,
  type PaymentWorkflowInput,
} from '../../../src/domain/payment-workflow.ts';
import { takeRefund } from '../../../src/temporal/refunds.ts';
import type { paymentFlowWorkflow } from '../../../workflows/payment.ts';
import type { paymentRefundsWorkflow } from '../../../workflows/refunds.ts';
import { WorkflowUpdateStage } from '@temporalio/client';
import { randomInt } from 'node:crypto';
import type { BankOutcome } from '../../../src/domain/payment.ts';
import { CAPTURE, fakeAmounts, fakeOutcomes } from './fakes.ts';

/**
 * The customer's trip to the (fake) bank: the token Update, then the bank's callback, accepted
 * but not awaited (as the return route sends it). A delay's RefNum starts with 9: the fake bank
 * answers its first confirm "in progress".
 */
export async function pay(handle: PaymentHandle, outcome: BankOutcome, o: { refNum?: string } = {}): Promise<void> {
  const payment = await handle.query(paymentQuery);
  fakeAmounts.set(payment.id, payment.amount);
  fakeOutcomes.set(payment.id, outcome);
  const token = await handle.executeUpdate(bankTokenUpdate, {
    args: [{ redirect_url: 'https://gateway.example/pay/return' }],
  });
  const state = outcome === 'failure' ? 'Failed' : outcome === 'cancel' ? 'CanceledByUser' : 'OK';
  // A failed or canceled return names the PSP's transaction here (as Behpardakht's does when it has a
  // SaleReferenceId), so a PSP with an inquiry is asked about it; `o.refNum` '' is a return naming none.
  const refNum =
    o.refNum ??
    (outcome === 'delay'
      ? `9${randomInt(1e9, 1e10 - 1)}`
      : outcome === 'success'
        ? CAPTURE.reference_id
        : `7${randomInt(1e9, 1e10 - 1)}`);
  await handle.startUpdate(bankCallbackUpdate, {
    args: [{ state, ref_num: refNum, res_num: payment.id, token: token.token }],
    waitForStage: WorkflowUpdateStage.ACCEPTED,
  });
}

/** The plan the tests' merchant pays: 2.5 %, at least 2 000 and at most 50 000 rials (not the configured default). */
export const FEE_PLAN: FeePlan = { bps: 250, min: 2_000, max: 50_000 };
export const AMOUNT = 1_000_000;
/** The merchant the tests' payments belong to. */
export const MERCHANT_ID = 'merchant-under-test';
/** Long enough never to pass during a test that does not wait for it. */
const LONG_MS = 10 * 60_000;

export interface PaymentOptions {
  amount?: number;
  mode?: 'test' | 'live';
  expiresInMs?: number;
  verifyWindowMs?: number;
  sandboxDelayMs?: number;
  bankPendingLimitMs?: number;
  /** A payment link's payment, which its workflow verifies itself. */
  autoVerify?: boolean;
  /**
   * Started as the type before PAYMENT_WORKFLOW (paymentLifecycleWorkflow), which the payments started on
   * it still run: for the paths its patch markers decide.
   */
  lifecycle?: boolean;
}

/** The input the create endpoint gives a new payment's workflow (src/payments/service.ts), with the windows of `o` in ms. */
export function paymentInput(o: PaymentOptions = {}): PaymentWorkflowInput {
  const id = randomUUID();
  const payment = newPayment(
    id,
    o.mode ?? 'test',
    {
      amount: o.amount ?? AMOUNT,
      callback_url: 'https://shop.example/return?order=1',
      merchant_reference: `order-${id.slice(0, 8)}`,
    },
    { PAYMENT_TTL_SECONDS: (o.expiresInMs ?? LONG_MS) / 1000, AMOUNT_MAX: Number.MAX_SAFE_INTEGER },
    Date.now(),
  );
  const input = paymentWorkflowInput(
    payment,
    { id: MERCHANT_ID, fee_plan: FEE_PLAN },
    {
      VERIFY_WINDOW_SECONDS: (o.verifyWindowMs ?? LONG_MS) / 1000,
      BANK_RECONFIRM_AFTER_SECONDS: (o.sandboxDelayMs ?? LONG_MS) / 1000,
      BANK_PENDING_LIMIT_SECONDS: (o.bankPendingLimitMs ?? LONG_MS) / 1000,
    },
  );
  return o.autoVerify === true ? { ...input, auto_verify: true } : input;
}

export type PaymentHandle = WorkflowHandle<typeof paymentFlowWorkflow>;

/** Starts a payment's workflow the way the create endpoint does. */
export async function startPayment(
  client: Client,
  taskQueue: string,
  o: PaymentOptions = {},
): Promise<{ handle: PaymentHandle; input: PaymentWorkflowInput }> {
  const input = paymentInput(o);
  if (o.lifecycle === true)
    await client.workflow.start(PAYMENT_LIFECYCLE_WORKFLOW, {
      taskQueue,
      workflowId: paymentWorkflowId(input.payment.id),
      args: [input],
      typedSearchAttributes: paymentSearchAttributes(input.payment, input.merchant_id),
    });
  else await startPaymentWorkflow(client, input, taskQueue);
  return {
    handle: client.workflow.getHandle<typeof paymentFlowWorkflow>(paymentWorkflowId(input.payment.id)),
    input,
  };
}

/** The payment as the workflow's query answers, once `done` holds (polled). */
export async function paymentWhen(
  handle: PaymentHandle,
  done: (p: Payment) => boolean,
  what: string,
): Promise<Payment> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const payment = await handle.query(paymentQuery);
    if (done(payment)) return payment;
    if (Date.now() > deadline) assert.fail(`${what}: the payment is still ${payment.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const paymentIn = (handle: PaymentHandle, status: Payment['status']) =>
  paymentWhen(handle, (p) => p.status === status, `waiting for ${status}`);

export const verify = (handle: PaymentHandle, amount: number) =>
  handle.executeUpdate(verifyUpdate, { args: [{ amount }] });

/**
 * A refund as the refunds endpoint sends it on (src/temporal/refunds.ts: to the payment's own workflow
 * or its refunds workflow), amount null: everything left; answers once it is recorded pending, or
 * throws the DomainError of its refusal. The window is REFUND_WINDOW_SECONDS' (LONG_MS unless given).
 */
export const refund = (
  client: Client,
  taskQueue: string,
  payment: Payment,
  amount: number | null,
  {
    refundId = randomUUID(),
    windowMs = LONG_MS,
    destinationIban,
  }: { refundId?: string; windowMs?: number; destinationIban?: string } = {},
): Promise<Refund> =>
  takeRefund(client, { TEMPORAL_TASK_QUEUE: taskQueue, REFUND_WINDOW_SECONDS: windowMs / 1000 }, MERCHANT_ID, payment, {
    refund_id: refundId,
    amount,
    reason: null,
    ...(destinationIban === undefined ? {} : { destination_iban: destinationIban }),
  });

/** The payment's refunds workflow (its latest run). */
export const refundsOf = (client: Client, paymentId: string) =>
  client.workflow.getHandle<typeof paymentRefundsWorkflow>(refundsWorkflowId(paymentId));

/**
 * An Update that may race its workflow's end: its answer, or `ended` when the workflow closed
 * before it took the Update (Temporal aborts it; the API then answers from the record).
 */
export async function unlessEnded<T>(update: Promise<T>): Promise<T | 'ended'> {
  try {
    return await update;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return 'ended';
    throw error;
  }
}

/** A payment paid at the bank and verified with its amount. */
export async function verifiedPayment(client: Client, taskQueue: string, o: PaymentOptions = {}) {
  const started = await startPayment(client, taskQueue, o);
  await pay(started.handle, 'success');
  await paymentIn(started.handle, 'paid');
  const verified = await verify(started.handle, started.input.payment.amount);
  return { ...started, verified };
}

/** The ApplicationFailure type and message an update was refused with (asserting it was such a refusal). */
export function refusalOf(error: unknown): { type: string | null | undefined; message: string } {
  assert.ok(error instanceof WorkflowUpdateFailedError, `an update failure, not ${String(error)}`);
  assert.ok(error.cause instanceof ApplicationFailure, `an ApplicationFailure, not ${String(error.cause)}`);
  return { type: error.cause.type, message: error.cause.message };
}

/** Asserts that an update was refused with the ApplicationFailure type `type`; answers its message. */
export async function refusedWith(update: Promise<unknown>, type: string): Promise<string> {
  try {
    await update;
  } catch (error) {
    const refusal = refusalOf(error);
    assert.equal(refusal.type, type);
    return refusal.message;
  }
  assert.fail(`the update was accepted, not refused with ${type}`);
}
