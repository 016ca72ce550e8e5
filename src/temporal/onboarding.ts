/**
 * The client side of the merchant onboarding workflow: started at sign-up
 * and `merchants create`, and messaged by Update-with-Start, so a merchant
 * that existed before the workflow (or whose start at sign-up failed) gets
 * its workflow on its first step, starting from what its record says.
 * A step the workflow refuses comes back as OnboardingRefused.
 */
import { WithStartWorkflowOperation, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { merchantOnboardingRecord } from '../db/onboarding.ts';
import { OnboardingRefused, type OnboardingRefusalCode, type OnboardingStatus } from '../domain/onboarding.ts';
import {
  initialOnboardingState,
  ONBOARDING_REFUSED,
  ONBOARDING_WORKFLOW,
  onboardingQuery,
  onboardingWorkflowId,
  type OnboardingView,
  type OnboardingWorkflowInput,
} from '../domain/onboarding-workflow.ts';
import { startWorkflowOnce } from './client.ts';
import { temporalCall } from './call.ts';

export type OnboardingClientConfig = Pick<Config, 'TEMPORAL_TASK_QUEUE'>;

/** Starts a new merchant's workflow (at most once per merchant). */
export async function startOnboarding(
  temporal: Client,
  config: OnboardingClientConfig,
  merchantId: string,
  status: OnboardingStatus,
): Promise<void> {
  await temporalCall(temporal, () =>
    startWorkflowOnce(temporal, ONBOARDING_WORKFLOW, {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: onboardingWorkflowId(merchantId),
      args: [{ state: initialOnboardingState(merchantId, status, 1, null) } satisfies OnboardingWorkflowInput],
    }),
  );
}

/** The merchant's record, as a workflow started now would begin from it; undefined for an unknown merchant. */
async function recordedState(db: Db, merchantId: string): Promise<OnboardingWorkflowInput | undefined> {
  const row = await merchantOnboardingRecord(db, merchantId);
  return row === undefined
    ? undefined
    : {
        state: initialOnboardingState(merchantId, row.onboarding_status, row.onboarding_version, row.rejection_reason),
      };
}

/**
 * Sends an Update to the merchant's workflow, starting it from the record
 * first when it does not run; answers the onboarding as recorded after the
 * step, or throws OnboardingRefused with the validator's reason.
 */
export async function onboardingUpdate<Args extends unknown[]>(
  db: Db,
  temporal: Client,
  config: OnboardingClientConfig,
  merchantId: string,
  update: UpdateDefinition<OnboardingView, Args>,
  ...args: Args
): Promise<OnboardingView> {
  const input = await recordedState(db, merchantId);
  if (input === undefined) throw new Error(`no merchant ${merchantId}`);
  const startWorkflowOperation = new WithStartWorkflowOperation(ONBOARDING_WORKFLOW, {
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowId: onboardingWorkflowId(merchantId),
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  try {
    return await temporalCall(temporal, () =>
      temporal.workflow.executeUpdateWithStart(update, { args, startWorkflowOperation }),
    );
  } catch (error) {
    const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type === ONBOARDING_REFUSED)
      throw new OnboardingRefused((cause.details?.[0] ?? 'not_requested') as OnboardingRefusalCode);
    throw error;
  }
}

/** The workflow's own view (for operators and tests); undefined when the merchant has no workflow yet. */
export async function queryOnboarding(temporal: Client, merchantId: string): Promise<OnboardingView | undefined> {
  try {
    return await temporalCall(temporal, () =>
      temporal.workflow.getHandle(onboardingWorkflowId(merchantId)).query(onboardingQuery),
    );
  } catch (error) {
    if ((error as { name?: string }).name === 'WorkflowNotFoundError') return undefined;
    throw error;
  }
}
