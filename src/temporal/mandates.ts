/** Starts and updates mandate workflows (workflows/mandate.ts) by their names: the services never import workflow code. */
import type { Client } from '@temporalio/client';
import type { MandateStatus } from '../domain/mandate.ts';
import {
  MANDATE_CANCEL_UPDATE,
  MANDATE_RETURN_UPDATE,
  MANDATE_WORKFLOW,
  mandateWorkflowId,
  type MandateReturnInput,
  type MandateWorkflowInput,
} from '../domain/mandate-workflow.ts';
import { updateUnlessFinished } from './call.ts';
import { startWorkflowOnce } from './client.ts';

export async function startMandateWorkflow(temporal: Client, taskQueue: string, input: MandateWorkflowInput) {
  await startWorkflowOnce(temporal, MANDATE_WORKFLOW, {
    taskQueue,
    workflowId: mandateWorkflowId(input.mandate_id),
    args: [input],
  });
}

/**
 * Tells the mandate's workflow the customer came back and waits for the outcome; undefined when the
 * workflow has finished (the mandate ended before, e.g. expired): the row then holds the status.
 */
export async function mandateReturned(
  temporal: Client,
  mandateId: string,
  input: MandateReturnInput,
): Promise<MandateStatus | undefined> {
  return updateUnlessFinished(() =>
    temporal.workflow
      .getHandle(mandateWorkflowId(mandateId))
      .executeUpdate<MandateStatus, [MandateReturnInput]>(MANDATE_RETURN_UPDATE, { args: [input] }),
  );
}

export async function cancelMandateWorkflow(temporal: Client, mandateId: string): Promise<MandateStatus | undefined> {
  return updateUnlessFinished(() =>
    temporal.workflow.getHandle(mandateWorkflowId(mandateId)).executeUpdate<MandateStatus, []>(MANDATE_CANCEL_UPDATE),
  );
}
