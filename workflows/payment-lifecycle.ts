/**
 * What the payment workflow (workflows/payment.ts) hands every message and every step of its timeline
 * to, as Temporal's message-handling samples hand theirs to a class: the payment as recorded and its lock
 * (payment-state.ts), its clock (payment-clock.ts) and the customer's way through the bank
 * (bank-return.ts), with the logic of each Update, validator and query, and of each step the timeline
 * takes. Every method returns the very promise the workflow used to build inline, so the commands, and
 * their order, are the ones every committed history holds.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  deprecatePatch,
  isCancellation,
  log,
  patched,
  proxyActivities,
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
  BANK_UNAVAILABLE_REFUSAL,
  type AdvanceClockInput,
  type BankCallback,
  type BankTokenInput,
  type BankTokenResult,
  type PaymentWorkflowInput,
  type VerifyInput,
} from '../src/domain/payment-workflow.ts';
import { amountAtBank, BankReturn } from './bank-return.ts';
import { refusalFailure } from './failures.ts';
import { PaymentClock } from './payment-clock.ts';
import { PaymentState } from './payment-state.ts';
import { bankCalls, bankCallsAwaited, recordWrites } from './proxies.ts';
import {
  LINK_AUTO_VERIFY_BOUND_PATCH,
  LINK_AUTO_VERIFY_LIVE_STANDING_PATCH,
  PAYMENT_LINK_AUTO_VERIFY_PATCH,
} from './patches.ts';

type Refusal = { code: string; message: string } | undefined;

/**
 * A bank call the PSP answered with a refusal (the bank activity's `bank_refused`): another try gives the
 * same answer. A local activity's failure reaches the workflow as the activity's own ApplicationFailure,
 * an activity's wrapped in an ActivityFailure.
 */
const refusedByBank = (error: unknown) => {
  const failure = error instanceof ActivityFailure ? error.cause : error;
  return failure instanceof ApplicationFailure && failure.type === 'bank_refused';
};

const refuseUnless = (refusal: Refusal) => {
  if (refusal !== undefined) throw refusalFailure(refusal);
};

export class PaymentLifecycle {
  private readonly input: PaymentWorkflowInput;
  private readonly state: PaymentState;
  private readonly clock: PaymentClock;
  private readonly bank: BankReturn;
  /** Which workflow type holds the payment (payment.ts): the flow workflow's history has no patch markers, and is shorter. */
  private readonly flow: boolean;

  /**
   * Asks CUSTOMER_PAYS_FEE_PATCH (amountAtBank) at once: the workflow builds this before anything else.
   * `shape`: the workflow type's, 'flow' for paymentFlowWorkflow, 'lifecycle' for the type before it.
   */
  constructor(input: PaymentWorkflowInput, shape: 'flow' | 'lifecycle') {
    this.input = input;
    this.flow = shape === 'flow';
    this.state = new PaymentState(input.payment, input.merchant_id);
    this.clock = new PaymentClock(this.state.lock, 0, this.flow);
    this.bank = new BankReturn(this.state, this.clock, input, amountAtBank(input, this.flow), this.flow);
  }

  /** The payment as last recorded: the query `payment`, and what the Updates and the workflow answer. */
  get payment(): Payment {
    return this.state.payment;
  }

  // ── The messages ────────────────────────────────────────────────────────────────────────────────

  /** `bankToken`: the customer goes to the bank (bank-return.ts requestToken), one step at a time. */
  onBankToken(request: BankTokenInput): Promise<BankTokenResult> {
    return this.state.exclusive(() => this.bank.requestToken(request));
  }

  /** `bankCallback`: the bank sent the customer back (bank-return.ts applyCallback). */
  onBankCallback(callback: BankCallback): Promise<Payment> {
    return this.state.exclusive(async () => {
      await this.bank.applyCallback(callback);
      return this.state.payment;
    });
  }

  // Cancel and reverse answer the same again once done, so a retried request succeeds. The validators
  // refuse early (nothing enters history) unless a step is in flight: the handler then decides on the
  // state it finds.

