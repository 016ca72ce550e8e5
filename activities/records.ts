/**
 * Record activities: the payment workflow's only way to write MySQL. Each
 * write carries the payment's next version, so a retried or replayed
 * activity never moves a record backwards, and each change's event is
 * written in the same transaction (an outbox: the event exists exactly when
 * the change does), then handed to its delivery workflows. This module
 * composes them, one file a job, under activities/records/:
 * - versions.ts: what every version's write does: the row locked and checked, the payment as events
 *   show it, the version's event, the transition counted, the events dispatched;
 * - start.ts: the payment's creation announced, and the PSP that gave it its token;
 * - late-returns.ts: a paid return for a payment already ended;
 * - reads.ts: the merchant's live standing, and the payment a refund is decided on;
 * - transitions.ts: a payment's next version with its posting and event;
 * - refunds.ts: a refund and the payment's version it changes, with the balance's hold.
 * The activities' names are the activity types in the histories: they never change.
 */
import { lateReturnActivities } from './records/late-returns.ts';
import { recordReadActivities } from './records/reads.ts';
import { refundRecordActivities } from './records/refunds.ts';
import { paymentStartActivities } from './records/start.ts';
import { transitionActivities } from './records/transitions.ts';
import { recordWriteKit, type RecordActivityDependencies } from './records/versions.ts';

export type { RecordActivityDependencies } from './records/versions.ts';
export type { RecordedForRefund } from './records/reads.ts';
export type { RecordedRefund, RecordRefundInput } from './records/refunds.ts';

export function createRecordActivities(dependencies: RecordActivityDependencies) {
  const kit = recordWriteKit(dependencies);
  return {
    ...paymentStartActivities(dependencies, kit),
    ...lateReturnActivities(dependencies),
    ...recordReadActivities(dependencies),
    ...transitionActivities(dependencies, kit),
    ...refundRecordActivities(dependencies, kit),
  };
}

export type RecordActivities = ReturnType<typeof createRecordActivities>;
