/**
 * The payment workflow on a real Temporal dev server with fake activities:
 * bank outcomes, expiry and the reversal at the verify deadline. The server
 * runs in real time, so the windows a test waits for are a second or less.
 */
import assert from 'node:assert/strict';
import { WorkflowUpdateStage } from '@temporalio/client';
import { bankCallbackUpdate, bankTokenUpdate, verifyUpdate } from '../../src/domain/payment-workflow.ts';
import { concurrently } from '../support/workflows/concurrently.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { BANK_OPERATION, CAPTURE, FakeActivities, gate, healthy } from '../support/workflows/fakes.ts';
import { timersStarted } from '../support/workflows/history.ts';
import { AMOUNT, paymentIn, refusedWith, startPayment, pay } from '../support/workflows/payments.ts';

describe('the payment workflow', () => {
  before(async function () {
    this.timeout(600_000); // a first run may build the Temporal CLI
    await prepareWorkflowTests();
  });

  concurrently('bank outcomes', (it) => {
    it('success captures once and records version 2 paid, with the bank fields and verify_deadline_at one verify window after paid_at', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue, { verifyWindowMs: 90_000 });
        await pay(handle, 'success');
        const paid = await paymentIn(handle, 'paid');
        assert.deepEqual(fakes.calls('confirmAtBank'), [
          { payment_id: input.payment.id, mode: 'test', ref_num: CAPTURE.reference_id, psp: 'sep' },
        ]);
        assert.deepEqual(fakes.transitions(), ['2 paid']);
        assert.deepEqual(
          fakes.calls('recordTransition')[0]?.payment,
          paid,
          'the workflow shows exactly what it recorded',
        );
        assert.deepEqual({ reference_id: paid.reference_id, rrn: paid.rrn, card_pan: paid.card_pan }, CAPTURE);
        assert.ok(paid.paid_at !== null && paid.verify_deadline_at !== null);
        assert.equal(Date.parse(paid.verify_deadline_at) - Date.parse(paid.paid_at), 90_000);
        assert.equal(paid.fee, 0);
        assert.equal(paid.verified_at, null);
      });
    });

    it('failure records version 2 failed with card_declined, captures nothing, and ends the workflow', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'failure');
        const failed = await handle.result();
        assert.equal(failed.status, 'failed');
        assert.deepEqual(failed.failure, { code: 'card_declined', message: 'The bank declined the payment.' });
        assert.equal(failed.paid_at, null);
        assert.deepEqual(fakes.transitions(), ['2 failed']);
        assert.deepEqual(fakes.calls('confirmAtBank'), []);
      });
    });

    it('a Failed return the bank contradicts (still open there) records nothing; the genuine failure then fails it', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue);
        const token = await handle.executeUpdate(bankTokenUpdate, {
          args: [{ redirect_url: 'https://gateway.example/pay/return' }],
        });
        const forged = await handle.executeUpdate(bankCallbackUpdate, {
          args: [{ state: 'Failed', ref_num: '7000000001', res_num: input.payment.id, token: token.token }],
        });
        assert.equal(forged.status, 'created');
        assert.deepEqual(fakes.calls('inquireAtBank'), [
          { payment_id: input.payment.id, mode: 'test', ref_num: '7000000001', token: token.token, psp: 'sep' },
        ]);
        assert.deepEqual(fakes.transitions(), []);
        await pay(handle, 'failure');
        assert.equal((await handle.result()).status, 'failed');
        assert.deepEqual(fakes.transitions(), ['2 failed']);
      });
    });

    it('cancel records version 2 canceled with canceled_by_customer, captures nothing, and ends the workflow', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'cancel');
        const canceled = await handle.result();
        assert.equal(canceled.status, 'canceled');
        assert.deepEqual(canceled.failure, {
          code: 'canceled_by_customer',
          message: 'The customer canceled the payment.',
        });
        assert.deepEqual(fakes.transitions(), ['2 canceled']);
        assert.deepEqual(fakes.calls('confirmAtBank'), []);
      });
    });

    it('delay records pending first, then captures and records paid after a durable timer of sandbox_delay_ms', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { sandboxDelayMs: 1_000 });
        await pay(handle, 'delay');
        const pending = await paymentIn(handle, 'pending');
        assert.equal(pending.paid_at, null);
        const paid = await paymentIn(handle, 'paid');
        assert.ok(paid.paid_at !== null);
        assert.deepEqual(fakes.transitions(), ['2 pending', '3 paid']);
        assert.deepEqual(
          fakes.log.map((c) => c.name),
          [
            'announcePayment',
            'planPaymentRoute',
            'requestBankToken',
            'recordPaymentPsp',
            // With the token, in the same activity: what the PSP offers.
            'pspCapabilities',
            'confirmAtBank',
            'recordTransition',
            'confirmAtBank',
            'recordTransition',
          ],
          'the bank is asked again after pending is recorded',
        );
        assert.ok((await timersStarted(handle)).includes(1_000), 'a 1 s timer');
      });
    });

    it('a payment the bank keeps "in progress" past the limit fails with bank_unconfirmed, the bank asked at doubling intervals', async () => {
      const fakes = new FakeActivities();
      fakes.on('confirmAtBank', async () => ({ result: 'in_progress' as const }));
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { sandboxDelayMs: 1_000, bankPendingLimitMs: 6_000 });
        await pay(handle, 'delay');
        const failed = await handle.result();
        assert.equal(failed.status, 'failed');
        assert.equal(failed.failure?.code, 'bank_unconfirmed');
        assert.deepEqual(fakes.transitions(), ['2 pending', '3 failed']);
        assert.ok(
          fakes.calls('confirmAtBank').length >= 3,
          'at the callback, then at each wait, the last at the limit',
        );
        // After the page's expiry timer: 1 s, then 2 s (doubled), then what is left of the limit (at most 4 s): how long each
        // wait is follows from the rule, not from how fast the machine is, as long as the first two leave some of the limit.
        const waits = (await timersStarted(handle)).slice(1);
        assert.deepEqual(waits.slice(0, 2), [1_000, 2_000], `waits: ${waits.join(', ')}`);
        assert.ok(
          waits.slice(2).every((t) => t <= 4_000),
          `waits: ${waits.join(', ')}`,
        );
      });
    });

    it('a second choice after the first changes nothing', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'failure');
        await assert.rejects(pay(handle, 'success'));
        assert.equal((await handle.result()).status, 'failed');
        assert.deepEqual(fakes.transitions(), ['2 failed']);
        assert.deepEqual(fakes.calls('confirmAtBank'), []);
      });
    });
  });

  concurrently('local activities, then activities', (it) => {
    it('a record write that fails its quick local tries is handed to an activity, retried until MySQL answers, and the payment is recorded once', async () => {
      const fakes = new FakeActivities();
      fakes.on('recordTransition', async (_, call) => {
        if (call <= 4) throw new Error('MySQL is down'); // the three local tries, then the activity's first attempt
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        const paid = await paymentIn(handle, 'paid');
        assert.equal(fakes.calls('recordTransition').length, 5);
        assert.deepEqual(fakes.calls('recordTransition')[4]?.payment, paid);
        const scheduled = ((await handle.fetchHistory()).events ?? [])
          .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
          .filter((n) => n !== undefined);
        assert.deepEqual(scheduled, ['recordTransition'], 'one activity, its retries kept out of the history');
      });
    });

    it('a bank that does not confirm at once is asked by an activity until it answers, and the payment is paid', async () => {
      const fakes = new FakeActivities();
      fakes.on('confirmAtBank', async (input, call) => {
        if (call === 1) throw new Error('the bank did not answer');
        return healthy('confirmAtBank')(input, call);
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        assert.equal(fakes.calls('confirmAtBank').length, 2);
        assert.deepEqual(fakes.transitions(), ['2 paid']);
        const scheduled = ((await handle.fetchHistory()).events ?? [])
          .map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name)
          .filter((n) => n !== undefined);
        assert.deepEqual(scheduled, ['confirmAtBank']);
      });
    });
  });

  concurrently('expiry', (it) => {
    it('a payment without a bank outcome before expires_at is recorded expired and the workflow ends', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { expiresInMs: 500 });
        const expired = await handle.result();
        assert.equal(expired.status, 'expired');
        assert.deepEqual(expired.failure, {
          code: 'payment_expired',
          message: 'The payment page expired before the payment was made.',
        });
        assert.deepEqual(fakes.transitions(), ['2 expired']);
        assert.deepEqual(fakes.calls('confirmAtBank'), []);
      });
    });

    it('a bank outcome that arrives while the expiry is being recorded changes nothing, and one after the end is refused', async () => {
      const fakes = new FakeActivities();
      const recording = gate();
      fakes.on('recordTransition', async ({ payment }) => {
        if (payment.status === 'expired') await recording.opened;
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { expiresInMs: 500 });
        await fakes.called('recordTransition', ({ payment }) => payment.status === 'expired');
        const late = pay(handle, 'success').catch(() => undefined);
        recording.open();
        await late;
        assert.equal((await handle.result()).status, 'expired');
        assert.deepEqual(fakes.transitions(), ['2 expired']);
        assert.deepEqual(fakes.calls('confirmAtBank'), []);
        await assert.rejects(
          handle.executeUpdate(bankTokenUpdate, { args: [{ redirect_url: 'https://gateway.example/r' }] }),
        );
      });
    });
  });

  concurrently('the verify deadline', (it) => {
    it('a paid payment not verified in time is reversed once: status reversed, refunded_amount = amount, fee 0', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue, { verifyWindowMs: 500 });
        await pay(handle, 'success');
        const reversed = await handle.result();
        assert.equal(reversed.status, 'reversed');
        assert.equal(reversed.refunded_amount, AMOUNT);
        assert.equal(reversed.fee, 0);
        assert.equal(reversed.verified_at, null);
        assert.deepEqual(fakes.calls('reverseAtBank'), [
          { payment_id: input.payment.id, mode: 'test', ref_num: CAPTURE.reference_id, psp: 'sep' },
        ]);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 reversed']);
        assert.deepEqual(
          fakes.log.map((c) => c.name),
          [
            'announcePayment',
            'planPaymentRoute',
            'requestBankToken',
            'recordPaymentPsp',
            // With the token, in the same activity: what the PSP offers.
            'pspCapabilities',
            'confirmAtBank',
            'recordTransition',
            'reverseAtBank',
            'recordTransition',
          ],
        );
      });
    });

    it('a verify that arrives while the payment is being reversed is refused with verify_deadline_passed', async () => {
      const fakes = new FakeActivities();
      const reversing = gate();
      fakes.on('reverseAtBank', async () => {
        await reversing.opened;
        return BANK_OPERATION;
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { verifyWindowMs: 500 });
        await pay(handle, 'success');
        await fakes.called('reverseAtBank');
        const late = await handle.startUpdate(verifyUpdate, {
          args: [{ amount: AMOUNT }],
          waitForStage: WorkflowUpdateStage.ACCEPTED,
        });
        reversing.open();
        await refusedWith(late.result(), 'verify_deadline_passed');
        assert.equal((await handle.result()).status, 'reversed');
        assert.equal(fakes.calls('reverseAtBank').length, 1);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 reversed']);
      });
    });
  });
});