  /** `cancel`, the merchant's. */
  onCancel(): Promise<Payment> {
    return this.state.exclusive(async () => {
      refuseUnless(cancelRefusal(this.state.payment));
      if (!canceledByMerchant(this.state.payment))
        await this.state.commit({
          ...this.state.payment,
          status: 'canceled',
          failure: PAYMENT_FAILURES.canceledByMerchant,
        });
      return this.state.payment;
    });
  }

  validateCancel(): void {
    this.refuseUnlessBusy(() => cancelRefusal(this.state.payment));
  }

  /** `reverse`, the merchant's: a paid payment's money goes back. */
  onReverse(): Promise<Payment> {
    return this.state.exclusive(async () => {
      refuseUnless(reverseRefusal(this.state.payment));
      if (this.state.payment.status === 'paid') await this.reverse();
      return this.state.payment;
    });
  }

  validateReverse(): void {
    this.refuseUnlessBusy(() => reverseRefusal(this.state.payment));
  }

  /** `advanceClock`, a test payment's: answers once the deadlines now due have fired. */
  async onAdvanceClock(request: AdvanceClockInput): Promise<Payment> {
    await this.clock.advance(request);
    return this.state.payment;
  }

  validateAdvanceClock(request: AdvanceClockInput): void {
    this.state.testModeOnly();
    PaymentClock.checkAdvance(request);
  }

  /** `verify`, the merchant's: settled at the PSP where its verify at the return did not capture, then `verified`. */
  onVerify({ amount }: VerifyInput): Promise<Payment> {
    return this.state.exclusive(async () => {
      refuseUnless(verifyRefusal(this.state.payment, amount, this.clock.nowMs()));
      const { payment } = this.state;
      // Already verified with the same amount: the same answer again.
      if (payment.status !== 'paid') return payment;
      // A bank that does not settle leaves it paid (503, verify again).
      const outcome = await this.settleThenVerify(bankCallsAwaited);
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
      return this.state.payment;
    });
  }

  /** Rejects before anything enters history when the answer is already known. */
  validateVerify({ amount }: VerifyInput): void {
    if (!isPositiveAmount(amount)) throw refusalFailure(NOT_A_POSITIVE_AMOUNT);
    this.refuseUnlessBusy(() => verifyRefusal(this.state.payment, amount, this.clock.nowMs()));
  }

  /**
   * An Update's validator: refuses early, before anything enters history, with the refusal `rule` finds
   * for the payment as it is, unless a step is in flight (the lock held): the handler then decides, under
   * the lock, on the state that step leaves.
   */
  private refuseUnlessBusy(rule: () => Refusal): void {
    if (!this.state.lock.held) refuseUnless(rule());
  }

  // ── The steps of the timeline ───────────────────────────────────────────────────────────────────

  /** Tells the merchant the payment exists, under the lock: taken before any handler is set. */
  announce(): Promise<void> {
    return this.state.announce();
  }

  /** Waits until the bank answered (any status but `created`) or `expires_at` passed: answers which. */
  answeredBeforeExpiry(): Promise<boolean> {
    return this.clock.waitUntil(this.state.payment.expires_at, () => this.state.payment.status !== 'created');
  }

  /** Nobody answered in time: a payment still `created` expires. */
  expire(): Promise<void> {
    return this.state.exclusive(async () => {
      if (this.state.payment.status === 'created')
        await this.state.commit({ ...this.state.payment, status: 'expired', failure: PAYMENT_FAILURES.expired });
    });
  }

  /** The bank keeps the payment "in progress". */
  get pending(): boolean {
    return this.state.payment.status === 'pending';
  }

  /** The pending payment is asked about again until the bank answers or the pending limit passes. */
  awaitConfirmation(): Promise<void> {
    return this.bank.awaitConfirmation();
  }

  get paid(): boolean {
    return this.state.payment.status === 'paid';
  }

