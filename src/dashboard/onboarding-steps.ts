/**
 * The onboarding steps and the gateway's status on the "API & gateway" page
 * (docs/DASHBOARD.md#onboarding): what the merchant has done, what they can do
 * now, and the operator's reason after a rejection.
 */
import type { OnboardingStatus } from '../domain/onboarding.ts';
import type { Strings } from './i18n.ts';

type StepState = 'done' | 'current' | 'todo' | 'rejected';

/** Which of the five steps each status has done, and the one the merchant is at. */
const STEP_OF: Record<OnboardingStatus, number> = {
  account_created: 0,
  domain_added: 1,
  documents_submitted: 2,
  gateway_requested: 3,
  under_review: 3,
  rejected: 3,
  approved: 4,
  live: 5,
};

/** The gateway section's data: the steps, what the merchant can do now, and the operator's reason after a rejection. */
export function onboardingView(status: OnboardingStatus, rejectionReason: string | null, t: Strings) {
  const labels = [t.stepDomain, t.stepDocuments, t.stepRequest, t.stepReview, t.stepLive];
  const at = STEP_OF[status];
  const steps = labels.map((label, i) => {
    const state: StepState = i < at ? 'done' : i === at ? (status === 'rejected' ? 'rejected' : 'current') : 'todo';
    return {
      label,
      state,
      note:
        state === 'done'
          ? t.stepDone
          : state === 'current'
            ? t.stepCurrent
            : state === 'rejected'
              ? t.gateway_rejected
              : '',
    };
  });
  return {
    status,
    label: t[`onboarding_${status}`],
    steps,
    rejectionReason: status === 'rejected' ? rejectionReason : null,
    needsDomain: status === 'account_created',
    needsDocuments: status === 'domain_added',
    canRequest: status === 'documents_submitted',
    inReview: status === 'gateway_requested' || status === 'under_review',
    canActivate: status === 'approved',
  };
}
