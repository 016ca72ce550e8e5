/**
 * The contract of the gateway's housekeeping workflow (workflows/maintenance.ts),
 * shared by the workflow, its activity and the Temporal Schedule that runs it.
 */

/** Deletes expired Idempotency-Key records, a batch at a time, until none is left. */
export const IDEMPOTENCY_CLEANUP_WORKFLOW = 'idempotencyCleanupWorkflow';

/** The Temporal Schedule that runs it; created (or brought up to date) by every worker at start. */
export const IDEMPOTENCY_CLEANUP_SCHEDULE_ID = 'dargah-idempotency-cleanup';

/** How often the schedule runs the cleanup. */
export const IDEMPOTENCY_CLEANUP_EVERY_MS = 10 * 60 * 1000;

export interface IdempotencyCleanupInput {
  /** Rows deleted per statement: short statements, short locks. */
  batch_size: number;
  /** Batches in one run at most; the next run goes on. */
  max_batches: number;
}

export const IDEMPOTENCY_CLEANUP_DEFAULTS: IdempotencyCleanupInput = { batch_size: 1000, max_batches: 1000 };
