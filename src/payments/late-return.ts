/**
 * A paid return for a payment already ended (docs/BANK.md#a-paid-return-for-an-ended-payment): the API
 * starts lateBankReturnWorkflow (workflows/late-return.ts), which confirms the sale at the PSP and
 * reverses it through its claim, and records it. One workflow per payment and reference, never started
 * twice (a repeated return finds it, running or closed): its id is derived from both.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import { ENDED_UNPAID, LATE_RETURN_WORKFLOW, type LateReturnInput } from '../domain/late-return.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import type { BankCallback } from '../domain/payment-workflow.ts';
import { startWorkflowOnce } from '../temporal/client.ts';
import { temporalCall } from '../temporal/call.ts';

/** The late return workflow of payment `paymentId` and the PSP's reference `refNum`. */
export const lateReturnWorkflowId = (paymentId: string, refNum: string) =>
  `late-return-${paymentId}-${createHash('sha256').update(refNum).digest('hex').slice(0, 32)}`;

/** Whether `callback` is a paid return (one naming a sale) for `payment`, which has ended unpaid. */
export const isLateReturn = (payment: Pick<Payment, 'status'>, callback: BankCallback): boolean =>
  (ENDED_UNPAID as readonly string[]).includes(payment.status) && callback.state === 'OK' && callback.ref_num !== '';

/** Starts the late return of `callback` for `payment` (once per payment and reference). */
export async function startLateReturn(
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  payment: Pick<Payment, 'id' | 'mode' | 'psp'>,
  callback: BankCallback,
): Promise<void> {
  const input: LateReturnInput = {
    payment_id: payment.id,
    mode: payment.mode,
    ...(payment.psp === null || payment.psp === undefined ? {} : { psp: payment.psp.name }),
    ref_num: callback.ref_num,
  };
  await temporalCall(temporal, () =>
    startWorkflowOnce(temporal, LATE_RETURN_WORKFLOW, {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: lateReturnWorkflowId(payment.id, callback.ref_num),
      args: [input],
    }),
  );
}
