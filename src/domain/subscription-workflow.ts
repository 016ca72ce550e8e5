/**
 * The subscription workflow's contract (workflows/subscription.ts), shared by the service that starts
 * and updates it and the activities it calls: one workflow per subscription, id
 * `subscription-<id>`, a type of its own.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { AdvanceClockInput } from './payment-workflow.ts';
import type { DebitWorkflowInput } from './debit-workflow.ts';
import type { PlanPeriod, SubscriptionStatus } from './subscription.ts';

export const SUBSCRIPTION_WORKFLOW = 'subscriptionWorkflow';
export const subscriptionWorkflowId = (id: string) => `subscription-${id}`;

/**
 * Why a subscription ended: the merchant asked, the retries ran out, or its mandate ended (canceled
 * or expired), after which every charge would be refused at the admission.
 */
export type SubscriptionCancelReason = 'requested' | 'charge_failed' | 'mandate_canceled' | 'mandate_expired';

/** The fields of the subscription's row its workflow owns and records (timestamps in epoch ms). */
export interface SubscriptionRecord {
  version: number;
  status: SubscriptionStatus;
  current_period: number;
  failed_attempts: number;
  cancel_at_period_end: boolean;
  last_payment_id: string | null;
  cancel_reason: SubscriptionCancelReason | null;
  canceled_at_ms: number | null;
}

/** A new subscription's record, as its row is written at creation (version 1). */
export const NEW_SUBSCRIPTION_RECORD: SubscriptionRecord = {
  version: 1,
  status: 'active',
  current_period: 0,
  failed_attempts: 0,
  cancel_at_period_end: false,
  last_payment_id: null,
  cancel_reason: null,
  canceled_at_ms: null,
};

export interface SubscriptionWorkflowInput {
  subscription_id: string;
  plan: PlanPeriod;
  /** Period 0's start, epoch ms: every period's start is computed from it. */
  anchor_ms: number;
  /** The first period this run charges (0 at creation; continueAsNew carries it on). */
  next_period: number;
  /** How far the test clock was moved before this run (continueAsNew carries it on). */
  clock_offset_ms: number;
  record: SubscriptionRecord;
}

export interface CancelSubscriptionInput {
  at_period_end: boolean;
  /**
   * Set only by the mandate's workflow when its mandate ended: the subscription ends at once with
   * this reason, whatever at_period_end says (no charge after can succeed). Absent: `requested`.
   */
  reason?: 'mandate_canceled' | 'mandate_expired';
}

/** The merchant's cancel: answers once it is recorded. */
export const cancelSubscriptionUpdate = defineUpdate<SubscriptionRecord, [CancelSubscriptionInput]>(
  'cancelSubscription',
);
/** The test helper's advance of the subscription's own clock: answers once the timers due have run. */
export const advanceSubscriptionClockUpdate = defineUpdate<SubscriptionRecord, [AdvanceClockInput]>(
  'advanceSubscriptionClock',
);
export const subscriptionQuery = defineQuery<SubscriptionRecord>('subscription');

/** A period's charge as the admission answered it: a debit to take, or refused before any provider. */
export type ChargeAdmission = { kind: 'admitted'; debit: DebitWorkflowInput } | { kind: 'refused'; code: string };

/** What the workflow asks the record activity to write, and the event it carries. */
export interface SubscriptionRecordInput {
  subscription_id: string;
  record: SubscriptionRecord;
  /** The period's dates, epoch ms. */
  period_start_ms: number;
  period_end_ms: number;
  event?: { type: 'subscription.charged' | 'subscription.past_due' | 'subscription.canceled'; payment_id?: string };
}
