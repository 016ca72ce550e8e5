/**
 * One merchant's onboarding (docs/DASHBOARD.md#onboarding), workflow id
 * `merchant-onboarding-<merchant id>`: the merchant's steps and the
 * operator's decision arrive as Updates, whose validators refuse a step out of
 * order (src/domain/onboarding.ts, the one table of rules) before anything is
 * written. Each step is recorded on the merchants row and in
 * onboarding_events by an activity before it becomes the workflow's state.
 * A request under review longer than REVIEW_REMINDER_HOURS raises one
 * operator reminder per review round (a durable timer); each decision is
 * emailed to the merchant. The workflow never ends: it continues as new
 * when its history grows, carrying its state.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { OnboardingActivities } from '../activities/onboarding.ts';
import {
  ONBOARDING_REFUSAL_MESSAGES,
  onboardingStep,
  rejectionReason,
  type OnboardingAction,
  type OnboardingRefusalCode,
  type OnboardingStatus,
} from '../src/domain/onboarding.ts';
import {
  activateLiveUpdate,
  addDomainUpdate,
  decideGatewayUpdate,
  ONBOARDING_REFUSED,
  onboardingQuery,
  onboardingSearchAttributes,
  requestGatewayUpdate,
  submitDocumentsUpdate,
  type GatewayDecision,
  type OnboardingEventType,
  type OnboardingView,
  type OnboardingWorkflowInput,
} from '../src/domain/onboarding-workflow.ts';
import { searchAttributes as paymentSearchAttributes } from '../src/domain/payment-workflow.ts';
import { StepLock } from './lock.ts';

/** Continue as new past this many history events (or when the server suggests it): a merchant's history never grows without bound. */
export const ONBOARDING_HISTORY_LIMIT = 2_000;

// Record writes wait for MySQL rather than skip a step: retried without limit.
const records = proxyActivities<OnboardingActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' },
});
// A mail server that is down delays the email, never the onboarding: retried without limit, at most 10 minutes apart.
const mail = proxyActivities<Pick<OnboardingActivities, 'sendDecisionEmail'>>({
  startToCloseTimeout: '1m',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '10m' },
});

const refusal = (code: OnboardingRefusalCode) =>
  ApplicationFailure.create({
    type: ONBOARDING_REFUSED,
    message: ONBOARDING_REFUSAL_MESSAGES[code],
    details: [code],
    nonRetryable: true,
  });

