/**
 * The client side of refunds: which workflow takes a refund, and the
 * Update (with Start) that hands it over. A refusal by the workflow comes
 * back as a DomainError (updateRefusal).
 */
import { WithStartWorkflowOperation, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import type { Config } from '../config.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import {
  paymentSearchAttributes,
  REFUNDS_WORKFLOW,
  refundsWorkflowId,
  refundDecisionUpdate,
  refundDecisionUpdateId,
  refundUpdate,
  refundUpdateId,
  type RefundDecision,
  type RefundRequest,
  type RefundsWorkflowInput,
} from '../domain/payment-workflow.ts';
import type { Refund } from '../domain/refund-schemas.ts';
import { temporalCall, updateRefusal } from './call.ts';

/**
 * Sends a refund to the payment's refunds workflow, started by this very
 * Update when it does not run: one workflow serialises a payment's refunds.
 * The payment's own workflow has ended at verify and takes none.
 */
/**
 * Sends a decision on a waiting refund (the operator's approval or rejection, the customer's claim) to the
 * payment's refunds workflow, started by this very Update when none runs, as takeRefund does.
 */
export async function decideRefund(
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'REFUND_WINDOW_SECONDS'>,
  merchantId: string,
  payment: Payment,
  decision: RefundDecision,
): Promise<Refund> {
  return sendWithStart(temporal, config, merchantId, payment, (startWorkflowOperation) =>
    temporal.workflow.executeUpdateWithStart(refundDecisionUpdate, {
      args: [decision],
      updateId: refundDecisionUpdateId(decision),
      startWorkflowOperation,
    }),
  );
}

export async function takeRefund(
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'REFUND_WINDOW_SECONDS'>,
  merchantId: string,
  payment: Payment,
  request: RefundRequest,
): Promise<Refund> {
  // A retried request is the same update: Temporal answers it once.
  const update = { args: [request] as [RefundRequest], updateId: refundUpdateId(request.refund_id) };
  return sendWithStart(temporal, config, merchantId, payment, (startWorkflowOperation) =>
    temporal.workflow.executeUpdateWithStart(refundUpdate, { ...update, startWorkflowOperation }),
  );
}

/** An Update-with-Start on the payment's refunds workflow, attempted again while the running one ends under it. */
async function sendWithStart(
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'REFUND_WINDOW_SECONDS'>,
  merchantId: string,
  payment: Payment,
  send: (operation: WithStartWorkflowOperation<Workflow>) => Promise<Refund>,
): Promise<Refund> {
  const input: RefundsWorkflowInput = {
    payment_id: payment.id,
    merchant_id: merchantId,
    mode: payment.mode,
    refund_window_ms: config.REFUND_WINDOW_SECONDS * 1000,
  };
  // An operation is good for one call: each attempt has its own.
  const startWorkflowOperation = () =>
    new WithStartWorkflowOperation(REFUNDS_WORKFLOW, {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: refundsWorkflowId(payment.id),
      args: [input],
      // The running one takes the refund; after one has ended, the next refund starts another.
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      typedSearchAttributes: paymentSearchAttributes(payment, merchantId),
    });
  for (let attempt = 1; ; attempt++) {
    try {
      return await temporalCall(temporal, () => send(startWorkflowOperation()));
    } catch (error) {
      // The running one ended before it took the Update (nothing was written for it): the next attempt starts a new run.
      if (error instanceof WorkflowNotFoundError && attempt < START_ATTEMPTS) continue;
      throw updateRefusal(error) ?? error;
    }
  }
}

/** Update-with-Start attempts while the refunds workflow keeps ending under the Update (a new run is started by the next). */
const START_ATTEMPTS = 3;
