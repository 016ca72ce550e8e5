/**
 * One payment, one workflow (docs/PAYMENTS.md), shaped as Temporal's
 * message-handling samples are: the state and its lock in a class
 * (payment-state.ts), the handlers set here, then the payment's timeline.
 * The workflow alone decides transitions; each is written to MySQL by an
 * activity before anyone can see it, and the timers for `expires_at` and
 * `verify_deadline_at` are durable: they fire after worker or server
 * restarts just the same. A payment link's payment (`auto_verify`) is
 * verified by the workflow itself once paid. It ends soon after the payment's final state
 * (verified included); refunds are the payment's refunds workflow's
 * (workflows/refunds.ts).
 */
import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  isCancellation,
  log,
  patched,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { BankActivities } from '../activities/bank.ts';
import {
  cancelRefusal,
  canceledByMerchant,
  feeAtVerify,
  isPositiveAmount,
  linkAutoVerifyBoundMs,
  NOT_A_POSITIVE_AMOUNT,
  PAYMENT_FAILURES,
  reverseRefusal,
  verifyRefusal,
} from '../src/domain/payment.ts';
import type { Payment } from '../src/domain/payment-schemas.ts';
import {
  advanceClockUpdate,
  BANK_UNAVAILABLE_REFUSAL,
  bankCallbackUpdate,
  bankTokenUpdate,
  cancelUpdate,
  paymentQuery,
  reverseUpdate,
  verifyUpdate,
  type AdvanceClockInput,
  type PaymentWorkflowInput,
} from '../src/domain/payment-workflow.ts';
import { amountAtBank, BankReturn } from './bank-return.ts';
import { PaymentClock } from './payment-clock.ts';
import { refusalFailure } from './failures.ts';
import { PaymentState } from './payment-state.ts';
import { bankCalls, bankCallsAwaited, recordWrites } from './proxies.ts';
import {
  LINK_AUTO_VERIFY_BOUND_PATCH,
  LINK_AUTO_VERIFY_LIVE_STANDING_PATCH,
  PAYMENT_LINK_AUTO_VERIFY_PATCH,
} from './patches.ts';

/**
 * A bank call the PSP answered with a refusal (the bank activity's `bank_refused`): another try gives the
 * same answer. A local activity's failure reaches the workflow as the activity's own ApplicationFailure,
 * an activity's wrapped in an ActivityFailure.
 */
const refusedByBank = (error: unknown) => {
  const failure = error instanceof ActivityFailure ? error.cause : error;
  return failure instanceof ApplicationFailure && failure.type === 'bank_refused';
};

