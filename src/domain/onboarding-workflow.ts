/**
 * The contract of the merchant onboarding workflow (workflows/onboarding.ts):
 * its id, input, messages and search attribute, shared by the workflow, its
 * activities and whoever starts or messages it. Names here are part of every
 * running history: renaming one breaks replay.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { defineSearchAttributeKey } from '@temporalio/common';
import type { OnboardingRefusalCode, OnboardingStatus } from './onboarding.ts';

/** The workflow type, as the worker registers it. */
export const ONBOARDING_WORKFLOW = 'merchantOnboardingWorkflow';
export const onboardingWorkflowId = (merchantId: string) => `merchant-onboarding-${merchantId}`;

/** The ApplicationFailure type of a refused step; its details hold the OnboardingRefusalCode. */
export const ONBOARDING_REFUSED = 'onboarding_refused';
export type OnboardingRefusalDetails = [OnboardingRefusalCode];

/** A decision email the workflow still has to send (kept across continue-as-new). */
export interface DecisionEmail {
  merchant_id: string;
  decision: 'approved' | 'rejected';
  reason: string | null;
  /** The version of the decision: one email per decision, whatever the retries. */
  version: number;
}

/** Everything the workflow carries from one run to the next (continue-as-new) and starts from. */
export interface OnboardingState {
  merchant_id: string;
  status: OnboardingStatus;
  /** 1 at sign-up, one more per recorded step; the merchants row is written only forward. */
  version: number;
  rejection_reason: string | null;
  /** Counts the times the request went under review; the reminder belongs to one round. */
  review_round: number;
  /** When the current round began (ms since the epoch, workflow time). */
  review_started_at_ms: number | null;
  /** When the current round's reminder is due (ms since the epoch, workflow time); null: none pending. */
  reminder_due_at_ms: number | null;
  outbox: DecisionEmail[];
}

export interface OnboardingWorkflowInput {
  state: OnboardingState;
}

/** The first state of a merchant's workflow, from its record (a new merchant, or one that existed before the workflow). */
export function initialOnboardingState(
  merchantId: string,
  status: OnboardingStatus,
  version: number,
  rejectionReason: string | null,
): OnboardingState {
  return {
    merchant_id: merchantId,
    status,
    version,
    rejection_reason: rejectionReason,
    review_round: 0,
    review_started_at_ms: null,
    reminder_due_at_ms: null,
    outbox: [],
  };
}

/** What every Update answers: the merchant's onboarding as now recorded. */
export interface OnboardingView {
  merchant_id: string;
  status: OnboardingStatus;
  version: number;
  rejection_reason: string | null;
}

export interface AddDomainInput {
  domain: string;
}

export interface SubmitDocumentsInput {
  /** The submission (merchant_document_submissions) the dashboard or CLI stored as a draft; never its contents. */
  submission_id: string;
}

export interface GatewayDecision {
  decision: 'approve' | 'reject';
  /** Required for a rejection: shown to the merchant and emailed. */
  reason?: string;
}

export const addDomainUpdate = defineUpdate<OnboardingView, [AddDomainInput]>('addDomain');
export const submitDocumentsUpdate = defineUpdate<OnboardingView, [SubmitDocumentsInput]>('submitDocuments');
export const requestGatewayUpdate = defineUpdate<OnboardingView, []>('requestGateway');
/** The operator's decision (CLI `gateways approve|reject`). */
export const decideGatewayUpdate = defineUpdate<OnboardingView, [GatewayDecision]>('decideGateway');
export const activateLiveUpdate = defineUpdate<OnboardingView, []>('activateLive');
export const onboardingQuery = defineQuery<OnboardingView>('onboarding');

export const onboardingSearchAttributes = {
  status: defineSearchAttributeKey('OnboardingStatus', 'KEYWORD'),
} as const;

/** Name → type, registered with the payments' attributes (src/domain/payment-workflow.ts SEARCH_ATTRIBUTE_TYPES). */
export const ONBOARDING_SEARCH_ATTRIBUTE_TYPES: Record<string, 'Keyword'> = { OnboardingStatus: 'Keyword' };

/** The event types of onboarding_events, one per recorded step, and the operator's reminder. */
export type OnboardingEventType =
  | 'domain_added'
  | 'documents_submitted'
  | 'gateway_requested'
  | 'review_started'
  | 'gateway_approved'
  | 'gateway_rejected'
  | 'live_activated'
  | 'review_reminder';

/** Input of the activity that records a step on the merchants row and in onboarding_events. */
export interface OnboardingRecord {
  merchant_id: string;
  status: OnboardingStatus;
  version: number;
  rejection_reason: string | null;
  event: OnboardingEventType;
}

export interface ReviewReminder {
  merchant_id: string;
  review_round: number;
  /** How long the request has waited, in ms. */
  waited_ms: number;
}
