/**
 * A merchant's onboarding, as one state machine (docs/DASHBOARD.md#onboarding):
 * account created → domain added → business documents submitted → gateway
 * requested → under review → approved (or rejected with a reason; the
 * merchant fixes the documents and resubmits, and the request is under review
 * again) → live mode activated by the merchant. The onboarding workflow
 * (workflows/onboarding.ts) is the only code that moves a merchant along it;
 * its Update validators ask `onboardingStep` and nothing else, so the rule
 * lives here once.
 */

export const ONBOARDING_STATUSES = [
  'account_created',
  'domain_added',
  'documents_submitted',
  'gateway_requested',
  'under_review',
  'rejected',
  'approved',
  'live',
] as const;
export type OnboardingStatus = (typeof ONBOARDING_STATUSES)[number];

export const isOnboardingStatus = (value: unknown): value is OnboardingStatus =>
  (ONBOARDING_STATUSES as readonly unknown[]).includes(value);

/** What a merchant (or, for approve and reject, an operator) asks for. */
export type OnboardingAction =
  'add_domain' | 'submit_documents' | 'request_gateway' | 'approve' | 'reject' | 'activate_live';

/** Why a step is refused; each has one message for operators (below) and words in the dashboard. */
export type OnboardingRefusalCode =
  | 'domain_required'
  | 'documents_required'
  | 'in_review'
  | 'resubmission_required'
  | 'already_approved'
  | 'not_requested'
  | 'not_under_review'
  | 'not_approved'
  | 'reason_required';

export const ONBOARDING_REFUSAL_MESSAGES: Readonly<Record<OnboardingRefusalCode, string>> = {
  domain_required: 'add the site domain first (domains add)',
  documents_required: 'submit the business documents first (documents submit, or the dashboard)',
  in_review: 'the gateway request is under review; the documents cannot change until the decision',
  resubmission_required: 'the gateway request was rejected; the merchant must fix and resubmit the business documents',
  already_approved: 'the gateway is already approved',
  not_requested: 'the merchant has not requested a gateway (gateways request)',
  not_under_review: 'the request is not under review: it was rejected and waits for the merchant to resubmit',
  not_approved: 'the gateway is not approved yet; live mode needs an approved gateway (gateways approve)',
  reason_required: 'a rejection needs a reason of 1 to 500 characters (--reason)',
};

/** A step's outcome: a move to a status (possibly the same one again, recorded as a new version), nothing to do, or a refusal. */
export type OnboardingStep =
  { kind: 'move'; to: OnboardingStatus } | { kind: 'same' } | { kind: 'refused'; code: OnboardingRefusalCode };

const move = (to: OnboardingStatus): OnboardingStep => ({ kind: 'move', to });
const same: OnboardingStep = { kind: 'same' };
const refused = (code: OnboardingRefusalCode): OnboardingStep => ({ kind: 'refused', code });

const BEFORE_REQUEST: readonly OnboardingStatus[] = ['account_created', 'domain_added', 'documents_submitted'];
const IN_REVIEW: readonly OnboardingStatus[] = ['gateway_requested', 'under_review'];
const APPROVED: readonly OnboardingStatus[] = ['approved', 'live'];

/**
 * The one table of onboarding: what `action` does in `status`. Asking again
 * for what is already done (a second gateway request, approving an approved
 * gateway, activating live mode twice) changes nothing and is not refused.
 */
export function onboardingStep(status: OnboardingStatus, action: OnboardingAction): OnboardingStep {
  switch (action) {
    case 'add_domain':
      // Domains may be added at any time; the first one is the onboarding step.
      return status === 'account_created' ? move('domain_added') : same;
    case 'submit_documents':
      if (status === 'account_created') return refused('domain_required');
      if (status === 'domain_added' || status === 'documents_submitted') return move('documents_submitted');
      if (status === 'rejected') return move('under_review');
      return IN_REVIEW.includes(status) ? refused('in_review') : refused('already_approved');
    case 'request_gateway':
      if (status === 'account_created') return refused('domain_required');
      if (status === 'domain_added') return refused('documents_required');
      if (status === 'documents_submitted') return move('gateway_requested');
      return status === 'rejected' ? refused('resubmission_required') : same;
    case 'approve':
      if (IN_REVIEW.includes(status)) return move('approved');
      if (APPROVED.includes(status)) return same;
      return status === 'rejected' ? refused('not_under_review') : refused('not_requested');
    case 'reject':
      if (IN_REVIEW.includes(status)) return move('rejected');
      if (APPROVED.includes(status)) return refused('already_approved');
      return status === 'rejected' ? refused('not_under_review') : refused('not_requested');
    case 'activate_live':
      if (status === 'approved') return move('live');
      return status === 'live' ? same : refused('not_approved');
  }
}

/** The gateway's status as the merchants table has always recorded it (`gateway_status`). */
export type GatewayStatus = 'none' | 'requested' | 'rejected' | 'approved';

export function gatewayStatusOf(status: OnboardingStatus): GatewayStatus {
  if (BEFORE_REQUEST.includes(status)) return 'none';
  if (IN_REVIEW.includes(status)) return 'requested';
  return status === 'rejected' ? 'rejected' : 'approved';
}

export const REJECTION_REASON_MAX = 500;

/** An operator's reason for a rejection, shown to the merchant: 1 to 500 characters, trimmed; undefined when unusable. */
export function rejectionReason(input: string | undefined): string | undefined {
  const reason = (input ?? '').trim().replace(/\s+/g, ' ');
  return reason.length === 0 || [...reason].length > REJECTION_REASON_MAX ? undefined : reason;
}

/** A refused onboarding step, with its code and its operator's message. */
export class OnboardingRefused extends Error {
  override name = 'OnboardingRefused';
  readonly code: OnboardingRefusalCode;
  constructor(code: OnboardingRefusalCode) {
    super(ONBOARDING_REFUSAL_MESSAGES[code]);
    this.code = code;
  }
}