  /** A paid payment link's payment, which its workflow verifies itself (PAYMENT_LINK_AUTO_VERIFY_PATCH). */
  isPaidLinkPayment(): boolean {
    if (!(this.paid && this.input.auto_verify === true)) return false;
    if (!this.flow) deprecatePatch(PAYMENT_LINK_AUTO_VERIFY_PATCH);
    return true;
  }

  /**
   * A payment link's own verify: nobody else will verify it. A live link's payment whose merchant lost
   * live mode is given back. Where its PSP captures at settle, the bank is asked to settle within a bound
   * (boundedSettle); should it refuse or not answer, the payment stays paid and the deadline gives the
   * money back, as for a merchant who never verified. Where the PSP's verify at the return captured, it
   * is verified at once.
   */
  verifyLinkPayment(): Promise<void> {
    return this.state.exclusive(async () => {
      const { payment } = this.state;
      if (payment.status !== 'paid') return;
      if (payment.mode === 'live') {
        if (!this.flow) deprecatePatch(LINK_AUTO_VERIFY_LIVE_STANDING_PATCH);
        if (!(await recordWrites.merchantLiveStanding({ merchant_id: this.input.merchant_id })).live) {
          await this.reverse();
          return;
        }
      }
      const settle = await this.settleThenVerify({
        // Asked only where the PSP settles at verify (settlesAtVerify), as before the bound existed.
        settleAtBank: (identity) =>
          (this.flow || patched(LINK_AUTO_VERIFY_BOUND_PATCH)
            ? boundedSettle(this.input.verify_window_ms)
            : bankCalls
          ).settleAtBank(identity),
      });
      // Refused, or not answered within the bound: the payment stays paid and the deadline gives the money back.
      if (settle === 'unsettled')
        log.warn('payment link auto-verify gave up on the bank settle; left paid for its deadline', {
          payment_id: payment.id,
        });
    });
  }

  /** Waits until the paid payment is verified (or ends otherwise) or its verify deadline passes: answers which. */
  verifiedBeforeDeadline(): Promise<boolean> {
    return this.clock.waitUntil(
      this.state.payment.verify_deadline_at ?? this.clock.now(),
      () => this.state.payment.status !== 'paid',
    );
  }

  /** Nobody verified in time: a payment still paid is given back. */
  reverseAtDeadline(): Promise<void> {
    return this.state.exclusive(async () => {
      if (this.state.payment.status === 'paid') await this.reverse();
    });
  }

  /** The timeline waits for no timer any more: advancing the clock answers at once. */
  stopClock(): void {
    this.clock.stop();
  }

  // ── What the steps and the handlers share ───────────────────────────────────────────────────────

  /** Returns everything the customer was charged at the bank, then records `reversed` (no fee). */
  private async reverse(): Promise<void> {
    const { payment } = this.state;
    await bankCalls.reverseAtBank(this.state.atBankRecorded());
    await this.state.commit({ ...payment, status: 'reversed', refunded_amount: this.bank.charged, fee: 0 });
  }

  /** Records the paid payment `verified`, with the fee of its plan, once the bank has settled it. */
  private async recordVerified(): Promise<void> {
    const { payment } = this.state;
    await this.state.commit({
      ...payment,
      status: 'verified',
      verified_at: this.clock.now(),
      fee: feeAtVerify(payment, this.input.fee_plan),
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
  private async settleThenVerify(
    settle: Pick<BankActivities, 'settleAtBank'>,
  ): Promise<'verified' | 'reversed' | 'unsettled'> {
    const { payment } = this.state;
    try {
      if (await this.bank.settlesAtVerify()) await settle.settleAtBank(this.state.atBankRecorded());
    } catch (error) {
      if (isCancellation(error)) throw error;
      if (!(this.bank.verifiesAtMerchantVerify() && refusedByBank(error))) return 'unsettled';
      await this.state.commit({
        ...payment,
        status: 'reversed',
        refunded_amount: this.bank.charged,
        fee: 0,
        failure: PAYMENT_FAILURES.verifyRefusedByBank,
      });
      return 'reversed';
    }
    await this.recordVerified();
    return 'verified';
  }
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
