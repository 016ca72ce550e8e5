/**
 * Starting one payout attempt of a settlement as a workflow of its own
 * (docs/LEDGER.md#settlement): the operator's retry of a failed payout (the
 * next attempt, a new key at the bank) and the stuck-records sweep's second
 * ask of an attempt whose answer was lost (the same attempt, the same key,
 * so the bank answers with the transfer it made, if it made one).
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { SettlementRow } from '../db/schema.ts';
import { tehranDay } from '../domain/calendar.ts';
import {
  BENEFICIARY_PAYOUT_WORKFLOW,
  beneficiaryPayoutWorkflowId,
  SETTLEMENT_WORKFLOW,
  settlementSearchAttributes,
  settlementWorkflowId,
  type BeneficiaryPayoutInput,
  type SettlementWorkflowInput,
} from '../domain/settlement.ts';

/**
 * Starts the workflow that pays `row.payout_attempt` of the settlement, unless it runs. `again`:
 * also when a workflow of this id existed and has closed (the sweep's ask after a lost answer);
 * otherwise an attempt is started at most once.
 */
export async function startPayoutAttempt(
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  row: Pick<SettlementRow, 'id' | 'merchant_id' | 'cutoff_at' | 'created_at' | 'payout_attempt'>,
  { again = false } = {},
): Promise<void> {
  const input: SettlementWorkflowInput = {
    settlement_id: row.id,
    merchant_id: row.merchant_id,
    cutoff: row.cutoff_at.toISOString(),
    date: tehranDay(row.created_at),
    retry_attempt: row.payout_attempt,
  };
  try {
    await temporal.workflow.start(SETTLEMENT_WORKFLOW, {
      workflowId: settlementWorkflowId(row.id, row.payout_attempt),
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [input],
      workflowIdReusePolicy: again ? 'ALLOW_DUPLICATE' : 'REJECT_DUPLICATE',
      // A running attempt is left to finish: it is still asking the bank.
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: [
        { key: settlementSearchAttributes.status, value: 'pending' },
        { key: settlementSearchAttributes.merchantId, value: row.merchant_id },
        { key: settlementSearchAttributes.date, value: input.date },
      ],
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    throw error;
  }
}

/**
 * Starts the workflow of one beneficiary transfer's retry (`settlements retry-beneficiaries`): a running one is
 * left to finish, a completed one is not started again (its answer is recorded); one that failed or was
 * terminated before its answer is started again, asking under the same attempt's key (one transfer at the bank).
 */
export async function startBeneficiaryPayoutAttempt(
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  input: BeneficiaryPayoutInput,
): Promise<void> {
  try {
    await temporal.workflow.start(BENEFICIARY_PAYOUT_WORKFLOW, {
      workflowId: beneficiaryPayoutWorkflowId(input.settlement_id, input.beneficiary_id, input.attempt),
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [input],
      // A completed run recorded the answer; one that failed or was terminated before it may run again, under the same key.
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    throw error;
  }
}
