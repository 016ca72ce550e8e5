/** The payment workflow's verify update, with fake activities. */
import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '@temporalio/client';
import { paymentQuery } from '../../src/domain/payment-workflow.ts';
import { concurrently } from '../support/workflows/concurrently.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { FakeActivities } from '../support/workflows/fakes.ts';
import { timersStarted } from '../support/workflows/history.ts';
import {
  AMOUNT,
  paymentIn,
  refusedWith,
  startPayment,
  unlessEnded,
  verifiedPayment,
  verify,
  pay,
} from '../support/workflows/payments.ts';

describe('verifying a payment in its workflow', () => {
  before(async function () {
    this.timeout(600_000); // a first run may build the Temporal CLI
    await prepareWorkflowTests();
  });

  concurrently('with the deadline minutes away', (it) => {
    it('a paid payment verified with its amount is recorded as version 3 verified, with the fee of the plan in the input', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { amount: 1_000_000 });
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        const verified = await verify(handle, 1_000_000);
        assert.equal(verified.status, 'verified');
        assert.equal(verified.fee, 25_000); // 2.5 % of 1 000 000 (the configured default plan would take 10 000)
        assert.ok(verified.verified_at !== null);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 verified']);
        assert.deepEqual(fakes.calls('recordTransition')[1]?.payment, verified, 'the answer is what was recorded');
        assert.deepEqual(await handle.query(paymentQuery), verified);
      });
    });

    it("the fee is held to the plan's minimum and maximum", async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const [small, large] = await Promise.all([
          verifiedPayment(client, taskQueue, { amount: 40_000 }), // 2.5 % = 1 000, below the minimum
          verifiedPayment(client, taskQueue, { amount: 10_000_000 }), // 2.5 % = 250 000, above the maximum
        ]);
        assert.equal(small.verified.fee, 2_000);
        assert.equal(large.verified.fee, 50_000);
      });
    });

    it('the workflow ends at verify, with the verified payment: a verify after it (the same amount or another) finds no workflow, and the API answers from the record', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, verified } = await verifiedPayment(client, taskQueue);
        assert.deepEqual(await handle.result(), verified);
        await assert.rejects(verify(handle, AMOUNT), WorkflowNotFoundError);
        await assert.rejects(verify(handle, AMOUNT - 1), WorkflowNotFoundError);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 verified']);
      });
    });

    it('a wrong amount is refused with amount_mismatch and the payment stays paid, without a fee', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        assert.equal(
          await refusedWith(verify(handle, AMOUNT + 1), 'amount_mismatch'),
          'The amount does not match the payment amount.',
        );
        await refusedWith(verify(handle, AMOUNT - 1), 'amount_mismatch');
        const stillPaid = await handle.query(paymentQuery);
        assert.equal(stillPaid.status, 'paid');
        assert.equal(stillPaid.fee, 0);
        assert.deepEqual(fakes.transitions(), ['2 paid']);
        assert.equal((await verify(handle, AMOUNT)).status, 'verified', 'the right amount still verifies');
      });
    });

    it('a verify before the bank has answered is refused with payment_not_paid', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await refusedWith(verify(handle, AMOUNT), 'payment_not_paid');
        assert.equal((await handle.query(paymentQuery)).status, 'created');
        assert.deepEqual(fakes.transitions(), []);
      });
    });

    it('a verify of a pending payment is refused with payment_pending', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'delay');
        await paymentIn(handle, 'pending');
        await refusedWith(verify(handle, AMOUNT), 'payment_pending');
        assert.deepEqual(fakes.transitions(), ['2 pending']);
      });
    });

    it('an amount that is not a positive integer is refused with validation_failed', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        for (const amount of [0, -AMOUNT, 1.5, Number.MAX_SAFE_INTEGER + 1])
          await refusedWith(verify(handle, amount), 'validation_failed');
        assert.deepEqual(fakes.transitions(), ['2 paid']);
      });
    });

    it('ten verifies at once make one transition; every caller the workflow answers gets the same verified payment, the others find it ended', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        const answers = (
          await Promise.all(Array.from({ length: 10 }, () => unlessEnded(verify(handle, AMOUNT))))
        ).filter((a) => a !== 'ended');
        assert.ok(answers.length >= 1);
        assert.equal(answers[0]?.status, 'verified');
        for (const answer of answers) assert.deepEqual(answer, answers[0]);
        assert.deepEqual(await handle.result(), answers[0]);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 verified']);
      });
    });
  });

  describe('racing the deadline', () => {
    it('a payment verified in time is never reversed: its workflow ends at verify, its deadline timer canceled, and waits for no refund window', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, verified } = await verifiedPayment(client, taskQueue, { verifyWindowMs: 1_500 });
        assert.deepEqual(await handle.result(), verified);
        // The expiry (minutes away) and the verify deadline: no timer for a refund window.
        const timers = await timersStarted(handle);
        assert.equal(timers.length, 2, String(timers));
        assert.ok(timers[0]! > 60_000 && timers[1]! <= 1_500, String(timers));
        assert.deepEqual(fakes.calls('reverseAtBank'), []);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 verified']);
      });
    });
  });
});
