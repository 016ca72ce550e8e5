/**
 * The subscription workflow (workflows/subscription.ts) with fake activities and the real debit
 * workflow as its child: each period is admitted once with its own key, a run continues as new after
 * PERIODS_PER_RUN periods without charging any period twice, and the clock's offset goes on; a
 * cancel with its mandate's reason ends it at once, whatever at_period_end says.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newPayment } from '../../src/payments/create.ts';
import { PERIODS_PER_RUN } from '../../src/domain/subscription.ts';
import {
  advanceSubscriptionClockUpdate,
  cancelSubscriptionUpdate,
  NEW_SUBSCRIPTION_RECORD,
  subscriptionWorkflowId,
  type ChargeAdmission,
  type SubscriptionWorkflowInput,
} from '../../src/domain/subscription-workflow.ts';
import type { subscriptionWorkflow } from '../../workflows/subscription.ts';
import { concurrently } from '../support/workflows/concurrently.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities } from '../support/workflows/fakes.ts';
import { FEE_PLAN, MERCHANT_ID } from '../support/workflows/payments.ts';

const DAY = 24 * 3600;

/** A charge admitted as a debit of its own, named by its key, as the debit admission would. */
function admitted({
  subscription_id,
  period,
  attempt,
}: {
  subscription_id: string;
  period: number;
  attempt: number;
}): ChargeAdmission {
  const payment = newPayment(
    randomUUID(),
    'test',
    {
      amount: 500_000,
      callback_url: 'https://shop.example/mandate-done',
      merchant_reference: `sub-${subscription_id.slice(0, 8)}-${period}-${attempt}`,
      fee_payer: 'merchant',
    },
    { PAYMENT_TTL_SECONDS: 600, AMOUNT_MAX: Number.MAX_SAFE_INTEGER },
    Date.now(),
  );
  return {
    kind: 'admitted',
    debit: {
      debit_id: randomUUID(),
      payment: { ...payment, method: 'direct_debit' },
      merchant_id: MERCHANT_ID,
      fee_plan: FEE_PLAN,
    },
  };
}

function admitting(fakes: FakeActivities): FakeActivities {
  return fakes.on('admitSubscriptionCharge', async (asked) => admitted(asked));
}

const input = (id: string): SubscriptionWorkflowInput => ({
  subscription_id: id,
  plan: { interval: 'days', interval_days: 1 },
  anchor_ms: Date.now(),
  next_period: 0,
  clock_offset_ms: 0,
  record: NEW_SUBSCRIPTION_RECORD,
});

concurrently('the subscription workflow', (it) => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  it('charges each period once, continues as new after PERIODS_PER_RUN periods, and keeps its clock', async () => {
    const fakes = admitting(new FakeActivities());
    const id = randomUUID();
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const handle = await client.workflow.start<typeof subscriptionWorkflow>('subscriptionWorkflow', {
        taskQueue,
        workflowId: subscriptionWorkflowId(id),
        args: [input(id)],
      });
      const firstRun = handle.firstExecutionRunId;
      // Past the run's last period: the run hands over, and the next run charges what is due on its clock.
      await handle.executeUpdate(advanceSubscriptionClockUpdate, { args: [{ seconds: PERIODS_PER_RUN * DAY + 60 }] });
      const latest = client.workflow.getHandle(subscriptionWorkflowId(id));
      const deadline = Date.now() + 30_000;
      while (fakes.calls('admitSubscriptionCharge').length < PERIODS_PER_RUN + 1 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      const described = await latest.describe();
      assert.notEqual(described.runId, firstRun, 'the workflow continued as new');
      const periods = fakes.calls('admitSubscriptionCharge').map((c) => `${c.period}:${c.attempt}`);
      assert.deepEqual(
        periods,
        Array.from({ length: PERIODS_PER_RUN + 1 }, (_, n) => `${n}:0`),
        'every period once, in order, none twice across the runs',
      );
      const versions = fakes.calls('recordSubscription').map((c) => c.record.version);
      assert.deepEqual(
        versions,
        [...versions].sort((a, b) => a - b),
        'versions only go up',
      );
      assert.equal(new Set(versions).size, versions.length);
      await latest.terminate('test done');
    });
  });

  it("its mandate's end cancels a past_due subscription at once with the reason, even asked at the period's end; nothing is charged after", async () => {
    const fakes = new FakeActivities().on('admitSubscriptionCharge', async () => ({
      kind: 'refused',
      code: 'mandate_limit_exceeded',
    }));
    const id = randomUUID();
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const handle = await client.workflow.start<typeof subscriptionWorkflow>('subscriptionWorkflow', {
        taskQueue,
        workflowId: subscriptionWorkflowId(id),
        args: [input(id)],
      });
      const due = await handle.executeUpdate(advanceSubscriptionClockUpdate, { args: [{ seconds: 60 }] });
      assert.equal(due.status, 'past_due');
      const ended = await handle.executeUpdate(cancelSubscriptionUpdate, {
        args: [{ at_period_end: true, reason: 'mandate_canceled' }],
      });
      assert.equal(ended.status, 'canceled');
      assert.equal(ended.cancel_reason, 'mandate_canceled');
      assert.equal(ended.cancel_at_period_end, false);
      // The workflow then ends: a later cancel finds it finished and the service answers the row (updateUnlessFinished).
      const final = await handle.result();
      assert.equal(final.status, 'canceled');
      assert.deepEqual(
        fakes.calls('admitSubscriptionCharge').map((c) => `${c.period}:${c.attempt}`),
        ['0:0'],
        'no retry and no period after the cancel',
      );
      assert.deepEqual(
        fakes.calls('recordSubscription').map((c) => [c.record.status, c.record.cancel_reason, c.event?.type]),
        [
          ['past_due', null, 'subscription.past_due'],
          ['canceled', 'mandate_canceled', 'subscription.canceled'],
        ],
      );
    });
  });

  it('a refused charge records past_due once and emails it once; the retry a day later makes it active', async () => {
    const fakes = new FakeActivities().on('admitSubscriptionCharge', async (asked, call) =>
      call === 1 ? { kind: 'refused', code: 'mandate_limit_exceeded' } : admitted(asked),
    );
    const id = randomUUID();
    await withWorker(fakes.activities, async ({ client, taskQueue }) => {
      const handle = await client.workflow.start<typeof subscriptionWorkflow>('subscriptionWorkflow', {
        taskQueue,
        workflowId: subscriptionWorkflowId(id),
        args: [{ ...input(id), plan: { interval: 'month', interval_days: null } }],
      });
      const record = await handle.executeUpdate(advanceSubscriptionClockUpdate, { args: [{ seconds: 60 }] });
      assert.equal(record.status, 'past_due');
      assert.equal(fakes.calls('emailSubscriptionPastDue').length, 1);
      const retried = await handle.executeUpdate(advanceSubscriptionClockUpdate, { args: [{ seconds: DAY }] });
      assert.equal(retried.status, 'active');
      assert.deepEqual(
        fakes.calls('admitSubscriptionCharge').map((c) => `${c.period}:${c.attempt}`),
        ['0:0', '0:1'],
      );
      assert.deepEqual(
        fakes.calls('recordSubscription').map((c) => [c.record.status, c.event?.type]),
        [
          ['past_due', 'subscription.past_due'],
          ['active', 'subscription.charged'],
        ],
      );
      assert.equal(fakes.calls('emailSubscriptionPastDue').length, 1);
      await handle.terminate('test done');
    });
  });
});
