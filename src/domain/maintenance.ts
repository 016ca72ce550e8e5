/**
 * The contract of the expired Idempotency-Key cleanup (workflows/maintenance.ts),
 * which the retention workflow (src/domain/retention.ts) replaced: its type
 * stays registered so a run started before the switch completes, and its
 * schedule's id is kept so every worker deletes that schedule at start.
 */

/** Deletes expired Idempotency-Key records, a batch at a time, until none is left. */
export const IDEMPOTENCY_CLEANUP_WORKFLOW = 'idempotencyCleanupWorkflow';

/** The Temporal Schedule that ran it until the retention schedule took its place. */
export const IDEMPOTENCY_CLEANUP_SCHEDULE_ID = 'dargah-idempotency-cleanup';

export interface IdempotencyCleanupInput {
  /** Rows deleted per statement: short statements, short locks. */
  batch_size: number;
  /** Batches in one run at most; the next run goes on. */
  max_batches: number;
}
