/**
 * The gateway's Temporal Schedules, created idempotently by every worker at
 * start: the first creates each one, the others find it (and bring it up to
 * date when the task queue or the interval changed).
 */
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptions,
} from '@temporalio/client';
import type { Config } from '../config.ts';
import { IDEMPOTENCY_CLEANUP_SCHEDULE_ID } from '../domain/maintenance.ts';
import {
  RETENTION_EVERY_MS,
  RETENTION_SCHEDULE_ID,
  RETENTION_WORKFLOW,
  type RetentionInput,
} from '../domain/retention.ts';
import { SETTLEMENT_RUN_WORKFLOW, SETTLEMENT_SCHEDULE_ID, type SettlementRunInput } from '../domain/settlement.ts';
import { TEHRAN_TIME_ZONE } from '../domain/calendar.ts';
import { STUCK_SWEEP_SCHEDULE_ID, STUCK_SWEEP_WORKFLOW, type StuckSweepInput } from '../domain/waiting-states.ts';

type RetentionConfig = Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'RETENTION_BATCH_SIZE' | 'RETENTION_MAX_BATCHES'>;

function retentionSchedule(config: RetentionConfig): ScheduleOptions & { memo: { settings: string } } {
  const input: RetentionInput = { batch_size: config.RETENTION_BATCH_SIZE, max_batches: config.RETENTION_MAX_BATCHES };
  return {
    scheduleId: RETENTION_SCHEDULE_ID,
    spec: { intervals: [{ every: RETENTION_EVERY_MS }] },
    action: {
      type: 'startWorkflow',
      workflowType: RETENTION_WORKFLOW,
      workflowId: 'retention',
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [input],
      // A run that outlives its interval is ended: the next one starts over from the rows left.
      workflowExecutionTimeout: RETENTION_EVERY_MS,
    },
    memo: {
      settings: [config.TEMPORAL_TASK_QUEUE, config.RETENTION_BATCH_SIZE, config.RETENTION_MAX_BATCHES].join(' '),
    },
    // One run at a time; a run missed while the cluster was down is not made up several times over.
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 60_000 },
  };
}

/**
 * Creates the retention workflow's schedule (every 10 minutes, docs/RETENTION.md) unless it exists, makes it
 * again when its settings changed, and deletes the expired Idempotency-Key cleanup's schedule it replaces
 * (a cleanup run still going finishes: its workflow type stays registered).
 */
export async function ensureRetentionSchedule(temporal: Client, config: RetentionConfig): Promise<void> {
  await ensureScheduleWithMemo(temporal, retentionSchedule(config));
  await temporal.schedule
    .getHandle(IDEMPOTENCY_CLEANUP_SCHEDULE_ID)
    .delete()
    .catch((error: unknown) => {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    });
}

/**
 * Creates `desired` unless a schedule of its id exists; one made from other settings (its memo's
 * `settings` differ) is made again. The memo cannot be updated in place, hence delete and create; a
 * worker starting at the same moment may have made it first: theirs stands.
 */
