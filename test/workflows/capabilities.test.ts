/**
 * The payment workflow reads its PSP's capabilities (docs/PAYMENTS.md#capture-at-verify-or-at-settle),
 * and never leaves money at the PSP without a record (docs/PAYMENTS.md#a-confirmation-the-gateway-refuses),
 * with fake activities: a PSP whose verify at the return captures (SEP's shape) is never asked to
 * settle, a failed or canceled return at a PSP with no inquiry is recorded as it says, and a
 * confirmation the gateway refuses is reversed at once and the payment fails `confirmation_mismatch`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { bankCallbackUpdate, bankTokenUpdate, paymentQuery } from '../../src/domain/payment-workflow.ts';
import { recordFixture } from '../support/replay.ts';
import { concurrently } from '../support/workflows/concurrently.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import {
  CAPTURE,
  FakeActivities,
  fakeAmounts,
  healthy,
  MERCHANT_VERIFY_CAPABILITIES,
  SEP_CAPABILITIES,
} from '../support/workflows/fakes.ts';
import { AMOUNT, pay, paymentIn, refusedWith, startPayment, verify } from '../support/workflows/payments.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'histories');

/** Fakes whose PSP has SEP's capabilities: capture at verify, no inquiry, no refund, no report. */
const sepFakes = () =>
  new FakeActivities().on('pspCapabilities', async ({ psp }) => ({ psp: psp ?? 'sep', ...SEP_CAPABILITIES }));

/** Fakes whose PSP verifies only at the merchant's verify, with no reversal (Sadad's shape). */
const sadadFakes = () =>
  new FakeActivities().on('pspCapabilities', async ({ psp }) => ({
    psp: psp ?? 'sadad',
    ...MERCHANT_VERIFY_CAPABILITIES,
  }));
/** A bank refusal as the bank activity throws it (non-retryable `bank_refused`). */
const bankRefused = (code: number) =>
  ApplicationFailure.create({
    type: 'bank_refused',
    message: `the bank refused the verify (${code})`,
    nonRetryable: true,
  });

/** Fakes whose bank confirms the payment `changed` from what it should (another amount, terminal, ResNum…). */
const confirmingOtherwise = (fakes: FakeActivities, changed: Record<string, unknown>) =>
  fakes.on('confirmAtBank', async (input, call) => {
    const genuine = await healthy('confirmAtBank')(input, call);
    return genuine.result === 'confirmed' ? { ...genuine, ...changed } : genuine;
  });

