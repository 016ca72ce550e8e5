/** Starts debit workflows (workflows/debit.ts) by name: the services never import workflow code. */
import type { Client } from '@temporalio/client';
import { DEBIT_WORKFLOW, debitWorkflowId, type DebitWorkflowInput } from '../domain/debit-workflow.ts';
import { temporalCall } from './call.ts';
import { startWorkflowOnce } from './client.ts';

/** One workflow per debit: a retried request finds the one started before, and a finished one is not started again. */
export async function startDebitWorkflow(
  temporal: Client,
  taskQueue: string,
  input: DebitWorkflowInput,
): Promise<void> {
  await temporalCall(temporal, () =>
    startWorkflowOnce(temporal, DEBIT_WORKFLOW, {
      taskQueue,
      workflowId: debitWorkflowId(input.debit_id),
      args: [input],
    }),
  );
}
