import assert from 'node:assert/strict';
import {
  gatewayStatusOf,
  ONBOARDING_STATUSES,
  onboardingStep,
  rejectionReason,
  type OnboardingAction,
  type OnboardingStatus,
} from '../../../src/domain/onboarding.ts';

/** The whole table: what each action does in each status (→ status, = nothing to do, ✗ code refused). */
const EXPECTED: Record<OnboardingAction, Record<OnboardingStatus, string>> = {
  add_domain: {
    account_created: '→ domain_added',
    domain_added: '=',
    documents_submitted: '=',
    gateway_requested: '=',
    under_review: '=',
    rejected: '=',
    approved: '=',
    live: '=',
  },
  submit_documents: {
    account_created: '✗ domain_required',
    domain_added: '→ documents_submitted',
    documents_submitted: '→ documents_submitted',
    gateway_requested: '✗ in_review',
    under_review: '✗ in_review',
    rejected: '→ under_review',
    approved: '✗ already_approved',
    live: '✗ already_approved',
  },
  request_gateway: {
    account_created: '✗ domain_required',
    domain_added: '✗ documents_required',
    documents_submitted: '→ gateway_requested',
    gateway_requested: '=',
    under_review: '=',
    rejected: '✗ resubmission_required',
    approved: '=',
    live: '=',
  },
  approve: {
    account_created: '✗ not_requested',
    domain_added: '✗ not_requested',
    documents_submitted: '✗ not_requested',
    gateway_requested: '→ approved',
    under_review: '→ approved',
    rejected: '✗ not_under_review',
    approved: '=',
    live: '=',
  },
  reject: {
    account_created: '✗ not_requested',
    domain_added: '✗ not_requested',
    documents_submitted: '✗ not_requested',
    gateway_requested: '→ rejected',
    under_review: '→ rejected',
    rejected: '✗ not_under_review',
    approved: '✗ already_approved',
    live: '✗ already_approved',
  },
  activate_live: {
    account_created: '✗ not_approved',
    domain_added: '✗ not_approved',
    documents_submitted: '✗ not_approved',
    gateway_requested: '✗ not_approved',
    under_review: '✗ not_approved',
    rejected: '✗ not_approved',
    approved: '→ live',
    live: '=',
  },
};

describe('onboarding state machine', () => {
  it('every action in every status does what the table says', () => {
    for (const [action, row] of Object.entries(EXPECTED) as [OnboardingAction, Record<OnboardingStatus, string>][]) {
      for (const status of ONBOARDING_STATUSES) {
        const step = onboardingStep(status, action);
        const shown = step.kind === 'move' ? `→ ${step.to}` : step.kind === 'same' ? '=' : `✗ ${step.code}`;
        assert.equal(shown, row[status], `${action} in ${status}`);
      }
    }
  });

  it('the gateway status recorded on the merchants row follows the onboarding status', () => {
    const expected: Record<OnboardingStatus, string> = {
      account_created: 'none',
      domain_added: 'none',
      documents_submitted: 'none',
      gateway_requested: 'requested',
      under_review: 'requested',
      rejected: 'rejected',
      approved: 'approved',
      live: 'approved',
    };
    for (const status of ONBOARDING_STATUSES) assert.equal(gatewayStatusOf(status), expected[status], status);
  });

  it('a rejection reason is 1 to 500 characters, trimmed', () => {
    assert.equal(rejectionReason('  the IBAN is not in the company’s name  '), 'the IBAN is not in the company’s name');
    assert.equal(rejectionReason(''), undefined);
    assert.equal(rejectionReason('   '), undefined);
    assert.equal(rejectionReason(undefined), undefined);
    assert.equal(rejectionReason('ب'.repeat(500)), 'ب'.repeat(500));
    assert.equal(rejectionReason('ب'.repeat(501)), undefined);
  });
});
