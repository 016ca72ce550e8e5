/** Refunds in the payment workflow, with fake activities (the bank's payout among them). */
import assert from 'node:assert/strict';
import { ApplicationFailure } from '@temporalio/common';
import { paymentQuery, refundUpdate } from '../../src/domain/payment-workflow.ts';
import { concurrently } from './support/concurrently.ts';
import { prepareWorkflowTests, withWorker } from './support/environment.ts';
import { BANK_OPERATION, FakeActivities, gate } from './support/fakes.ts';
import { firstTimerHandled } from './support/history.ts';
import { AMOUNT, paymentIn, paymentWhen, refund, refusalOf, refusedWith, startPayment, verifiedPayment, pay } from './support/payments.ts';

const settled = (fakes: FakeActivities, count = 1) =>
  fakes.called('recordRefund', () => fakes.calls('recordRefund').filter((c) => c.refund.status !== 'pending').length >= count);

describe('refunds in the payment workflow', () => {
  before(async function () {
    this.timeout(600_000); // a first run may build the Temporal CLI
    await prepareWorkflowTests();
  });

  concurrently('with the refund window open for minutes', (it) => {
    it('a partial refund is recorded pending with the payment partially_refunded, paid out once, then recorded succeeded', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await verifiedPayment(client, taskQueue);
        const answer = await refund(handle, 300_000);
        assert.deepEqual(
          { payment_id: answer.payment_id, amount: answer.amount, status: answer.status, failure: answer.failure },
          { payment_id: input.payment.id, amount: 300_000, status: 'pending', failure: null },
        );
        await settled(fakes);
        assert.deepEqual(fakes.calls('refundAtBank'), [{ payment_id: input.payment.id, mode: 'test', ref_num: '4711000001', refund_id: answer.id, amount: 300_000 }]);
        assert.deepEqual(fakes.refundRecords(), ['300000 pending, payment 4 partially_refunded 300000', '300000 succeeded, no payment change']);
        const succeeded = fakes.calls('recordRefund')[1]?.refund;
        assert.equal(succeeded?.id, answer.id);
        assert.ok(succeeded?.succeeded_at !== null);
        const payment = await handle.query(paymentQuery);
        assert.deepEqual({ status: payment.status, refunded_amount: payment.refunded_amount }, { status: 'partially_refunded', refunded_amount: 300_000 });
      });
    });

    it('a refund without an amount refunds everything, and the workflow ends once it is paid out', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await verifiedPayment(client, taskQueue); // the refund window stays open for minutes
        const answer = await refund(handle, null);
        assert.equal(answer.amount, AMOUNT);
        const done = await handle.result();
        assert.deepEqual({ status: done.status, refunded_amount: done.refunded_amount }, { status: 'refunded', refunded_amount: AMOUNT });
        assert.deepEqual(fakes.refundRecords(), ['1000000 pending, payment 4 refunded 1000000', '1000000 succeeded, no payment change']);
      });
    });

    it('a refund of more than is left is refused with refund_exceeds_amount, and exactly what is left is accepted', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await verifiedPayment(client, taskQueue);
        await refund(handle, 700_000);
        const message = await refusedWith(refund(handle, 300_001), 'refund_exceeds_amount');
        assert.equal(message, 'The refund amount is more than the 300000 rials left to refund on this payment.');
        await refund(handle, 300_000);
        assert.equal((await handle.result()).status, 'refunded');
        assert.deepEqual(fakes.refundRecords().filter((r) => r.includes('pending')), [
          '700000 pending, payment 4 partially_refunded 700000',
          '300000 pending, payment 5 refunded 1000000',
        ]);
      });
    });

    it('the same refund asked for again is answered with the first one and paid out once', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await verifiedPayment(client, taskQueue);
        const refundId = 'a2d0e8a4-0000-4000-8000-000000000001';
        const first = await refund(handle, 200_000, refundId);
        await settled(fakes);
        // The same update again (a retried request), and the same refund in another update (the workflow's own memory).
        assert.deepEqual(await refund(handle, 200_000, refundId), first);
        const asAnotherUpdate = await handle.executeUpdate(refundUpdate, { args: [{ refund_id: refundId, amount: 200_000, reason: null }], updateId: `${refundId}-again` });
        assert.deepEqual(asAnotherUpdate, fakes.calls('recordRefund')[1]?.refund, 'the refund as last recorded: succeeded');
        assert.deepEqual({ id: asAnotherUpdate.id, status: asAnotherUpdate.status }, { id: first.id, status: 'succeeded' });
        assert.equal(fakes.calls('refundAtBank').length, 1);
        assert.equal(fakes.calls('recordRefund').filter((c) => c.refund.status === 'pending').length, 1);
        assert.equal((await handle.query(paymentQuery)).refunded_amount, 200_000);
      });
    });

    it('concurrent refunds never add up to more than the amount', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await verifiedPayment(client, taskQueue);
        const answers = await Promise.allSettled(Array.from({ length: 5 }, () => refund(handle, 300_000)));
        const accepted = answers.filter((a) => a.status === 'fulfilled');
        assert.equal(accepted.length, 3);
        for (const refused of answers.filter((a) => a.status === 'rejected')) assert.equal(refusalOf(refused.reason).type, 'refund_exceeds_amount');
        assert.deepEqual(
          fakes.calls('recordRefund').filter((c) => c.refund.status === 'pending').map((c) => c.payment?.payment.refunded_amount),
          [300_000, 600_000, 900_000],
        );
        await settled(fakes, 3);
        assert.equal(fakes.calls('refundAtBank').length, 3);
        const payment = await handle.query(paymentQuery);
        assert.deepEqual({ status: payment.status, refunded_amount: payment.refunded_amount }, { status: 'partially_refunded', refunded_amount: 900_000 });
      });
    });

    it('a refund the bank refuses is recorded failed with its code and gives its amount back', async () => {
      const fakes = new FakeActivities();
      fakes.on('refundAtBank', async (_, call) => {
        if (call === 1) throw ApplicationFailure.nonRetryable('the card is closed', 'card_closed');
        return BANK_OPERATION;
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await verifiedPayment(client, taskQueue);
        assert.equal((await refund(handle, null)).amount, AMOUNT);
        await settled(fakes);
        const givenBack = await paymentWhen(handle, (p) => p.status === 'verified', 'waiting for the amount to be given back');
        assert.equal(givenBack.refunded_amount, 0);
        assert.deepEqual(fakes.refundRecords(), ['1000000 pending, payment 4 refunded 1000000', '1000000 failed, payment 5 verified 0']);
        assert.deepEqual(fakes.calls('recordRefund')[1]?.refund.failure, {
          code: 'card_closed',
          message: 'The bank did not accept the refund; its amount is refundable again.',
        });
        assert.equal(fakes.calls('refundAtBank').length, 1, 'a refusal is not retried');
        const retry = await refund(handle, 400_000);
        assert.equal(retry.status, 'pending', 'the amount given back is refundable again');
      });
    });

    it('a refund of a payment that is not verified is refused with payment_not_refundable', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        assert.equal(await refusedWith(refund(handle, 1_000), 'payment_not_refundable'), 'The payment is paid; only a verified payment can be refunded.');
        assert.deepEqual(fakes.calls('recordRefund'), []);
      });
    });
  });

  describe('racing the refund window', () => {
    it('after the refund window closes a refund is refused, while one taken before is still paid out and settled', async () => {
      const fakes = new FakeActivities();
      const paying = gate();
      fakes.on('refundAtBank', async () => {
        await paying.opened;
        return BANK_OPERATION;
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await verifiedPayment(client, taskQueue, { refundWindowMs: 1_500 });
        await refund(handle, 300_000);
        await firstTimerHandled(handle); // the refund window's timer: the only one that fires
        assert.equal(await refusedWith(refund(handle, 100_000), 'payment_not_refundable'), "The payment's refund window has closed.");
        paying.open();
        const done = await handle.result();
        assert.deepEqual({ status: done.status, refunded_amount: done.refunded_amount }, { status: 'partially_refunded', refunded_amount: 300_000 });
        assert.deepEqual(fakes.refundRecords(), ['300000 pending, payment 4 partially_refunded 300000', '300000 succeeded, no payment change']);
      });
    });

    it('the workflow ends when the refund window closes, with the refunds it took', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await verifiedPayment(client, taskQueue, { refundWindowMs: 1_500 });
        await refund(handle, 250_000);
        const done = await handle.result();
        assert.deepEqual({ status: done.status, refunded_amount: done.refunded_amount }, { status: 'partially_refunded', refunded_amount: 250_000 });
        assert.equal(fakes.calls('refundAtBank').length, 1);
      });
    });
  });
});
