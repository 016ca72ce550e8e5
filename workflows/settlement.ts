/**
 * Settlement (docs/LEDGER.md#settlement). A run, started by the Temporal
 * Schedule (SETTLEMENT_CRON) or `settlements run`, finds the merchants with
 * live money to settle and starts one settlement workflow per merchant: it
 * makes the settlement (its lines, the payout posting), asks the bank to
 * transfer the net to the merchant's IBAN, and records the answer. A payout
 * the bank refuses ends `failed`; only the operator's retry (`settlements
 * retry`, a new workflow for the next attempt) pays it again.
 */
import {
  executeChild,
  ParentClosePolicy,
  patched,
  proxyActivities,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { SettlementActivities } from '../activities/settlement.ts';
import {
  settlementSearchAttributes,
  settlementWorkflowId,
  type BeneficiaryPayoutInput,
  type SettlementOutcome,
  type SettlementRunInput,
  type SettlementWorkflowInput,
} from '../src/domain/settlement.ts';
import { BENEFICIARY_PAYOUTS_ONE_BY_ONE_PATCH } from './patches.ts';

// Records and the run's query: retried until MySQL answers.
const records = proxyActivities<SettlementActivities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});

// The transfer: retried only while the bank does not answer, always under the same key (one transfer).
// One call is bounded by BANK_TIMEOUT_MS (10 s by default); the attempt's bound matters when the worker
// died mid-call: it decides how soon another worker asks the bank again (a bank slower than that is
// simply asked again, under the same key).
const bank = proxyActivities<SettlementActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '10m' },
});

/** Merchants settled side by side in one run at most. */
const CONCURRENT_MERCHANTS = 10;

export async function settlementRunWorkflow(_input: SettlementRunInput): Promise<SettlementOutcome[]> {
  const { cutoff, date, merchant_ids } = await records.settlementCandidates();
  const outcomes: SettlementOutcome[] = [];
  for (let i = 0; i < merchant_ids.length; i += CONCURRENT_MERCHANTS) {
    const batch = merchant_ids.slice(i, i + CONCURRENT_MERCHANTS).map((merchant_id) => {
      const settlement_id = uuid4();
      return executeChild(settlementWorkflow, {
        workflowId: settlementWorkflowId(settlement_id),
        args: [{ settlement_id, merchant_id, cutoff, date }],
        taskQueue: workflowInfo().taskQueue,
        // A settlement runs to its end even if its run is terminated.
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: [
          { key: settlementSearchAttributes.status, value: 'pending' },
          { key: settlementSearchAttributes.merchantId, value: merchant_id },
          { key: settlementSearchAttributes.date, value: date },
        ],
      });
    });
    outcomes.push(...(await Promise.all(batch)));
  }
  return outcomes;
}

export async function settlementWorkflow(input: SettlementWorkflowInput): Promise<SettlementOutcome> {
  const { settlement_id } = input;
  let attempt = input.retry_attempt ?? 1;
  let net = 0;
  if (input.retry_attempt === undefined) {
    const made = await records.makeMerchantSettlement({
      settlement_id,
      merchant_id: input.merchant_id,
      cutoff: input.cutoff,
    });
    if ('carried' in made) return finish({ result: 'carried', net: made.carried }, 'carried');
    if ('skipped' in made) return finish({ result: 'skipped', reason: made.skipped }, 'skipped');
    attempt = made.made.attempt;
    net = made.made.net;
  }
  if (patched(BENEFICIARY_PAYOUTS_ONE_BY_ONE_PATCH)) {
    // One at a time: a beneficiary's answer (paid or refused) is recorded before the next is asked, and the
    // merchant's transfer is asked only after every share, as before.
    for (const share of await records.pendingBeneficiaryTransfers({ settlement_id }))
      await bank.payOutBeneficiary({ settlement_id, ...share });
  }
  const result = await bank.payOutSettlement({ settlement_id, attempt });
  await records.recordPayout({ settlement_id, attempt, result });
  const status = result.paid ? 'paid' : 'failed';
  return finish({ result: status, settlement_id, net }, status);
}

/**
 * The operator's retry of one beneficiary transfer the bank refused (`settlements retry`,
 * docs/LEDGER.md#split-settlement): a workflow type of its own, one per attempt, apart from the settlement's.
 * It asks the bank for this attempt's transfer, retried only while the bank does not answer, always under
 * the attempt's key (one transfer); the answer is recorded by the activity, once for this attempt.
 */
export async function beneficiaryPayoutWorkflow(
  input: BeneficiaryPayoutInput,
): ReturnType<SettlementActivities['payOutBeneficiary']> {
  return bank.payOutBeneficiary(input);
}

function finish(outcome: SettlementOutcome, status: string): SettlementOutcome {
  upsertSearchAttributes([{ key: settlementSearchAttributes.status, value: status }]);
  return outcome;
}
