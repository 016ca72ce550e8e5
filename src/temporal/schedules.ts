/**
 * The gateway's Temporal Schedules, created idempotently by every worker at
 * start: the first creates each one, the others find it (and bring it up to
 * date when the task queue or the interval changed).
 */
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptions } from '@temporalio/client';
import type { Config } from '../config.ts';
import {
  IDEMPOTENCY_CLEANUP_DEFAULTS,
  IDEMPOTENCY_CLEANUP_EVERY_MS,
  IDEMPOTENCY_CLEANUP_SCHEDULE_ID,
  IDEMPOTENCY_CLEANUP_WORKFLOW,
} from '../domain/maintenance.ts';

function idempotencyCleanupSchedule(config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>): ScheduleOptions {
  return {
    scheduleId: IDEMPOTENCY_CLEANUP_SCHEDULE_ID,
    spec: { intervals: [{ every: IDEMPOTENCY_CLEANUP_EVERY_MS }] },
    action: {
      type: 'startWorkflow',
      workflowType: IDEMPOTENCY_CLEANUP_WORKFLOW,
      workflowId: 'idempotency-cleanup',
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [IDEMPOTENCY_CLEANUP_DEFAULTS],
      workflowExecutionTimeout: IDEMPOTENCY_CLEANUP_EVERY_MS,
    },
    // One run at a time; a run missed while the cluster was down is not made up several times over.
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 60_000 },
  };
}

/** Creates the cleanup of expired Idempotency-Key records (every 10 minutes) unless it exists. */
export async function ensureIdempotencyCleanupSchedule(temporal: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>): Promise<void> {
  const desired = idempotencyCleanupSchedule(config);
  try {
    await temporal.schedule.create(desired);
    return;
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  const handle = temporal.schedule.getHandle(IDEMPOTENCY_CLEANUP_SCHEDULE_ID);
  const current = await handle.describe();
  const every = current.spec.intervals?.[0]?.every;
  const sameQueue = current.action.type === 'startWorkflow' && current.action.taskQueue === config.TEMPORAL_TASK_QUEUE;
  if (sameQueue && Number(every) === IDEMPOTENCY_CLEANUP_EVERY_MS) return;
  await handle.update((previous) => ({ ...previous, spec: desired.spec, action: desired.action }));
}
