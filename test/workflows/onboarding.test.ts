/** The merchant onboarding workflow, with fake activities: its state machine, refusals, reminder timer and emails. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { WorkflowUpdateFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import {
  activateLiveUpdate,
  addDomainUpdate,
  decideGatewayUpdate,
  initialOnboardingState,
  ONBOARDING_REFUSED,
  ONBOARDING_WORKFLOW,
  onboardingQuery,
  onboardingSearchAttributes,
  onboardingWorkflowId,
  requestGatewayUpdate,
  submitDocumentsUpdate,
} from '../../src/domain/onboarding-workflow.ts';
import type { OnboardingStatus } from '../../src/domain/onboarding.ts';
import type { merchantOnboardingWorkflow } from '../../workflows/onboarding.ts';
import { concurrently } from '../support/workflows/concurrently.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities } from '../support/workflows/fakes.ts';
import { timersStarted } from '../support/workflows/history.ts';

async function start(client: Client, taskQueue: string, status: OnboardingStatus = 'account_created') {
  const merchantId = randomUUID();
  const handle = await client.workflow.start<typeof merchantOnboardingWorkflow>(ONBOARDING_WORKFLOW, {
    taskQueue,
    workflowId: onboardingWorkflowId(merchantId),
    args: [{ state: initialOnboardingState(merchantId, status, 1, null) }],
  });
  return { merchantId, handle };
}

/** The refusal code of an Update that must be refused. */
async function refusedWith(update: Promise<unknown>): Promise<string> {
  try {
    await update;
  } catch (error) {
    assert.ok(error instanceof WorkflowUpdateFailedError, String(error));
    assert.ok(error.cause instanceof ApplicationFailure);
    assert.equal(error.cause.type, ONBOARDING_REFUSED);
    return String(error.cause.details?.[0]);
  }
  assert.fail('the update was not refused');
}

