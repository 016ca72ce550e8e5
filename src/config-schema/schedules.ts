/**
 * The settings of the worker's scheduled runs (src/config-schema.ts): the daily settlement and its
 * hold, the stuck-records sweep (docs/RELIABILITY.md#waiting-states), and the retention workflow's
 * periods and batches (docs/RETENTION.md). Together, as the work the worker starts by itself rather
 * than at a request.
 */
import { Type } from '@sinclair/typebox';
import { Int } from './setting.ts';

/** The daily settlement and its hold, and the stuck-records sweep (docs/RELIABILITY.md#waiting-states). */
export const settlementSweepSettings = {
  SETTLEMENT_CRON: Type.String({
    default: '30 0 * * *',
    pattern: '^\\S+( \\S+){4}$',
    description:
      'settlement: when the daily run starts, a five-field cron expression in Asia/Tehran time (default 00:30)',
  }),
  SETTLEMENT_HOLD_HOURS: Int({
    default: 24,
    minimum: 0,
    maximum: 24 * 90,
    description:
      'settlement: a live payment is settled once it has been verified this long (a margin for disputes and refunds)',
  }),
  STUCK_SWEEP_INTERVAL_SECONDS: Int({
    default: 300,
    minimum: 1,
    maximum: 86_400,
    description:
      'worker: how often the stuck-records sweep runs (a Temporal Schedule; docs/RELIABILITY.md#waiting-states)',
  }),
  STUCK_AFTER_SECONDS: Int({
    default: 600,
    minimum: 1,
    description:
      "a refund pending, a payout without an answer or an event without a delivery this long is sent on by the sweep; added to each waiting state's own window before `cli stuck` and the dargah_stuck_records metric raise it",
  }),
  STUCK_SWEEP_BATCH_SIZE: Int({
    default: 100,
    minimum: 1,
    maximum: 10_000,
    description: 'worker: records of each kind one sweep run sends on at most; the next run goes on',
  }),
};

/** The retention periods of events and rejected documents, and the retention workflow's batches (docs/RETENTION.md). */
export const retentionSettings = {
  EVENT_RETENTION_DAYS: Int({
    default: 90,
    minimum: 7,
    maximum: 3650,
    description:
      "events and their webhook attempts older than this are pruned (docs/RETENTION.md): the API lists and redelivers events, and the dashboard shows them, this long; longer than a delivery's whole retry schedule",
  }),
  REJECTED_DOCUMENTS_RETENTION_DAYS: Int({
    default: 90,
    minimum: 1,
    maximum: 3650,
    description:
      "business documents the operator rejected are pruned (rows and files) once the merchant's documents have stood rejected this long without a new set",
  }),
  RETENTION_BATCH_SIZE: Int({
    default: 500,
    minimum: 1,
    maximum: 10_000,
    description: 'worker: rows one statement of the retention workflow deletes at most (short statements, short locks)',
  }),
  RETENTION_MAX_BATCHES: Int({
    default: 100,
    minimum: 1,
    maximum: 10_000,
    description: 'worker: batches per table in one retention run (every 10 minutes) at most; the next run goes on',
  }),
};
