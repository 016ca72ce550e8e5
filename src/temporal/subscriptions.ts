/** Starts and updates subscription workflows (workflows/subscription.ts) by name: the services never import workflow code. */
import type { Client } from '@temporalio/client';
import type { AdvanceClockInput } from '../domain/payment-workflow.ts';
import {
  advanceSubscriptionClockUpdate,
  cancelSubscriptionUpdate,
  SUBSCRIPTION_WORKFLOW,
  subscriptionWorkflowId,
  type CancelSubscriptionInput,
  type SubscriptionRecord,
  type SubscriptionWorkflowInput,
} from '../domain/subscription-workflow.ts';
import { temporalCall, updateUnlessFinished } from './call.ts';
import { startWorkflowOnce } from './client.ts';

/** One workflow per subscription: a retried create finds the one started before. */
export async function startSubscriptionWorkflow(
  temporal: Client,
  taskQueue: string,
  input: SubscriptionWorkflowInput,
): Promise<void> {
  await temporalCall(temporal, () =>
    startWorkflowOnce(temporal, SUBSCRIPTION_WORKFLOW, {
      taskQueue,
      workflowId: subscriptionWorkflowId(input.subscription_id),
      args: [input],
    }),
  );
}

/** The merchant's cancel; undefined when the workflow has finished (its row holds the last state). */
export function cancelSubscriptionWorkflow(
  temporal: Client,
  id: string,
  input: CancelSubscriptionInput,
): Promise<SubscriptionRecord | undefined> {
  return updateUnlessFinished(() =>
    temporal.workflow.getHandle(subscriptionWorkflowId(id)).executeUpdate(cancelSubscriptionUpdate, { args: [input] }),
  );
}

/** The test helper's advance of the subscription's clock; undefined when the workflow has finished. */
export function advanceSubscriptionWorkflowClock(
  temporal: Client,
  id: string,
  input: AdvanceClockInput,
): Promise<SubscriptionRecord | undefined> {
  return updateUnlessFinished(() =>
    temporal.workflow
      .getHandle(subscriptionWorkflowId(id))
      .executeUpdate(advanceSubscriptionClockUpdate, { args: [input] }),
  );
}
