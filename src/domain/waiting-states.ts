/**
 * Nothing stays stuck (docs/RELIABILITY.md#waiting-states): every state of a
 * record that waits on something, who moves it on, how long it may
 * legitimately wait, and what happens past that bound — the stuck-records
 * sweep drives it on (`sweep`), or it is raised to the operator (`raise`:
 * the dargah_stuck_records metric, its alert and `cli stuck`). States that
 * wait on nobody but the merchant (a verified payment, an onboarding step
 * not taken yet) are at rest (`none`). Pure code: the sweep's workflow, its
 * activities, the CLI and the test of the docs' table read it.
 */
import { ONBOARDING_STATUSES } from './onboarding.ts';
import { PAYMENT_STATUSES } from './payment.ts';
import { REFUND_STATUSES } from './refund.ts';
import { SETTLEMENT_STATUSES } from './settlement.ts';

/** The records that can wait; webhook events and deliveries have no status column, their states are named here. */
export const WEBHOOK_EVENT_STATES = ['recorded', 'dispatched'] as const;
export const WEBHOOK_DELIVERY_STATES = ['retrying', 'delivered', 'exhausted', 'ended'] as const;

/** Every record's states, from the lists the code uses. */
export const RECORD_STATES = {
  payment: PAYMENT_STATUSES,
  refund: REFUND_STATUSES,
  settlement: SETTLEMENT_STATUSES,
  webhook_event: WEBHOOK_EVENT_STATES,
  webhook_delivery: WEBHOOK_DELIVERY_STATES,
  onboarding: ONBOARDING_STATUSES,
} as const;
export type WaitingRecord = keyof typeof RECORD_STATES;

/** The states a record never leaves: nothing waits. */
export const FINAL_STATES: { readonly [R in WaitingRecord]: readonly (typeof RECORD_STATES)[R][number][] } = {
  payment: ['failed', 'canceled', 'expired', 'reversed'],
  refund: ['succeeded', 'failed'],
  settlement: ['paid'],
  webhook_event: ['dispatched'],
  webhook_delivery: ['delivered', 'exhausted', 'ended'],
  onboarding: ['live'],
};

/**
 * Past its bound: the sweep drives the record on by the path a retry takes (`sweep`), or the
 * operator is told (`raise`); `none` for a state at rest, which waits on the merchant's own choice
 * (a verified payment's refunds, the next onboarding step) and has no bound.
 */
export type PastBound = 'sweep' | 'raise' | 'none';

export interface WaitingState {
  record: WaitingRecord;
  state: string;
  past: PastBound;
  /** Why it is listed by `cli stuck` past its bound. */
  reason: string;
}

const AT_REST = 'waits on the merchant: no bound';

/** Every state that is not final, of every record (test-checked against RECORD_STATES and the docs' table). */
export const WAITING_STATES: readonly WaitingState[] = [
  {
    record: 'payment',
    state: 'created',
    past: 'raise',
    reason: 'its workflow has not expired it (PAYMENT_TTL_SECONDS passed long ago)',
  },
  {
    record: 'payment',
    state: 'pending',
    past: 'raise',
    reason: 'the bank has not confirmed it within BANK_PENDING_LIMIT_SECONDS: money may be in flight at the bank',
  },
  {
    record: 'payment',
    state: 'paid',
    past: 'raise',
    reason:
      "neither verified nor reversed past VERIFY_WINDOW_SECONDS, or a payment link's payment whose settle its workflow gave up on: money is held at the bank",
  },
  { record: 'payment', state: 'verified', past: 'none', reason: AT_REST },
  { record: 'payment', state: 'partially_refunded', past: 'none', reason: AT_REST },
  { record: 'payment', state: 'refunded', past: 'none', reason: AT_REST },
  {
    record: 'refund',
    state: 'awaiting_approval',
    past: 'none',
    reason: "waits on the gateway's operator (refunds approvals): no bound",
  },
  {
    record: 'refund',
    state: 'awaiting_payer',
    past: 'none',
    reason: 'waits on the customer (its claim link): no bound',
  },
  {
    record: 'refund',
    state: 'pending',
    past: 'sweep',
    reason: 'the bank has not paid it out: sent on to its refunds workflow under its own id',
  },
  {
    record: 'settlement',
    state: 'pending',
    past: 'sweep',
    reason: 'the payout has no answer recorded: asked again under its key',
  },
  {
    record: 'settlement',
    state: 'failed',
    past: 'raise',
    reason: 'the bank refused the payout: only the operator retries it (settlements retry)',
  },
  {
    record: 'webhook_event',
    state: 'recorded',
    past: 'sweep',
    reason: 'no delivery was started to a subscribed endpoint: started now',
  },
  {
    record: 'webhook_delivery',
    state: 'retrying',
    past: 'raise',
    reason: 'its receiver keeps failing (the webhook backlog alert)',
  },
  ...(['account_created', 'domain_added', 'documents_submitted', 'rejected', 'approved'] as const).map((state) => ({
    record: 'onboarding' as const,
    state,
    past: 'none' as const,
    reason: AT_REST,
  })),
  {
    record: 'onboarding',
    state: 'gateway_requested',
    past: 'raise',
    reason: 'its onboarding workflow has not put the request under review',
  },
  {
    record: 'onboarding',
    state: 'under_review',
    past: 'raise',
    reason: 'the operator has not decided (REVIEW_REMINDER_HOURS)',
  },
];

/** The sweep's workflow type and the Temporal Schedule that starts it (created or brought up to date by every worker). */
export const STUCK_SWEEP_WORKFLOW = 'stuckRecordsSweepWorkflow';
export const STUCK_SWEEP_SCHEDULE_ID = 'dargah-stuck-sweep';

export interface StuckSweepInput {
  /** A record waiting longer than this is past its bound (STUCK_AFTER_SECONDS). */
  after_ms: number;
  /** Records of each kind taken in one run at most (STUCK_SWEEP_BATCH_SIZE); the next run goes on. */
  batch_size: number;
}

/** How many records of each kind one run sent on. */
export interface StuckSweepResult {
  refunds: number;
  events: number;
  payouts: number;
}

/** One record past its bound, as `cli stuck` lists it and the metric counts it. */
export interface StuckRecord {
  record: WaitingRecord;
  id: string;
  state: string;
  age_seconds: number;
  past: PastBound;
  reason: string;
}
