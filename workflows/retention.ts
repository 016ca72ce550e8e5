/**
 * The retention workflow (docs/RETENTION.md), run by a Temporal Schedule every
 * 10 minutes (src/temporal/schedules.ts): each pruned table of the plan in
 * turn, in batches of `batch_size` rows until a batch comes back short (none
 * past its period is left) or `max_batches` (the next run goes on). Short
 * statements, one table after another: no batch holds a lock for long, and a
 * table with a backlog does not keep the others from their turn next time.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { RetentionActivities } from '../activities/retention.ts';
import type { RetentionInput, RetentionResult } from '../src/domain/retention.ts';

// A batch that fails (MySQL away) is retried a few times; a run that still fails is left to the next one.
const retention = proxyActivities<RetentionActivities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
});

export async function retentionWorkflow({ batch_size, max_batches }: RetentionInput): Promise<RetentionResult> {
  // The plan comes from an activity, so it is part of the history: a worker with a longer list replays this run unchanged.
  const tables = await retention.retentionPlan();
  const pruned: RetentionResult = {};
  for (const table of tables) {
    pruned[table] = 0;
    for (let batch = 0; batch < max_batches; batch++) {
      const deleted = await retention.pruneRetentionBatch({ table, batch_size });
      pruned[table] += deleted;
      if (deleted < batch_size) break;
    }
  }
  return pruned;
}