describe("the payment workflow and its PSP's capabilities", () => {
  before(async function () {
    this.timeout(600_000);
    await prepareWorkflowTests();
  });

  concurrently('capture at the PSP verify (SEP)', (it) => {
    it("the merchant's verify records verified without asking the PSP anything: no settle, the capabilities read once", async () => {
      const fakes = sepFakes();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        const verified = await verify(handle, AMOUNT);
        assert.equal(verified.status, 'verified');
        assert.equal(verified.fee, 25_000);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 verified']);
        assert.equal(fakes.calls('settleAtBank').length, 0, 'no settle where the verify at the return captured');
        assert.deepEqual(fakes.calls('pspCapabilities'), [{ payment_id: input.payment.id, mode: 'test', psp: 'sep' }]);
        assert.equal(fakes.calls('reverseAtBank').length, 0);
      });
    });

    it("a payment link's payment is verified by its workflow without a settle", async () => {
      const fakes = sepFakes();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { autoVerify: true });
        await pay(handle, 'success');
        const verified = await handle.result();
        assert.equal(verified.status, 'verified');
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 verified']);
        assert.equal(fakes.calls('settleAtBank').length, 0);
        assert.equal(fakes.calls('pspCapabilities').length, 1);
      });
    });

    it('a paid payment nobody verifies is reversed once at the deadline, as at any PSP', async () => {
      const fakes = sepFakes();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue, { verifyWindowMs: 500 });
        await pay(handle, 'success');
        const reversed = await handle.result();
        assert.equal(reversed.status, 'reversed');
        assert.deepEqual(fakes.calls('reverseAtBank'), [
          { payment_id: input.payment.id, mode: 'test', ref_num: CAPTURE.reference_id, psp: 'sep' },
        ]);
        assert.equal(fakes.calls('settleAtBank').length, 0);
      });
    });

    it("a canceled return of the payment's own bank session is recorded canceled without an inquiry (the PSP has none)", async () => {
      const fakes = sepFakes();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'cancel');
        const canceled = await handle.result();
        assert.equal(canceled.status, 'canceled');
        assert.equal(canceled.failure?.code, 'canceled_by_customer');
        assert.deepEqual(fakes.calls('inquireAtBank'), []);
        assert.deepEqual(fakes.transitions(), ['2 canceled']);
      });
    });

    it('a failed return is recorded failed card_declined without an inquiry; one with another token records nothing', async () => {
      const fakes = sepFakes();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue);
        const token = await handle.executeUpdate(bankTokenUpdate, {
          args: [{ redirect_url: 'https://gateway.example/pay/return' }],
        });
        const forged = await handle.executeUpdate(bankCallbackUpdate, {
          args: [{ state: 'Failed', ref_num: '', res_num: input.payment.id, token: `${token.token}x` }],
        });
        assert.equal(forged.status, 'created', 'another bank session: not this payment');
        const failed = await handle.executeUpdate(bankCallbackUpdate, {
          args: [{ state: 'Failed', ref_num: '', res_num: input.payment.id, token: token.token }],
        });
        assert.equal(failed.status, 'failed');
        assert.equal(failed.failure?.code, 'card_declined');
        assert.deepEqual(fakes.calls('inquireAtBank'), []);
        assert.deepEqual(fakes.transitions(), ['2 failed']);
      });
    });
  });

  concurrently('capture at settle (Behpardakht)', (it) => {
    it("the merchant's verify settles at the PSP first, once, and a failed return is asked of the PSP's inquiry", async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        assert.equal((await verify(handle, AMOUNT)).status, 'verified');
        assert.equal(fakes.calls('settleAtBank').length, 1);
        const other = await startPayment(client, taskQueue);
        await pay(other.handle, 'failure');
        assert.equal((await other.handle.result()).status, 'failed');
        assert.deepEqual(
          fakes.calls('inquireAtBank').map((c) => c.payment_id),
          [other.input.payment.id],
        );
      });
    });

    it('a failed or canceled return that names no sale of the PSP (no reference) is recorded as it says, without an inquiry', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const failed = await startPayment(client, taskQueue);
        await pay(failed.handle, 'failure', { refNum: '' });
        assert.equal((await failed.handle.result()).status, 'failed');
        const canceled = await startPayment(client, taskQueue);
        await pay(canceled.handle, 'cancel', { refNum: '' });
        assert.equal((await canceled.handle.result()).status, 'canceled');
        assert.equal(fakes.calls('inquireAtBank').length, 0, 'nothing to ask about');
      });
    });

    // The lifecycle type's path: it reads the capabilities at the verify; the flow type has them from its token.
    it('capabilities that cannot be read leave the payment paid and the verify answered bank_unavailable (503, verify again) (lifecycle type)', async () => {
      const fakes = new FakeActivities().on('pspCapabilities', async (input, call) => {
        if (call === 1)
          throw ApplicationFailure.nonRetryable('PSP sep is not configured for test payments.', 'bank_not_configured');
        return healthy('pspCapabilities')(input, call);
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { lifecycle: true });
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        await refusedWith(verify(handle, AMOUNT), 'bank_unavailable');
        assert.equal((await handle.query(paymentQuery)).status, 'paid');
        assert.equal((await verify(handle, AMOUNT)).status, 'verified', 'the next verify reads them and settles');
        assert.equal(fakes.calls('settleAtBank').length, 1);
      });
    });
  });

  concurrently("capture at the merchant's verify (Sadad)", (it) => {
    it("the merchant's verify asks the PSP's verify (settle) once, then records verified; the return asked nothing more than its confirm", async () => {
      const fakes = sadadFakes();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        assert.equal(fakes.calls('settleAtBank').length, 0, 'nothing asked to capture before the merchant verifies');
        assert.equal((await verify(handle, AMOUNT)).status, 'verified');
        assert.deepEqual(fakes.calls('settleAtBank'), [
          { payment_id: input.payment.id, mode: 'test', ref_num: CAPTURE.reference_id, psp: 'sep' },
        ]);
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 verified']);
        assert.equal(fakes.calls('reverseAtBank').length, 0);
        assert.equal(
          fakes.calls('planPaymentRoute')[0]?.verify_window_ms,
          input.verify_window_ms,
          'the route was planned with the window',
        );
        recordFixture(FIXTURES, 'RECORD_HISTORIES', 'merchant-verify-verified', await handle.fetchHistory());
      });
    });

    for (const code of [-1, 101]) {
      it(`a verify the PSP refuses (${code}) ends the payment reversed, bank_refused_verify, the whole amount back and no fee; the merchant is answered verify_deadline_passed`, async () => {
        const fakes = sadadFakes().on('settleAtBank', async () => {
          throw bankRefused(code);
        });
        await withWorker(fakes.activities, async ({ client, taskQueue }) => {
          const { handle } = await startPayment(client, taskQueue);
          await pay(handle, 'success');
          await paymentIn(handle, 'paid');
          const message = await refusedWith(verify(handle, AMOUNT), 'verify_deadline_passed');
          assert.match(message, /refused the verify/);
          const reversed = await handle.query(paymentQuery);
          assert.deepEqual(
            [reversed.status, reversed.failure?.code, reversed.refunded_amount, reversed.fee],
            ['reversed', 'bank_refused_verify', AMOUNT, 0],
          );
          assert.deepEqual(fakes.transitions(), ['2 paid', '3 reversed']);
          assert.equal(fakes.calls('settleAtBank').length, 1, 'a refusal is not asked again');
          assert.equal(fakes.calls('reverseAtBank').length, 0, 'nothing to reverse: the PSP holds no money of it');
          assert.equal((await handle.result()).status, 'reversed');
          if (code === 101)
            recordFixture(FIXTURES, 'RECORD_HISTORIES', 'merchant-verify-refused', await handle.fetchHistory());
        });
      });
    }

    it("a payment link's payment whose verify the PSP refuses ends reversed bank_refused_verify at once, not at its deadline", async () => {
      const fakes = sadadFakes().on('settleAtBank', async () => {
        throw bankRefused(101);
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { autoVerify: true });
        await pay(handle, 'success');
        const reversed = await handle.result();
        assert.deepEqual(
          [reversed.status, reversed.failure?.code, reversed.refunded_amount, reversed.fee],
          ['reversed', 'bank_refused_verify', AMOUNT, 0],
        );
        assert.deepEqual(fakes.transitions(), ['2 paid', '3 reversed']);
        assert.equal(fakes.calls('settleAtBank').length, 1);
        assert.equal(fakes.calls('reverseAtBank').length, 0);
      });
    });

    it('a PSP that does not answer the verify leaves the payment paid (bank_unavailable, verify again), and the next verify records verified', async () => {
      const fakes = sadadFakes().on('settleAtBank', async ({ ref_num }, call) => {
        if (call <= 3) throw new Error('the PSP did not answer');
        return { ref_num, result_code: 100 };
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        await paymentIn(handle, 'paid');
        await refusedWith(verify(handle, AMOUNT), 'bank_unavailable');
        assert.equal((await handle.query(paymentQuery)).status, 'paid');
        assert.equal((await verify(handle, AMOUNT)).status, 'verified');
      });
    });

    it("a paid payment nobody verifies is recorded reversed at the deadline through the bank activity's reverse (which asks such a PSP nothing), never a settle", async () => {
      const fakes = sadadFakes();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { verifyWindowMs: 500 });
        await pay(handle, 'success');
        const reversed = await handle.result();
        assert.deepEqual([reversed.status, reversed.failure, reversed.fee], ['reversed', null, 0]);
        assert.equal(fakes.calls('reverseAtBank').length, 1);
        assert.equal(fakes.calls('settleAtBank').length, 0);
        recordFixture(FIXTURES, 'RECORD_HISTORIES', 'merchant-verify-deadline', await handle.fetchHistory());
      });
    });

    it("the route is planned with the payment's verify window", async () => {
      const fakes = sadadFakes();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { verifyWindowMs: 600_000 });
        await pay(handle, 'success');
        assert.equal(fakes.calls('planPaymentRoute')[0]?.verify_window_ms, 600_000);
      });
    });
  });

  concurrently('a confirmation the gateway refuses', (it) => {
    for (const [what, changed, reason] of [
      ['another amount', { amount: AMOUNT + 10_000 }, 'amount'],
      ['another terminal', { terminal: '99999999', terminal_matches: false }, 'terminal'],
      ['another RefNum than the return carried', { ref_num: '4711000099' }, 'reference'],
      ['an RRN of another shape', { rrn: '12' }, 'malformed'],
    ] as const) {
      it(`${what}: reversed at the PSP at once (${reason}), then recorded failed confirmation_mismatch; never paid, never left created`, async () => {
        const fakes = confirmingOtherwise(sepFakes(), changed);
        await withWorker(fakes.activities, async ({ client, taskQueue }) => {
          const { handle, input } = await startPayment(client, taskQueue);
          await pay(handle, 'success');
          const failed = await handle.result();
          assert.equal(failed.status, 'failed');
          assert.equal(failed.failure?.code, 'confirmation_mismatch');
          assert.equal(failed.paid_at, null);
          assert.equal(
            failed.reference_id,
            CAPTURE.reference_id,
            "the RefNum the return carried, for support and the PSP's records",
          );
          assert.deepEqual(fakes.calls('reverseRefusedConfirmation'), [
            { payment_id: input.payment.id, mode: 'test', ref_num: CAPTURE.reference_id, reason, psp: 'sep' },
          ]);
          assert.deepEqual(fakes.transitions(), ['2 failed']);
          assert.deepEqual(
            fakes.calls('reverseAtBank'),
            [],
            'the refusal activity reverses; the deadline has nothing to reverse',
          );
        });
      });
    }

    it('a PSP that answers the reversal late is asked again until it answers, and the payment is recorded once', async () => {
      const fakes = confirmingOtherwise(new FakeActivities(), { amount: AMOUNT - 1 }).on(
        'reverseRefusedConfirmation',
        async (_input, call) => {
          if (call < 3) throw new Error('the PSP did not answer');
          return { reversal: 'reversed' };
        },
      );
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        const failed = await handle.result();
        assert.equal(failed.failure?.code, 'confirmation_mismatch');
        assert.equal(fakes.calls('reverseRefusedConfirmation').length, 3);
        assert.deepEqual(fakes.transitions(), ['2 failed']);
      });
    });

    it('a reversal the PSP refuses still records the payment failed confirmation_mismatch (the alert says the money is held there)', async () => {
      const fakes = confirmingOtherwise(sepFakes(), { amount: AMOUNT + 1 }).on(
        'reverseRefusedConfirmation',
        async () => ({ reversal: 'reversal_refused' }),
      );
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        assert.equal((await handle.result()).failure?.code, 'confirmation_mismatch');
        assert.deepEqual(fakes.transitions(), ['2 failed']);
      });
    });

    it("a sale another payment's (its ResNum) is not reversed on this one's word: the payment stays payable, and a genuine return then pays it", async () => {
      const fakes = sepFakes().on('reverseRefusedConfirmation', async () => ({ reversal: 'not_reversed' }));
      let first = true;
      fakes.on('confirmAtBank', async (input, call) => {
        const genuine = await healthy('confirmAtBank')(input, call);
        if (!first || genuine.result !== 'confirmed') return genuine;
        first = false;
        return { ...genuine, res_num: 'another-payment' };
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input } = await startPayment(client, taskQueue);
        fakeAmounts.set(input.payment.id, AMOUNT);
        const token = await handle.executeUpdate(bankTokenUpdate, {
          args: [{ redirect_url: 'https://gateway.example/pay/return' }],
        });
        const callback = {
          state: 'OK' as const,
          ref_num: CAPTURE.reference_id,
          res_num: input.payment.id,
          token: token.token,
        };
        assert.equal((await handle.executeUpdate(bankCallbackUpdate, { args: [callback] })).status, 'created');
        assert.deepEqual(
          fakes.calls('reverseRefusedConfirmation').map((c) => c.reason),
          ['other_payment'],
        );
        assert.equal((await handle.executeUpdate(bankCallbackUpdate, { args: [callback] })).status, 'paid');
        assert.deepEqual(fakes.transitions(), ['2 paid']);
      });
    });

    it('a pending payment the PSP later confirms for another amount is reversed and fails confirmation_mismatch, not card_declined', async () => {
      const fakes = confirmingOtherwise(sepFakes(), { amount: AMOUNT * 2 });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue, { sandboxDelayMs: 200 });
        await pay(handle, 'delay');
        const failed = await handle.result();
        assert.equal(failed.failure?.code, 'confirmation_mismatch');
        assert.deepEqual(fakes.transitions(), ['2 pending', '3 failed']);
        assert.equal(fakes.calls('reverseRefusedConfirmation').length, 1);
      });
    });
  });
});