const until = async (what: string, check: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail(`${what} did not happen in time`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const recorded = (fakes: FakeActivities) =>
  fakes
    .calls('recordOnboarding')
    .map((r) => `${r.version} ${r.status} ${r.event}${r.rejection_reason ? ` (${r.rejection_reason})` : ''}`);

async function searchStatus(handle: WorkflowHandle): Promise<unknown> {
  return (await handle.describe()).typedSearchAttributes.get(onboardingSearchAttributes.status);
}

concurrently('the merchant onboarding workflow', (it) => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  it('walks domain → documents → request → review → rejection with a reason → resubmission → review → approval → live, recording each step before answering', async () => {
    const fakes = new FakeActivities();
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const { merchantId, handle } = await start(client, taskQueue);
      assert.equal(
        (await handle.executeUpdate(addDomainUpdate, { args: [{ domain: 'shop.example.com' }] })).status,
        'domain_added',
      );
      assert.equal(
        (await handle.executeUpdate(addDomainUpdate, { args: [{ domain: 'www.shop.example.com' }] })).status,
        'domain_added',
        'a second domain is no step',
      );
      assert.deepEqual(
        fakes.calls('recordDomain').map((c) => c.domain),
        ['shop.example.com', 'www.shop.example.com'],
      );
      const first = randomUUID();
      assert.equal(
        (await handle.executeUpdate(submitDocumentsUpdate, { args: [{ submission_id: first }] })).status,
        'documents_submitted',
      );
      const requested = await handle.executeUpdate(requestGatewayUpdate);
      assert.equal(requested.status, 'under_review');
      assert.equal(await searchStatus(handle), 'under_review');
      assert.equal(
        (await handle.executeUpdate(requestGatewayUpdate)).version,
        requested.version,
        'asking again changes nothing',
      );

      const rejected = await handle.executeUpdate(decideGatewayUpdate, {
        args: [{ decision: 'reject', reason: 'The IBAN is not in the business’s name.' }],
      });
      assert.deepEqual(
        [rejected.status, rejected.rejection_reason],
        ['rejected', 'The IBAN is not in the business’s name.'],
      );
      assert.equal(await refusedWith(handle.executeUpdate(requestGatewayUpdate)), 'resubmission_required');
      assert.equal(
        await refusedWith(handle.executeUpdate(decideGatewayUpdate, { args: [{ decision: 'approve' }] })),
        'not_under_review',
      );
      const second = randomUUID();
      const resubmitted = await handle.executeUpdate(submitDocumentsUpdate, { args: [{ submission_id: second }] });
      assert.deepEqual(
        [resubmitted.status, resubmitted.rejection_reason],
        ['under_review', null],
        'a resubmission goes straight back under review',
      );
      assert.equal(await refusedWith(handle.executeUpdate(activateLiveUpdate)), 'not_approved');
      assert.equal(
        (await handle.executeUpdate(decideGatewayUpdate, { args: [{ decision: 'approve' }] })).status,
        'approved',
      );
      assert.equal(
        await refusedWith(
          handle.executeUpdate(decideGatewayUpdate, { args: [{ decision: 'reject', reason: 'late' }] }),
        ),
        'already_approved',
      );
      assert.equal((await handle.executeUpdate(activateLiveUpdate)).status, 'live');
      assert.equal((await handle.executeUpdate(activateLiveUpdate)).status, 'live', 'activating again changes nothing');
      assert.equal(await searchStatus(handle), 'live');
      assert.deepEqual(await handle.query(onboardingQuery), {
        merchant_id: merchantId,
        status: 'live',
        version: 9,
        rejection_reason: null,
      });

      assert.deepEqual(recorded(fakes), [
        '2 domain_added domain_added',
        '3 documents_submitted documents_submitted',
        '4 gateway_requested gateway_requested',
        '5 under_review review_started',
        '6 rejected gateway_rejected (The IBAN is not in the business’s name.)',
        '7 under_review documents_submitted',
        '8 approved gateway_approved',
        '9 live live_activated',
      ]);
      assert.deepEqual(
        fakes.calls('recordDocumentsSubmitted').map((c) => c.submission_id),
        [first, second],
      );
      await until('both decision emails', () => fakes.calls('sendDecisionEmail').length === 2);
      assert.deepEqual(
        fakes.calls('sendDecisionEmail').map((m) => [m.decision, m.reason]),
        [
          ['rejected', 'The IBAN is not in the business’s name.'],
          ['approved', null],
        ],
      );
      await handle.terminate('test over');
    });
  });

  it('refuses steps out of order in the validator: nothing is recorded and the history holds no accepted update', async () => {
    const fakes = new FakeActivities();
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const { handle } = await start(client, taskQueue);
      assert.equal(
        await refusedWith(handle.executeUpdate(submitDocumentsUpdate, { args: [{ submission_id: randomUUID() }] })),
        'domain_required',
      );
      assert.equal(await refusedWith(handle.executeUpdate(requestGatewayUpdate)), 'domain_required');
      assert.equal(
        await refusedWith(handle.executeUpdate(decideGatewayUpdate, { args: [{ decision: 'approve' }] })),
        'not_requested',
      );
      assert.equal(await refusedWith(handle.executeUpdate(activateLiveUpdate)), 'not_approved');
      await handle.executeUpdate(addDomainUpdate, { args: [{ domain: 'shop.example.com' }] });
      assert.equal(await refusedWith(handle.executeUpdate(requestGatewayUpdate)), 'documents_required');
      await handle.executeUpdate(submitDocumentsUpdate, { args: [{ submission_id: randomUUID() }] });
      await handle.executeUpdate(requestGatewayUpdate);
      assert.equal(
        await refusedWith(handle.executeUpdate(decideGatewayUpdate, { args: [{ decision: 'reject', reason: '   ' }] })),
        'reason_required',
      );
      assert.equal(
        await refusedWith(handle.executeUpdate(submitDocumentsUpdate, { args: [{ submission_id: randomUUID() }] })),
        'in_review',
      );
      assert.deepEqual(recorded(fakes), [
        '2 domain_added domain_added',
        '3 documents_submitted documents_submitted',
        '4 gateway_requested gateway_requested',
        '5 under_review review_started',
      ]);
      const history = await handle.fetchHistory();
      const accepted = (history.events ?? []).filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes);
      assert.equal(accepted.length, 3, 'only the three Updates taken (domain, documents, request) are in the history');
      await handle.terminate('test over');
    });
  });

  it('reminds the operator once, by a durable timer, when a request waits under review longer than REVIEW_REMINDER_HOURS', async () => {
    const fakes = new FakeActivities().on('reviewReminderDelay', async () => 400);
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const { merchantId, handle } = await start(client, taskQueue, 'documents_submitted');
      await handle.executeUpdate(requestGatewayUpdate);
      await until('the reminder', () => fakes.calls('raiseReviewReminder').length === 1);
      const [reminder] = fakes.calls('raiseReviewReminder');
      assert.equal(reminder!.merchant_id, merchantId);
      assert.equal(reminder!.review_round, 1);
      assert.ok(reminder!.waited_ms >= 400, `waited ${reminder!.waited_ms} ms`);
      const timers = await timersStarted(handle);
      assert.equal(timers.length, 1, 'one durable timer');
      assert.ok(timers[0]! > 0 && timers[0]! <= 400, `the timer runs until the reminder is due (${timers[0]} ms)`);
      await new Promise((r) => setTimeout(r, 600));
      assert.equal(fakes.calls('raiseReviewReminder').length, 1, 'once per review round');
      await handle.terminate('test over');
    });
  });

  it('a decision before the reminder is due cancels it in effect: no reminder for that round', async () => {
    const fakes = new FakeActivities().on('reviewReminderDelay', async () => 1_500);
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const { handle } = await start(client, taskQueue, 'documents_submitted');
      await handle.executeUpdate(requestGatewayUpdate);
      await handle.executeUpdate(decideGatewayUpdate, { args: [{ decision: 'approve' }] });
      await new Promise((r) => setTimeout(r, 2_000));
      assert.equal(fakes.calls('raiseReviewReminder').length, 0);
      await handle.terminate('test over');
    });
  });

  it('a merchant whose request was under review before the workflow existed (started from its record) gets a review round and its reminder', async () => {
    const fakes = new FakeActivities().on('reviewReminderDelay', async () => 300);
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const { handle } = await start(client, taskQueue, 'under_review');
      await until('the reminder', () => fakes.calls('raiseReviewReminder').length === 1);
      assert.equal(
        (await handle.executeUpdate(decideGatewayUpdate, { args: [{ decision: 'approve' }] })).status,
        'approved',
      );
      await handle.terminate('test over');
    });
  });
});