export async function paymentLifecycleWorkflow(input: PaymentWorkflowInput): Promise<Payment> {
  const state = new PaymentState(input.payment, input.merchant_id);
  const clock = new PaymentClock(state.lock);
  const bank = new BankReturn(state, clock, input, amountAtBank(input));
  const { lock } = state;

  /** Returns everything the customer was charged at the bank, then records `reversed` (no fee). */
  async function reverse(): Promise<void> {
    const { payment } = state;
    await bankCalls.reverseAtBank(state.atBankRecorded());
    await state.commit({ ...payment, status: 'reversed', refunded_amount: bank.charged, fee: 0 });
  }

  /** Records the paid payment `verified`, with the fee of its plan, once the bank has settled it. */
  async function recordVerified(): Promise<void> {
    const { payment } = state;
    await state.commit({
      ...payment,
      status: 'verified',
      verified_at: clock.now(),
      fee: feeAtVerify(payment, input.fee_plan),
    });
  }

  /**
   * The paid payment's verify, the merchant's or a payment link's own: captured at the PSP first where
   * its verify at the return did not capture (settlesAtVerify; `settle` is the activities the caller's
   * retries allow), then recorded `verified`. `unsettled`: the bank did not settle (no answer, or a
   * refusal of a settle): the payment stays paid. `reversed`: a PSP that verifies only now (capture
   * `merchant_verify`: Sadad) refused the verify (-1 no such transaction, 101 too late, or one naming
   * another amount or order), so it holds no money for this payment and has no reversal: the payment
   * ends reversed, the refusal recorded (a path only that capture reaches, so no history recorded before
   * takes it).
   */
  async function settleThenVerify(
    settle: Pick<BankActivities, 'settleAtBank'>,
  ): Promise<'verified' | 'reversed' | 'unsettled'> {
    const { payment } = state;
    try {
      if (await bank.settlesAtVerify()) await settle.settleAtBank(state.atBankRecorded());
    } catch (error) {
      if (isCancellation(error)) throw error;
      if (!(bank.verifiesAtMerchantVerify() && refusedByBank(error))) return 'unsettled';
      await state.commit({
        ...payment,
        status: 'reversed',
        refunded_amount: bank.charged,
        fee: 0,
        failure: PAYMENT_FAILURES.verifyRefusedByBank,
      });
      return 'reversed';
    }
    await recordVerified();
    return 'verified';
  }

  // The announcement takes the lock before any handler is set: a bank answer sent with the
  // workflow's start is delivered as soon as its handler is, and must wait for it.
  const announced = state.announce();

  setHandler(paymentQuery, () => state.payment);

  setHandler(bankTokenUpdate, (request) => state.exclusive(() => bank.requestToken(request)));

  setHandler(bankCallbackUpdate, (callback) =>
    state.exclusive(async () => {
      await bank.applyCallback(callback);
      return state.payment;
    }),
  );

  // Cancel and reverse answer the same again once done, so a retried request succeeds. The
  // validators refuse early (nothing enters history) unless a step is in flight: the handler
  // then decides on the state it finds.
  const refuseUnless = (refusal: { code: string; message: string } | undefined) => {
    if (refusal !== undefined) throw refusalFailure(refusal);
  };
  /**
   * An Update's validator: refuses early, before anything enters history, with the refusal `rule` finds
   * for the payment as it is, unless a step is in flight (the lock held): the handler then decides, under
   * the lock, on the state that step leaves.
   */
  const refuseUnlessBusy = (rule: () => { code: string; message: string } | undefined) => () => {
    if (!lock.held) refuseUnless(rule());
  };
  setHandler(
    cancelUpdate,
    () =>
      state.exclusive(async () => {
        refuseUnless(cancelRefusal(state.payment));
        if (!canceledByMerchant(state.payment))
          await state.commit({ ...state.payment, status: 'canceled', failure: PAYMENT_FAILURES.canceledByMerchant });
        return state.payment;
      }),
    { validator: refuseUnlessBusy(() => cancelRefusal(state.payment)) },
  );

  setHandler(
    reverseUpdate,
    () =>
      state.exclusive(async () => {
        refuseUnless(reverseRefusal(state.payment));
        if (state.payment.status === 'paid') await reverse();
        return state.payment;
      }),
    { validator: refuseUnlessBusy(() => reverseRefusal(state.payment)) },
  );

  setHandler(
    advanceClockUpdate,
    async (request) => {
      await clock.advance(request);
      return state.payment;
    },
    {
      validator: (request: AdvanceClockInput) => {
        state.testModeOnly();
        PaymentClock.checkAdvance(request);
      },
    },
  );

  setHandler(
    verifyUpdate,
    ({ amount }) =>
      state.exclusive(async () => {
        refuseUnless(verifyRefusal(state.payment, amount, clock.nowMs()));
        const { payment } = state;
        // Already verified with the same amount: the same answer again.
        if (payment.status !== 'paid') return payment;
        // A bank that does not settle leaves it paid (503, verify again).
        const outcome = await settleThenVerify(bankCallsAwaited);
        if (outcome === 'unsettled')
          throw refusalFailure({
            code: BANK_UNAVAILABLE_REFUSAL,
            message: 'The bank did not settle the payment in time; verify again.',
          });
        if (outcome === 'reversed')
          throw refusalFailure({
            code: 'verify_deadline_passed',
            message: `${PAYMENT_FAILURES.verifyRefusedByBank.message} The payment is reversed.`,
          });
        return state.payment;
      }),
    {
      // Rejects before anything enters history when the answer is already known.
      validator: ({ amount }) => {
        if (!isPositiveAmount(amount)) throw refusalFailure(NOT_A_POSITIVE_AMOUNT);
        refuseUnlessBusy(() => verifyRefusal(state.payment, amount, clock.nowMs()))();
      },
    },
  );

  // 0. The payment is announced (taken under the lock above, before any handler could run).
  await announced;

  // 1. The customer has until expires_at to get an answer from the bank.
  const answered = await clock.waitUntil(state.payment.expires_at, () => state.payment.status !== 'created');
  if (!answered) {
    await state.exclusive(async () => {
      if (state.payment.status === 'created')
        await state.commit({ ...state.payment, status: 'expired', failure: PAYMENT_FAILURES.expired });
    });
  }

  // 2. The bank keeps the payment "in progress": it is asked again until it answers or the limit passes.
  if (state.payment.status === 'pending') await bank.awaitConfirmation();

  // 3a. A payment link's payment: nobody else will verify it. Where its PSP captures at settle, the bank
  // is asked to settle until it answers (retried as every bank call); should it refuse for good, the
  // payment stays paid and the deadline below gives the money back, as for a merchant who never
  // verified. Where the PSP's verify at the return captured, it is verified at once.
  if (state.payment.status === 'paid' && input.auto_verify === true && patched(PAYMENT_LINK_AUTO_VERIFY_PATCH)) {
    await state.exclusive(async () => {
      const { payment } = state;
      if (payment.status !== 'paid') return;
      if (
        payment.mode === 'live' &&
        patched(LINK_AUTO_VERIFY_LIVE_STANDING_PATCH) &&
        !(await recordWrites.merchantLiveStanding({ merchant_id: input.merchant_id })).live
      ) {
        await reverse();
        return;
      }
      const settle = await settleThenVerify({
        // Asked only where the PSP settles at verify (settlesAtVerify), as before the bound existed.
        settleAtBank: (identity) =>
          (patched(LINK_AUTO_VERIFY_BOUND_PATCH) ? boundedSettle(input.verify_window_ms) : bankCalls).settleAtBank(
            identity,
          ),
      });
      // Refused, or not answered within the bound: the payment stays paid and the deadline gives the money back.
      if (settle === 'unsettled')
        log.warn('payment link auto-verify gave up on the bank settle; left paid for its deadline', {
          payment_id: payment.id,
        });
    });
  }

  // 3. Paid: the merchant must verify before the deadline, or the money goes back.
  if (state.payment.status === 'paid') {
    const verified = await clock.waitUntil(
      state.payment.verify_deadline_at ?? clock.now(),
      () => state.payment.status !== 'paid',
    );
    if (!verified) {
      await state.exclusive(async () => {
        if (state.payment.status === 'paid') await reverse();
      });
    }
  }

  clock.stop();
  await condition(allHandlersFinished);
  return state.payment;
}

/**
 * The settle of a payment link's payment, retried as every bank call (by its operation key, so a retry is
 * the same settle) but only within linkAutoVerifyBoundMs of its first attempt: a bank that stays down must
 * not hold the payment's workflow (and its lock) past the deadline that gives the money back.
 */
function boundedSettle(verifyWindowMs: number) {
  const bound = linkAutoVerifyBoundMs(verifyWindowMs);
  return proxyActivities<BankActivities>({
    scheduleToCloseTimeout: bound,
    startToCloseTimeout: Math.min(30_000, bound),
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
  });
}
