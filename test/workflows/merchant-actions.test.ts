/**
 * What the merchant and its tests can do to a payment beyond verify and
 * refunds: cancel, reverse early and the payment's own clock; and what the workflow announces. Fake activities on
 * the real dev server, as in payment.test.ts.
 */
import assert from 'node:assert/strict';
import { WorkflowNotFoundError, WorkflowUpdateStage } from '@temporalio/client';
import { advanceClockUpdate, cancelUpdate, reverseUpdate, verifyUpdate } from '../../src/domain/payment-workflow.ts';
import { concurrently } from '../support/workflows/concurrently.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { BANK_OPERATION, FakeActivities, gate } from '../support/workflows/fakes.ts';
import {
  AMOUNT,
  paymentIn,
  refusedWith,
  startPayment,
  unlessEnded,
  verifiedPayment,
  pay,
} from '../support/workflows/payments.ts';

const HOUR = 3600;

describe('the payment workflow: merchant actions and test helpers', () => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  concurrently('announcing the payment', (it) => {
    it('records payment.created first, without the merchant metadata in the workflow', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue);
        const announced = await fakes.called('announcePayment');
        assert.equal(announced.payment.id, input.payment.id);
        assert.equal(announced.payment.status, 'created');
        assert.deepEqual(announced.payment.metadata, {});
        await handle.executeUpdate(cancelUpdate);
        assert.equal(fakes.log[0]?.name, 'announcePayment');
      });
    });
  });

  concurrently('cancel', (it) => {
    it('cancels a created payment once; a cancel repeated meanwhile answers the same payment, or finds the workflow ended', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        // Either cancel may reach the workflow first; the other answers the same, or (when the
        // server sees the workflow close first) finds it ended and the API answers from the record.
        const answers = (
          await Promise.all([
            unlessEnded(handle.executeUpdate(cancelUpdate)),
            unlessEnded(handle.executeUpdate(cancelUpdate)),
          ])
        ).filter((a) => a !== 'ended');
        const [canceled, ...others] = answers;
        assert.ok(canceled !== undefined, 'at least one cancel is answered by the workflow');
        assert.equal(canceled.status, 'canceled');
        assert.deepEqual(canceled.failure, {
          code: 'canceled_by_merchant',
          message: 'The merchant canceled the payment.',
        });
        for (const again of others) assert.deepEqual(again, canceled);
        assert.equal((await handle.result()).status, 'canceled');
        assert.deepEqual(fakes.transitions(), ['2 canceled']);
      });
    });

    it('refuses to cancel a paid payment with payment_not_cancelable', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const paid = await startPayment(client, taskQueue, { verifyWindowMs: 60_000 });
        await pay(paid.handle, 'success');
        await paymentIn(paid.handle, 'paid');
        await refusedWith(paid.handle.executeUpdate(cancelUpdate), 'payment_not_cancelable');
        assert.deepEqual(fakes.transitions(), ['2 paid']);
      });
    });

    it('a cancel racing the bank success makes exactly one transition, and the loser is refused or changes nothing', async () => {
      const fakes = new FakeActivities();
      const capturing = gate();
      fakes.on('confirmAtBank', async ({ payment_id, ref_num }) => {
        await capturing.opened;
        return {
          result: 'confirmed',
          ref_num,
          res_num: payment_id,
          amount: AMOUNT,
          terminal: '11223344',
          terminal_matches: true,
          rrn: '600000000009',
          card_pan: '603799******0009',
        };
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { verifyWindowMs: 60_000 });
        await pay(handle, 'success');
        await fakes.called('confirmAtBank');
        // The success holds the lock: the cancel is accepted and waits for it, then finds the payment paid.
        const cancel = await handle.startUpdate(cancelUpdate, { waitForStage: WorkflowUpdateStage.ACCEPTED });
        capturing.open();
        await refusedWith(cancel.result(), 'payment_not_cancelable');
        assert.deepEqual(fakes.transitions(), ['2 paid']);
      });
    });
  });

  concurrently('reverse', (it) => {
    it('reverses a paid payment at once, with one bank reversal; a reverse repeated meanwhile answers the same', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue, { verifyWindowMs: 60_000 });
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        // As with cancel: either reverse may be first, and the other may find the workflow closed.
        const answers = (
          await Promise.all([
            unlessEnded(handle.executeUpdate(reverseUpdate)),
            unlessEnded(handle.executeUpdate(reverseUpdate)),
          ])
        ).filter((a) => a !== 'ended');
        const [reversed, ...others] = answers;
        assert.ok(reversed !== undefined, 'at least one reverse is answered by the workflow');
        assert.equal(reversed.status, 'reversed');
        assert.equal(reversed.refunded_amount, AMOUNT);
        assert.equal(reversed.fee, 0);
        for (const again of others) assert.deepEqual(again, reversed);
        assert.equal((await handle.result()).status, 'reversed');
        assert.deepEqual(fakes.calls('reverseAtBank'), [
          { payment_id: input.payment.id, mode: 'test', ref_num: '4711000001', psp: 'sep' },
        ]);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 reversed']);
      });
    });

    it('refuses to reverse a created payment with payment_not_reversible; a verified one has no workflow left to reverse it', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const created = await startPayment(client, taskQueue);
        await refusedWith(created.handle.executeUpdate(reverseUpdate), 'payment_not_reversible');
        // Its workflow ended at verify: the API answers 409 payment_not_reversible from the record.
        const { handle } = await verifiedPayment(client, taskQueue);
        await assert.rejects(handle.executeUpdate(reverseUpdate), WorkflowNotFoundError);
        assert.deepEqual(fakes.calls('reverseAtBank'), []);
      });
    });

    it('a verify racing a reverse: the reverse holds the lock, so the verify is refused and the money goes back once', async () => {
      const fakes = new FakeActivities();
      const reversing = gate();
      fakes.on('reverseAtBank', async () => {
        await reversing.opened;
        return BANK_OPERATION;
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { verifyWindowMs: 60_000 });
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        const reverse = handle.executeUpdate(reverseUpdate);
        await fakes.called('reverseAtBank');
        const late = await handle.startUpdate(verifyUpdate, {
          args: [{ amount: AMOUNT }],
          waitForStage: WorkflowUpdateStage.ACCEPTED,
        });
        reversing.open();
        assert.equal((await reverse).status, 'reversed');
        await refusedWith(late.result(), 'verify_deadline_passed');
        assert.equal(fakes.calls('reverseAtBank').length, 1);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 reversed']);
      });
    });
  });

  concurrently("the payment's clock", (it) => {
    it('advancing past expires_at expires the payment before the answer', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { expiresInMs: HOUR * 1000 });
        const expired = await handle.executeUpdate(advanceClockUpdate, { args: [{ seconds: HOUR + 1 }] });
        assert.equal(expired.status, 'expired');
        assert.deepEqual(fakes.transitions(), ['2 expired']);
      });
    });

    it('advancing less than the time left changes nothing; the rest fires when advanced again', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { expiresInMs: HOUR * 1000 });
        assert.equal(
          (await handle.executeUpdate(advanceClockUpdate, { args: [{ seconds: HOUR / 2 }] })).status,
          'created',
        );
        assert.deepEqual(fakes.transitions(), []);
        assert.equal(
          (await handle.executeUpdate(advanceClockUpdate, { args: [{ seconds: HOUR / 2 }] })).status,
          'expired',
        );
      });
    });

    it('a paid payment advanced past its verify deadline is reversed once, and its timestamps are read on its clock', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { verifyWindowMs: 1800 * 1000 });
        await handle.executeUpdate(advanceClockUpdate, { args: [{ seconds: 60 }] });
        const before = Date.now();
        await pay(handle, 'success');
        const paid = await paymentIn(handle, 'paid');
        const paidAt = Date.parse(paid.paid_at!);
        assert.ok(paidAt >= before + 59_000, `paid_at ${paid.paid_at} is a minute ahead of real time`);
        assert.equal(Date.parse(paid.verify_deadline_at!) - paidAt, 1800 * 1000);
        const reversed = await handle.executeUpdate(advanceClockUpdate, { args: [{ seconds: 1800 }] });
        assert.equal(reversed.status, 'reversed');
        assert.equal(fakes.calls('reverseAtBank').length, 1);
        assert.equal((await handle.result()).status, 'reversed');
      });
    });

    it('a delayed payment advanced past the bank delay is paid', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, {
          sandboxDelayMs: 600 * 1000,
          verifyWindowMs: HOUR * 1000,
        });
        await pay(handle, 'delay');
        await paymentIn(handle, 'pending');
        const paid = await handle.executeUpdate(advanceClockUpdate, { args: [{ seconds: 601 }] });
        assert.equal(paid.status, 'paid');
        assert.deepEqual(fakes.transitions(), ['2 pending', '3 paid']);
      });
    });

    it('refuses live payments with test_mode_only and bad steps with validation_failed', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const live = await startPayment(client, taskQueue, { mode: 'live' });
        await refusedWith(live.handle.executeUpdate(advanceClockUpdate, { args: [{ seconds: 60 }] }), 'test_mode_only');
        const test = await startPayment(client, taskQueue);
        for (const seconds of [0, -5, 1.5, 10 ** 12]) {
          await refusedWith(
            test.handle.executeUpdate(advanceClockUpdate, { args: [{ seconds }] }),
            'validation_failed',
          );
        }
        assert.deepEqual(fakes.transitions(), []);
      });
    });
  });
});