async function ensureScheduleWithMemo(
  temporal: Client,
  desired: ScheduleOptions & { memo: { settings: string } },
): Promise<void> {
  try {
    await temporal.schedule.create(desired);
    return;
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  const handle = temporal.schedule.getHandle(desired.scheduleId);
  const current = await handle.describe();
  if (current.memo?.settings === desired.memo.settings) return;
  await handle.delete();
  await temporal.schedule.create(desired).catch((error: unknown) => {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  });
}

function settlementSchedule(config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'SETTLEMENT_CRON'>): ScheduleOptions {
  const input: SettlementRunInput = { trigger: 'schedule' };
  return {
    scheduleId: SETTLEMENT_SCHEDULE_ID,
    // Settlement cycles follow the Iranian banking day.
    spec: { cronExpressions: [config.SETTLEMENT_CRON], timezone: TEHRAN_TIME_ZONE },
    action: {
      type: 'startWorkflow',
      workflowType: SETTLEMENT_RUN_WORKFLOW,
      workflowId: 'settlement-run',
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [input],
    },
    // Temporal describes a cron as calendars; the memo keeps the expression it was made from, to compare.
    memo: { cron: config.SETTLEMENT_CRON },
    // One run at a time; one asked for during a run (settlements run) follows it. A day missed while the
    // cluster was down is made up once, within a day.
    policies: { overlap: ScheduleOverlapPolicy.BUFFER_ONE, catchupWindow: 24 * 3_600_000 },
  };
}

/** Creates the daily settlement run (SETTLEMENT_CRON in Asia/Tehran) unless it exists; brings its cron and queue up to date. */
export async function ensureSettlementSchedule(
  temporal: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'SETTLEMENT_CRON'>,
): Promise<void> {
  const desired = settlementSchedule(config);
  try {
    await temporal.schedule.create(desired);
    return;
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
  const handle = temporal.schedule.getHandle(SETTLEMENT_SCHEDULE_ID);
  const current = await handle.describe();
  const sameQueue = current.action.type === 'startWorkflow' && current.action.taskQueue === config.TEMPORAL_TASK_QUEUE;
  const sameCron = current.memo?.cron === config.SETTLEMENT_CRON;
  if (sameQueue && sameCron) return;
  // The memo cannot be updated: the schedule is made again with the new cron.
  await handle.delete();
  await temporal.schedule.create(desired);
}

/** Starts a settlement run now, through the schedule (its overlap policy applies). */
export async function triggerSettlementRun(temporal: Client): Promise<void> {
  await temporal.schedule.getHandle(SETTLEMENT_SCHEDULE_ID).trigger(ScheduleOverlapPolicy.BUFFER_ONE);
}

type StuckSweepConfig = Pick<
  Config,
  'TEMPORAL_TASK_QUEUE' | 'STUCK_SWEEP_INTERVAL_SECONDS' | 'STUCK_AFTER_SECONDS' | 'STUCK_SWEEP_BATCH_SIZE'
>;

function stuckSweepSchedule(config: StuckSweepConfig): ScheduleOptions & { memo: { settings: string } } {
  const everyMs = config.STUCK_SWEEP_INTERVAL_SECONDS * 1000;
  const input: StuckSweepInput = {
    after_ms: config.STUCK_AFTER_SECONDS * 1000,
    batch_size: config.STUCK_SWEEP_BATCH_SIZE,
  };
  return {
    scheduleId: STUCK_SWEEP_SCHEDULE_ID,
    spec: { intervals: [{ every: everyMs }] },
    action: {
      type: 'startWorkflow',
      workflowType: STUCK_SWEEP_WORKFLOW,
      workflowId: 'stuck-records-sweep',
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      args: [input],
      // A run that outlives its interval is ended: the next one starts over from the records.
      workflowExecutionTimeout: Math.max(everyMs, 5 * 60_000),
    },
    // The settings it was made from, to compare: a changed one makes it again.
    memo: { settings: stuckSweepSettings(config) },
    // One run at a time; runs missed while the cluster was down are not made up several times over.
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: 60_000 },
  };
}

const stuckSweepSettings = (config: StuckSweepConfig) =>
  [
    config.TEMPORAL_TASK_QUEUE,
    config.STUCK_SWEEP_INTERVAL_SECONDS,
    config.STUCK_AFTER_SECONDS,
    config.STUCK_SWEEP_BATCH_SIZE,
  ].join(' ');

/** Creates the stuck-records sweep (every STUCK_SWEEP_INTERVAL_SECONDS) unless it exists; makes it again when its settings changed. */
export async function ensureStuckSweepSchedule(temporal: Client, config: StuckSweepConfig): Promise<void> {
  await ensureScheduleWithMemo(temporal, stuckSweepSchedule(config));
}