export async function merchantOnboardingWorkflow(input: OnboardingWorkflowInput): Promise<void> {
  const state = { ...input.state, outbox: [...input.state.outbox] };
  const merchantId = state.merchant_id;
  upsertSearchAttributes([
    { key: onboardingSearchAttributes.status, value: state.status },
    { key: paymentSearchAttributes.merchantId, value: merchantId },
  ]);

  const view = (): OnboardingView => ({
    merchant_id: merchantId,
    status: state.status,
    version: state.version,
    rejection_reason: state.rejection_reason,
  });

  /** The step `action` takes now; a refusal throws (in a validator: the Update is refused before it is written to history). */
  const stepFor = (action: OnboardingAction) => {
    const step = onboardingStep(state.status, action);
    if (step.kind === 'refused') throw refusal(step.code);
    return step;
  };

  // One step at a time: two Updates that both passed their validators are taken in turn, and the second is checked again.
  const lock = new StepLock();
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => lock.run(work);

  /** Records a step, then makes it the workflow's state (recorded before visible). */
  async function move(to: OnboardingStatus, event: OnboardingEventType, reason: string | null = null): Promise<void> {
    const version = state.version + 1;
    await records.recordOnboarding({ merchant_id: merchantId, status: to, version, rejection_reason: reason, event });
    state.status = to;
    state.version = version;
    state.rejection_reason = reason;
    upsertSearchAttributes([{ key: onboardingSearchAttributes.status, value: to }]);
  }

  /** A request goes under review: a new round, whose reminder is due REVIEW_REMINDER_HOURS from now. */
  async function startReview(event: OnboardingEventType): Promise<void> {
    await move('under_review', event);
    await beginReviewRound();
  }

  async function beginReviewRound(): Promise<void> {
    state.review_round += 1;
    state.review_started_at_ms = Date.now();
    state.reminder_due_at_ms = Date.now() + (await records.reviewReminderDelay());
    void remind(state.review_round);
  }

  /** The operator's reminder of one review round: a durable timer, cancelled in effect by a decision. */
  async function remind(round: number): Promise<void> {
    const due = state.reminder_due_at_ms;
    if (due === null) return;
    const decided = await condition(
      () => state.review_round !== round || state.status !== 'under_review',
      Math.max(due - Date.now(), 1),
    );
    if (decided || state.review_round !== round) return;
    state.reminder_due_at_ms = null;
    await records.raiseReviewReminder({
      merchant_id: merchantId,
      review_round: round,
      waited_ms: Date.now() - (state.review_started_at_ms ?? due),
    });
  }

  setHandler(onboardingQuery, view);

  setHandler(
    addDomainUpdate,
    ({ domain }) =>
      exclusive(async () => {
        const step = stepFor('add_domain');
        await records.recordDomain({ merchant_id: merchantId, domain });
        if (step.kind === 'move') await move(step.to, 'domain_added');
        return view();
      }),
    { validator: (_input) => void stepFor('add_domain') },
  );

  setHandler(
    submitDocumentsUpdate,
    ({ submission_id }) =>
      exclusive(async () => {
        const step = stepFor('submit_documents');
        await records.recordDocumentsSubmitted({ merchant_id: merchantId, submission_id });
        if (step.kind === 'move' && step.to === 'under_review') await startReview('documents_submitted');
        else if (step.kind === 'move') await move(step.to, 'documents_submitted');
        return view();
      }),
    { validator: (_input) => void stepFor('submit_documents') },
  );

  setHandler(
    requestGatewayUpdate,
    () =>
      exclusive(async () => {
        const step = stepFor('request_gateway');
        if (step.kind === 'move') {
          await move('gateway_requested', 'gateway_requested');
          await startReview('review_started');
        }
        return view();
      }),
    { validator: () => void stepFor('request_gateway') },
  );

  setHandler(
    decideGatewayUpdate,
    ({ decision, reason }) =>
      exclusive(async () => {
        if (decision === 'reject') {
          const why = rejectionReason(reason);
          if (why === undefined) throw refusal('reason_required');
          if (stepFor('reject').kind === 'same') return view();
          await move('rejected', 'gateway_rejected', why);
          state.outbox.push({ merchant_id: merchantId, decision: 'rejected', reason: why, version: state.version });
        } else {
          if (stepFor('approve').kind === 'same') return view();
          await move('approved', 'gateway_approved');
          state.outbox.push({ merchant_id: merchantId, decision: 'approved', reason: null, version: state.version });
        }
        state.reminder_due_at_ms = null;
        return view();
      }),
    {
      validator: ({ decision, reason }: GatewayDecision) => {
        if (decision !== 'approve' && decision !== 'reject')
          throw ApplicationFailure.create({
            type: 'invalid_request',
            message: 'decision must be approve or reject',
            nonRetryable: true,
          });
        if (decision === 'reject' && rejectionReason(reason) === undefined) throw refusal('reason_required');
        stepFor(decision);
      },
    },
  );

  setHandler(
    activateLiveUpdate,
    () =>
      exclusive(async () => {
        if (stepFor('activate_live').kind === 'move') await move('live', 'live_activated');
        return view();
      }),
    { validator: () => void stepFor('activate_live') },
  );

  // A run continued from another resumes the pending reminder of its review round; a merchant whose request
  // was under review before this workflow existed (started from its record) gets its first round now.
  if (state.status === 'under_review' && state.reminder_due_at_ms !== null) void remind(state.review_round);
  else if (state.status === 'under_review' && state.review_round === 0) void exclusive(beginReviewRound);

  // The decision emails, one at a time, in order; kept in the state until sent.
  void (async () => {
    for (;;) {
      await condition(() => state.outbox.length > 0);
      await mail.sendDecisionEmail(state.outbox[0]!);
      state.outbox.shift();
    }
  })();

  const historyLarge = () =>
    workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > ONBOARDING_HISTORY_LIMIT;
  await condition(() => historyLarge() && !lock.held && state.outbox.length === 0 && allHandlersFinished());
  await continueAsNew<typeof merchantOnboardingWorkflow>({ state });
}
