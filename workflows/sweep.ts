/**
 * The stuck-records sweep (docs/RELIABILITY.md#waiting-states), run by a
 * Temporal Schedule every STUCK_SWEEP_INTERVAL_SECONDS: one bounded batch of
 * each kind of record past its bound is driven on by the path a retry takes.
 * Records nothing can safely move (money may be in flight at the bank) are
 * not touched here: the dargah_stuck_records metric and `cli stuck` raise them.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { SweepActivities } from '../activities/sweep.ts';
import type { StuckSweepInput, StuckSweepResult } from '../src/domain/waiting-states.ts';

// Each activity handles its own records' failures; a failure of the whole (MySQL away) is retried a few
// times, then left to the next run.
const sweep = proxyActivities<SweepActivities>({
  startToCloseTimeout: '2m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
});

export async function stuckRecordsSweepWorkflow(input: StuckSweepInput): Promise<StuckSweepResult> {
  // One kind after another: a batch of refunds does not wait for payouts, and none hides another's failure.
  const refunds = await sweep.sendOnPendingRefunds(input);
  const events = await sweep.startMissingDeliveries(input);
  const payouts = await sweep.askUnansweredPayouts(input);
  return { refunds, events, payouts };
}
