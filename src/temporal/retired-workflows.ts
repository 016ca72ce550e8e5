/**
 * Workflow types this version no longer runs (docs/ARCHITECTURE.md#changing-workflow-code-safely).
 * Their code is gone, so a worker cannot replay them: executions of them still
 * open in a Temporal namespace (a developer's dev server kept from an earlier
 * 0.x version) would only have their workflow tasks fail, again and again. The
 * worker and `npm start` look for them once at start and say, in one sentence,
 * what they are and how to end them; nothing ends them without the operator.
 */
import type { Client } from '@temporalio/client';

/** The retired types, oldest first: the first payment workflow and its successor with a generation suffix. */
export const RETIRED_WORKFLOW_TYPES = ['paymentWorkflow', 'paymentWorkflowV2'] as const;

/** The visibility query of every open execution of a retired type: empty before a type's code may be removed. */
export const RETIRED_OPEN_QUERY = `WorkflowType IN (${RETIRED_WORKFLOW_TYPES.map((type) => `'${type}'`).join(', ')}) AND ExecutionStatus = 'Running'`;

/**
 * The one sentence an operator needs when the namespace still holds open
 * executions of retired types, or undefined when it holds none. `devServerFile`
 * names the dev server's state file when the caller started that server itself.
 */
export async function retiredWorkflowsNotice(
  client: Client,
  options: { devServerFile?: string } = {},
): Promise<string | undefined> {
  const { count } = await client.workflow.count(RETIRED_OPEN_QUERY);
  if (count === 0) return undefined;
  const executions = count === 1 ? '1 open execution' : `${count} open executions`;
  const reset =
    options.devServerFile === undefined
      ? ''
      : `, or stop npm start and delete ${options.devServerFile} to begin with an empty Temporal`;
  return (
    `Temporal namespace ${client.options.namespace} holds ${executions} of workflow types this version no longer runs ` +
    `(${RETIRED_WORKFLOW_TYPES.join(', ')}: payments started by an earlier 0.x Dargah); no worker will take them — ` +
    `end them with: temporal workflow terminate --namespace ${client.options.namespace} --query "${RETIRED_OPEN_QUERY}" --reason retired${reset}.`
  );
}
