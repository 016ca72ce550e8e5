/**
 * Housekeeping that the retention workflow (workflows/retention.ts) replaced,
 * kept registered so a run started before the switch completes: one
 * run deletes expired Idempotency-Key records in batches until a batch comes
 * back short, i.e. none is left (or max_batches, and the next run goes on).
 */
import { proxyActivities } from '@temporalio/workflow';
import type { MaintenanceActivities } from '../activities/maintenance.ts';
import type { IdempotencyCleanupInput } from '../src/domain/maintenance.ts';

const maintenance = proxyActivities<MaintenanceActivities>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
});

export async function idempotencyCleanupWorkflow({
  batch_size,
  max_batches,
}: IdempotencyCleanupInput): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < max_batches; batch++) {
    const deleted = await maintenance.deleteExpiredIdempotencyKeys({ batch_size });
    total += deleted;
    if (deleted < batch_size) break;
  }
  return total;
}
