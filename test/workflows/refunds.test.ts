/**
 * Refunds with fake activities (the bank's payout among them), sent on as the
 * API sends them (src/temporal/refunds.ts): to the payment's refunds workflow,
 * started on demand.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import type { RefundDecision } from '../../src/domain/payment-workflow.ts';
import { DomainError } from '../../src/errors.ts';
import { decideRefund } from '../../src/temporal/refunds.ts';
import { concurrently } from '../support/workflows/concurrently.ts';
import { prepareWorkflowTests, withWorker } from '../support/workflows/environment.ts';
import { BANK_OPERATION, FakeActivities, gate } from '../support/workflows/fakes.ts';
import {
  AMOUNT,
  MERCHANT_ID,
  paymentIn,
  refund,
  refundsOf,
  startPayment,
  verifiedPayment,
  pay,
} from '../support/workflows/payments.ts';

const settled = (fakes: FakeActivities, count = 1) =>
  fakes.called(
    'recordRefund',
    () => fakes.calls('recordRefund').filter((c) => c.refund.status !== 'pending').length >= count,
  );

/** Asserts that `taken` was refused with the DomainError `code`; answers its message. */
async function refusedWith(taken: Promise<unknown>, code: string): Promise<string> {
  const error = await taken.then(
    () => assert.fail(`the refund was taken, not refused with ${code}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof DomainError, `a DomainError, not ${String(error)}`);
  assert.equal(error.code, code);
  return error.message;
}

describe('refunds', () => {
  before(async function () {
    this.timeout(600_000); // a first run may build the Temporal CLI
    await prepareWorkflowTests();
  });

  concurrently('in the refunds workflow, started on demand', (it) => {
    it('a partial refund starts the refunds workflow, is recorded pending with the payment partially_refunded, paid out once, recorded succeeded, and the workflow ends', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle, input, verified } = await verifiedPayment(client, taskQueue);
        assert.equal((await handle.result()).status, 'verified', "the payment's own workflow ended at verify");
        const answer = await refund(client, taskQueue, verified, 300_000);
        assert.deepEqual(
          { payment_id: answer.payment_id, amount: answer.amount, status: answer.status, failure: answer.failure },
          { payment_id: input.payment.id, amount: 300_000, status: 'pending', failure: null },
        );
        const done = await refundsOf(client, input.payment.id).result();
        assert.deepEqual(
          { status: done?.status, refunded_amount: done?.refunded_amount },
          { status: 'partially_refunded', refunded_amount: 300_000 },
        );
        assert.deepEqual(fakes.calls('refundAtBank'), [
          {
            payment_id: input.payment.id,
            mode: 'test',
            ref_num: '4711000001',
            refund_id: answer.id,
            amount: 300_000,
            psp: 'sep',
          },
        ]);
        assert.deepEqual(fakes.refundRecords(), [
          '300000 pending, payment 4 partially_refunded 300000',
          '300000 succeeded, no payment change',
        ]);
        assert.deepEqual(
          fakes.calls('recordRefund').map((c) => [c.merchant_id, c.mode]),
          [
            [MERCHANT_ID, 'test'],
            [MERCHANT_ID, 'test'],
          ],
        );
        const succeeded = fakes.calls('recordRefund')[1]?.refund;
        assert.equal(succeeded?.id, answer.id);
        assert.ok(succeeded?.succeeded_at !== null);
        const description = await refundsOf(client, input.payment.id).describe();
        const attrs = Object.fromEntries(description.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
        assert.equal(attrs.PaymentStatus, 'partially_refunded');
        assert.equal(attrs.MerchantId, MERCHANT_ID);
        assert.deepEqual((await handle.describe()).status.name, 'COMPLETED');
      });
    });

    it('a refund an earlier run recorded pending and never paid out (its worker died in between) is paid out once by the next run, when the request comes again', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        // What the earlier run's record step left in MySQL before its worker died: the refund pending, the payment reserved.
        const refundId = randomUUID();
        const pending: Refund = {
          id: refundId,
          payment_id: verified.id,
          amount: 300_000,
          status: 'pending',
          reason: null,
          created_at: new Date().toISOString(),
          succeeded_at: null,
          failure: null,
          method: 'psp_refund',
          destination_iban: null,
        };
        await fakes.activities.recordRefund({
          refund: pending,
          merchant_id: MERCHANT_ID,
          mode: 'test',
          payment: { payment: { ...verified, status: 'partially_refunded', refunded_amount: 300_000 }, version: 4 },
        });
        const answer = await refund(client, taskQueue, verified, 300_000, { refundId });
        assert.deepEqual({ id: answer.id, status: answer.status }, { id: refundId, status: 'pending' });
        const done = await refundsOf(client, input.payment.id).result();
        assert.deepEqual(
          { status: done?.status, refunded_amount: done?.refunded_amount },
          { status: 'partially_refunded', refunded_amount: 300_000 },
        );
        assert.deepEqual(
          fakes.calls('refundAtBank').map((c) => [c.refund_id, c.amount]),
          [[refundId, 300_000]],
          'paid out once, under its id',
        );
        assert.deepEqual(fakes.refundRecords(), [
          '300000 pending, payment 4 partially_refunded 300000',
          '300000 succeeded, no payment change',
        ]);
      });
    });

    it('a refund without an amount refunds everything; the next refund starts the workflow again and is refused: nothing is left', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        const answer = await refund(client, taskQueue, verified, null);
        assert.equal(answer.amount, AMOUNT);
        const done = await refundsOf(client, input.payment.id).result();
        assert.deepEqual(
          { status: done?.status, refunded_amount: done?.refunded_amount },
          { status: 'refunded', refunded_amount: AMOUNT },
        );
        assert.deepEqual(fakes.refundRecords(), [
          '1000000 pending, payment 4 refunded 1000000',
          '1000000 succeeded, no payment change',
        ]);
        const firstRun = (await refundsOf(client, input.payment.id).describe()).runId;
        assert.equal(
          await refusedWith(refund(client, taskQueue, verified, 1), 'payment_not_refundable'),
          'The payment has been refunded in full; nothing is left to refund.',
        );
        assert.notEqual(
          (await refundsOf(client, input.payment.id).describe()).runId,
          firstRun,
          'a run of its own, ended',
        );
        assert.equal(fakes.calls('recordRefund').length, 2);
      });
    });

    it('a refund of more than is left is refused with refund_exceeds_amount on the record, and exactly what is left is accepted', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        await refund(client, taskQueue, verified, 700_000);
        await refundsOf(client, input.payment.id).result();
        const message = await refusedWith(refund(client, taskQueue, verified, 300_001), 'refund_exceeds_amount');
        assert.equal(message, 'The refund amount is more than the 300000 rials left to refund on this payment.');
        await refund(client, taskQueue, verified, 300_000);
        assert.equal((await refundsOf(client, input.payment.id).result())?.status, 'refunded');
        assert.deepEqual(
          fakes.refundRecords().filter((r) => r.includes('pending')),
          ['700000 pending, payment 4 partially_refunded 700000', '300000 pending, payment 5 refunded 1000000'],
        );
      });
    });

    it('the same refund asked for again is answered with the first one and paid out once, in its run and in a later run', async () => {
      const fakes = new FakeActivities();
      const paying = gate();
      fakes.on('refundAtBank', async () => {
        await paying.opened;
        return BANK_OPERATION;
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        const refundId = 'a2d0e8a4-0000-4000-8000-000000000001';
        const first = await refund(client, taskQueue, verified, 200_000, { refundId });
        // While it runs: the same Update, answered once by Temporal.
        assert.deepEqual(await refund(client, taskQueue, verified, 200_000, { refundId }), first);
        paying.open();
        await refundsOf(client, input.payment.id).result();
        // Another refund runs another workflow, then the first is asked for again: a third run finds it on the record, as recorded (succeeded).
        await refund(client, taskQueue, verified, 100_000);
        await refundsOf(client, input.payment.id).result();
        const later = await refund(client, taskQueue, verified, 200_000, { refundId });
        assert.deepEqual({ id: later.id, status: later.status }, { id: first.id, status: 'succeeded' });
        assert.deepEqual(later, fakes.calls('recordRefund')[1]?.refund);
        assert.equal(fakes.calls('refundAtBank').filter((c) => c.refund_id === refundId).length, 1);
        assert.equal(
          fakes.calls('recordRefund').filter((c) => c.refund.id === refundId && c.refund.status === 'pending').length,
          1,
        );
      });
    });

    it('concurrent refunds are taken one at a time in one run and never add up to more than the amount', async () => {
      const fakes = new FakeActivities();
      const paying = gate();
      fakes.on('refundAtBank', async () => {
        await paying.opened;
        return BANK_OPERATION;
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        const answers = await Promise.allSettled(
          Array.from({ length: 5 }, () => refund(client, taskQueue, verified, 300_000)),
        );
        const accepted = answers.filter((a) => a.status === 'fulfilled');
        assert.equal(accepted.length, 3);
        for (const refused of answers.filter((a) => a.status === 'rejected')) {
          assert.ok(refused.reason instanceof DomainError);
          assert.equal(refused.reason.code, 'refund_exceeds_amount');
        }
        assert.deepEqual(
          fakes
            .calls('recordRefund')
            .filter((c) => c.refund.status === 'pending')
            .map((c) => [c.payment?.version, c.payment?.payment.refunded_amount]),
          [
            [4, 300_000],
            [5, 600_000],
            [6, 900_000],
          ],
        );
        // Every one read the record under the lock, after the one before had written it.
        assert.deepEqual(fakes.calls('readPaymentForRefund').length, 5);
        paying.open();
        await settled(fakes, 3);
        const done = await refundsOf(client, input.payment.id).result();
        assert.deepEqual(
          { status: done?.status, refunded_amount: done?.refunded_amount },
          { status: 'partially_refunded', refunded_amount: 900_000 },
        );
        assert.equal(fakes.calls('refundAtBank').length, 3);
      });
    });

    it('a refund the bank refuses is recorded failed with its code and gives its amount back; the amount is refundable again', async () => {
      const fakes = new FakeActivities();
      fakes.on('refundAtBank', async (_, call) => {
        if (call === 1) throw ApplicationFailure.nonRetryable('the card is closed', 'card_closed');
        return BANK_OPERATION;
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        assert.equal((await refund(client, taskQueue, verified, null)).amount, AMOUNT);
        const givenBack = await refundsOf(client, input.payment.id).result();
        assert.deepEqual(
          { status: givenBack?.status, refunded_amount: givenBack?.refunded_amount },
          { status: 'verified', refunded_amount: 0 },
        );
        assert.deepEqual(fakes.refundRecords(), [
          '1000000 pending, payment 4 refunded 1000000',
          '1000000 failed, payment 5 verified 0',
        ]);
        assert.deepEqual(fakes.calls('recordRefund')[1]?.refund.failure, {
          code: 'card_closed',
          message: 'The bank did not accept the refund; its amount is refundable again.',
        });
        assert.equal(fakes.calls('refundAtBank').length, 1, 'a refusal is not retried');
        const again = await refund(client, taskQueue, verified, 400_000);
        assert.equal(again.status, 'pending', 'the amount given back is refundable again');
        assert.deepEqual(fakes.refundRecords()[2], '400000 pending, payment 6 partially_refunded 400000');
      });
    });

    it('a refund of a payment that is not verified is refused with payment_not_refundable by the record, and nothing is written', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { handle } = await startPayment(client, taskQueue);
        await pay(handle, 'success');
        const paid = await paymentIn(handle, 'paid');
        // Past the API's own check of the record: the refunds workflow refuses it on the record.
        assert.equal(
          await refusedWith(refund(client, taskQueue, paid, 1_000), 'payment_not_refundable'),
          'The payment is paid; only a verified payment can be refunded.',
        );
        assert.equal((await refundsOf(client, paid.id).result())?.status, 'paid', 'a run that took nothing, ended');
        assert.deepEqual(fakes.calls('recordRefund'), []);
      });
    });

    it("a refund after the refund window, read on the record's verified_at, is refused with payment_not_refundable", async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { verified } = await verifiedPayment(client, taskQueue);
        const window = 180 * 24 * 3600 * 1000;
        // The record as MySQL holds it a day past the window: verified 181 days ago.
        fakes.on('readPaymentForRefund', async ({ payment_id, refund_id }) => {
          const now = fakes.recorded(payment_id, refund_id);
          return {
            ...now,
            payment: { ...now.payment, verified_at: new Date(Date.now() - window - 24 * 3600 * 1000).toISOString() },
          };
        });
        assert.equal(
          await refusedWith(refund(client, taskQueue, verified, 1_000, { windowMs: window }), 'payment_not_refundable'),
          "The payment's refund window has closed.",
        );
        assert.deepEqual(fakes.calls('recordRefund'), []);
      });
    });
  });

  concurrently("by what the payment's PSP offers (the patch refunds-by-capability)", (it) => {
    const IBAN = 'IR820540102680020817909002';
    /** The fakes' PSP as SEP declares it: no refund operation, a 50-minute reversal window (or the one given). */
    const withoutRefund = (fakes: FakeActivities, reversalWindowMs = 50 * 60_000) =>
      fakes.on('pspCapabilities', async () => ({
        psp: 'sep',
        capture: 'verify',
        reversalWindowMs,
        unverifiedReversalMs: 30 * 60_000,
        refund: 'none',
        inquiry: false,
        dailyReport: false,
      }));
    const methods = (fakes: FakeActivities) =>
      fakes
        .calls('recordRefund')
        .map((c) => `${c.refund.status} ${c.refund.method} ${c.refund.destination_iban ?? '-'}`);

    it('a PSP with a refund operation refunds a part itself; an IBAN given is kept on the refund, not paid to', async () => {
      const fakes = new FakeActivities();
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        // The payment's own workflow read them at its verify (a PSP that captures at settle); the refunds workflow's reads follow.
        const readBefore = fakes.calls('pspCapabilities').length;
        const answer = await refund(client, taskQueue, verified, 250_000, { destinationIban: IBAN });
        assert.deepEqual(
          { method: answer.method, destination_iban: answer.destination_iban },
          { method: 'psp_refund', destination_iban: IBAN },
        );
        await refundsOf(client, input.payment.id).result();
        assert.deepEqual(
          fakes.calls('refundAtBank').map((c) => c.amount),
          [250_000],
        );
        assert.deepEqual([fakes.calls('reverseAtBank').length, fakes.calls('payRefundToIban').length], [0, 0]);
        assert.equal(
          fakes.calls('pspCapabilities').length - readBefore,
          1,
          'read once by the refunds workflow, into its history',
        );
      });
    });

    it('without one, the whole payment inside its reversal window is reversed at the PSP, once, and recorded refunded', async () => {
      const fakes = withoutRefund(new FakeActivities());
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        const answer = await refund(client, taskQueue, verified, null);
        assert.deepEqual({ amount: answer.amount, method: answer.method }, { amount: AMOUNT, method: 'reversal' });
        const done = await refundsOf(client, input.payment.id).result();
        assert.deepEqual(
          { status: done?.status, refunded_amount: done?.refunded_amount },
          { status: 'refunded', refunded_amount: AMOUNT },
        );
        assert.deepEqual(fakes.calls('reverseAtBank'), [
          { payment_id: input.payment.id, mode: 'test', ref_num: '4711000001', psp: 'sep' },
        ]);
        assert.deepEqual(
          [fakes.calls('refundAtBank').length, fakes.calls('payRefundToIban').length],
          [0, 0],
          'never a call the PSP does not have',
        );
        assert.deepEqual(methods(fakes), ['pending reversal -', 'succeeded reversal -']);
      });
    });

    /** A decision on a waiting refund, as the claim page and the operator's CLI send it (src/temporal/refunds.ts). */
    const decide = (
      client: Parameters<typeof refund>[0],
      taskQueue: string,
      payment: Parameters<typeof refund>[2],
      decision: RefundDecision,
    ) =>
      decideRefund(
        client,
        { TEMPORAL_TASK_QUEUE: taskQueue, REFUND_WINDOW_SECONDS: 86_400 },
        MERCHANT_ID,
        payment,
        decision,
      );

    it('a part without an IBAN waits for its payer (payer_card), nothing paid; the claim pays the account it names, once; a second claim is refused', async () => {
      const fakes = withoutRefund(new FakeActivities());
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        const answer = await refund(client, taskQueue, verified, 300_000);
        assert.deepEqual(
          [answer.status, answer.method, answer.destination_iban],
          ['awaiting_payer', 'payer_card', null],
        );
        await refundsOf(client, input.payment.id).result();
        assert.equal(fakes.calls('payRefundToIban').length, 0, 'nothing paid before the claim');
        const claimed = await decide(client, taskQueue, verified, {
          refund_id: answer.id,
          decision: 'claim',
          payee: { iban: IBAN, owner_name: 'علی رضایی' },
        });
        assert.deepEqual(
          [claimed.status, claimed.destination_iban, claimed.owner_name],
          ['pending', IBAN, 'علی رضایی'],
        );
        await refundsOf(client, input.payment.id).result();
        assert.deepEqual(fakes.calls('payRefundToIban'), [
          { refund_id: answer.id, payment_id: input.payment.id, mode: 'test', iban: IBAN, amount: 300_000 },
        ]);
        assert.deepEqual(methods(fakes), [
          'awaiting_payer payer_card -',
          `pending payer_card ${IBAN}`,
          `succeeded payer_card ${IBAN}`,
        ]);
        await refusedWith(
          decide(client, taskQueue, verified, { refund_id: answer.id, decision: 'reject', reason: 'late' }),
          'refund_not_awaiting',
        );
        assert.equal(fakes.calls('payRefundToIban').length, 1);
      });
    });

    it('the whole payment after its reversal window with a typed IBAN is held for the operator; approving pays it, rejecting another gives its amount back', async () => {
      const fakes = withoutRefund(new FakeActivities(), 0);
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        const answer = await refund(client, taskQueue, verified, null, { destinationIban: IBAN });
        assert.deepEqual(
          [answer.status, answer.method, answer.held_for],
          ['awaiting_approval', 'iban_payout', 'typed_iban'],
        );
        await refundsOf(client, input.payment.id).result();
        assert.equal(fakes.calls('payRefundToIban').length, 0, 'a typed IBAN is not paid on the key alone');
        const approved = await decide(client, taskQueue, verified, { refund_id: answer.id, decision: 'approve' });
        assert.equal(approved.status, 'pending');
        await refundsOf(client, input.payment.id).result();
        assert.deepEqual(
          fakes.calls('payRefundToIban').map((c) => [c.iban, c.amount]),
          [[IBAN, AMOUNT]],
        );
        assert.equal(fakes.calls('reverseAtBank').length, 0);

        const other = await verifiedPayment(client, taskQueue);
        const held = await refund(client, taskQueue, other.verified, 100_000, { destinationIban: IBAN });
        await refundsOf(client, other.input.payment.id).result();
        const rejected = await decide(client, taskQueue, other.verified, {
          refund_id: held.id,
          decision: 'reject',
          reason: 'not the customer',
        });
        assert.deepEqual([rejected.status, rejected.failure?.code], ['failed', 'refund_rejected']);
        const givenBack = await refundsOf(client, other.input.payment.id).result();
        assert.deepEqual(
          { status: givenBack?.status, refunded_amount: givenBack?.refunded_amount },
          { status: 'verified', refunded_amount: 0 },
        );
      });
    });

    it('a reversal the PSP refuses (its window closed meanwhile) fails the refund, its amount refundable again: a typed IBAN is not paid instead', async () => {
      const fakes = withoutRefund(new FakeActivities());
      fakes.on('reverseAtBank', async () => {
        throw ApplicationFailure.nonRetryable('reversal window passed (-7)', 'bank_refused');
      });
      await withWorker(fakes.activities, async ({ client, taskQueue }) => {
        const { input, verified } = await verifiedPayment(client, taskQueue);
        const answer = await refund(client, taskQueue, verified, null, { destinationIban: IBAN });
        assert.equal(answer.method, 'reversal');
        const done = await refundsOf(client, input.payment.id).result();
        assert.deepEqual(
          { status: done?.status, refunded_amount: done?.refunded_amount },
          { status: 'verified', refunded_amount: 0 },
        );
        assert.equal(fakes.calls('reverseAtBank').length, 1);
        assert.equal(fakes.calls('payRefundToIban').length, 0);
        const failed = fakes
          .calls('recordRefund')
          .find((c) => c.refund.id === answer.id && c.refund.status === 'failed');
        assert.equal(failed?.refund.failure?.code, 'bank_refused');
      });
    });
  });
});
