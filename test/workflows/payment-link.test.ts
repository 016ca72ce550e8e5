/** A payment link's payment in its workflow, with fake activities: verified by the workflow itself once paid. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { concurrently } from '../support/workflows/concurrently.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities } from '../support/workflows/fakes.ts';
import { AMOUNT, pay, paymentIn, startPayment } from '../support/workflows/payments.ts';
import type { temporal } from '@temporalio/proto';
import { recordFixture } from '../support/replay.ts';
import { linkAutoVerifyBoundMs } from '../../src/domain/payment.ts';

// Where RECORD_HISTORIES=v<n> writes this file's histories: the payment workflow's committed fixtures, replayed
// by test/workflows/replay.test.ts and test/payments/replay.test.ts.
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories');

/** How long the settle at the bank was given, from its first attempt (its activity's schedule-to-close timeout), in ms. */
function settleBoundMs(history: temporal.api.history.v1.IHistory): number {
  const settle = history.events?.find(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'settleAtBank',
  )?.activityTaskScheduledEventAttributes;
  assert.ok(settle, 'the settle was asked as an activity');
  const timeout = settle.scheduleToCloseTimeout;
  return Number(timeout?.seconds ?? 0) * 1000 + Math.round((timeout?.nanos ?? 0) / 1e6);
}

describe("a payment link's payment in its workflow", () => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  concurrently('auto-verify', (it) => {
    it('is settled at the bank and recorded verified, with the fee of the plan, without any verify', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue, { autoVerify: true });
        await pay(handle, 'success');
        const verified = await handle.result();
        assert.equal(verified.status, 'verified');
        assert.equal(verified.fee, 25_000, '2.5 % of 1 000 000, as verify computes it');
        assert.notEqual(verified.verified_at, null);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 verified']);
        assert.equal(fakes.calls('settleAtBank').length, 1, 'settled at the bank first');
        assert.equal(fakes.calls('reverseAtBank').length, 0);
        const history = await handle.fetchHistory();
        assert.ok(
          settleBoundMs(history) <= linkAutoVerifyBoundMs(input.verify_window_ms),
          'the settle was asked under the bound',
        );
        recordFixture(FIXTURES, 'RECORD_HISTORIES', 'link-settled-bounded', history);
      });
    });

    it('a bank that refuses the settlement for good leaves it paid, and the deadline gives the money back', async () => {
      const fakes = new FakeActivities().on('settleAtBank', () => {
        throw ApplicationFailure.nonRetryable('settlement refused', 'bank_refused');
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { autoVerify: true, verifyWindowMs: 3_000 });
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        const ended = await handle.result();
        assert.equal(ended.status, 'reversed');
        assert.equal(ended.refunded_amount, AMOUNT);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 reversed']);
      });
    });

    it('a bank that never answers the settle is given up on within the bound, and the deadline gives the money back', async () => {
      const fakes = new FakeActivities().on('settleAtBank', () => {
        throw new Error('bank unreachable');
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        // A 4 s window: the settle is asked for 2 s at most (half the window), then the payment waits for its deadline.
        const { handle } = await startPayment(client, taskQueue, { autoVerify: true, verifyWindowMs: 4_000 });
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        const ended = await handle.result();
        assert.equal(
          ended.status,
          'reversed',
          'without the bound the settle would be retried for ever and the payment never given back',
        );
        assert.equal(ended.refunded_amount, AMOUNT);
        assert.equal(ended.fee, 0);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 reversed']);
        const asked = fakes.calls('settleAtBank').length;
        assert.ok(
          asked >= 1 && asked <= 3,
          `the settle asked a bounded number of times (${asked}) in 2 s of 1 s, 2 s backoff`,
        );
        assert.equal(fakes.calls('reverseAtBank').length, 1);
        const history = await handle.fetchHistory();
        assert.equal(settleBoundMs(history), linkAutoVerifyBoundMs(4_000), 'the settle was asked under the bound');
        recordFixture(FIXTURES, 'RECORD_HISTORIES', 'link-settle-given-up', history);
      });
    });

    it("a live link's payment whose merchant lost live mode after it started is given back, not verified", async () => {
      const fakes = new FakeActivities().on('merchantLiveStanding', async () => ({ live: false }));
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue, { autoVerify: true, mode: 'live' });
        await pay(handle, 'success');
        const ended = await handle.result();
        assert.equal(ended.status, 'reversed');
        assert.equal(ended.refunded_amount, AMOUNT);
        assert.equal(ended.fee, 0);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 reversed']);
        assert.deepEqual(
          fakes.calls('merchantLiveStanding').map((c) => c.merchant_id),
          [input.merchant_id],
          'asked once, for its own merchant',
        );
        assert.equal(fakes.calls('reverseAtBank').length, 1, 'the money goes back at once');
        assert.equal(fakes.calls('settleAtBank').length, 0);
      });
    });

    it("a live link's payment whose merchant is still live is verified; a test one never asks", async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const live = await startPayment(client, taskQueue, { autoVerify: true, mode: 'live' });
        await pay(live.handle, 'success');
        assert.equal((await live.handle.result()).status, 'verified');
        assert.equal(fakes.calls('merchantLiveStanding').length, 1);
        const test = await startPayment(client, taskQueue, { autoVerify: true });
        await pay(test.handle, 'success');
        assert.equal((await test.handle.result()).status, 'verified');
        assert.equal(fakes.calls('merchantLiveStanding').length, 1, 'a test payment is verified without asking');
      });
    });

    it('a payment without auto_verify stays paid for its merchant to verify', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        await new Promise((r) => setTimeout(r, 500));
        assert.equal((await paymentIn(handle, 'paid')).status, 'paid');
        assert.equal(fakes.calls('settleAtBank').length, 0);
      });
    });
  });
});
