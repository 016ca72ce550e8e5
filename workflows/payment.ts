/**
 * One payment, one workflow (docs/PAYMENTS.md). The workflow alone decides
 * transitions; each is written to MySQL by an activity before anyone can see
 * it, and the timers for `expires_at` and `verify_deadline_at` are durable:
 * they fire after worker or server restarts just the same.
 *
 * Two workflow types run this code. `paymentWorkflowV2`, which every payment
 * starts from this version on, ends soon after the payment's final state
 * (verified included), writes its records and makes the bank calls a person
 * waits for as local activities (no round trip through the server between
 * them), and leaves refunds to the payment's refunds workflow. `paymentWorkflow`,
 * the first type, is what payments started before run: each feature since its
 * patch, a verified payment open for its refund window, its refunds taken here.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  isCancellation,
  patched,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { computeFee, MAX_ADVANCE_SECONDS, STATUS_AFTER_OUTCOME, verifyRefusal, type PaymentStatus } from '../src/domain/payment.ts';
import type { Payment } from '../src/domain/payment-schemas.ts';
import {
  advanceClockUpdate,
  BANK_PENDING_LIMIT_DEFAULT_MS,
  BANK_PENDING_MAX_INTERVAL_MS,
  bankCallbackUpdate,
  bankResultSignal,
  bankTokenUpdate,
  cancelUpdate,
  paymentQuery,
  REFUNDS_APART,
  refundUpdate,
  reverseUpdate,
  searchAttributes,
  testBankOutcomeUpdate,
  verifyUpdate,
  type AdvanceClockInput,
  type BankCallback,
  type BankResult,
  type BankTokenInput,
  type BankTokenResult,
  type PaymentWorkflowInput,
  type RefundRequest,
  type VerifyInput,
} from '../src/domain/payment-workflow.ts';
import { refundRefusal } from '../src/domain/refund.ts';
import { bank, bankLocalFirst, bankNow, localBankNow, records, recordsLocalFirst } from './proxies.ts';
import { StepLock } from './lock.ts';
import { checkRefundRequest, checkTransition as checkAllowed, RefundBook, refusalFailure } from './refunding.ts';

/**
 * Which code a run takes. `has(feature)` answers whether the run has a feature that came with a
 * patch (the first type asks patched(), at the same point as always); `shortLived` is the second
 * type's way (local activities, the end at the final state, refunds apart).
 */
interface Generation {
  has(feature: 'merchant-api' | 'bank-protocol' | 'bank-pending-limit' | 'refund-window'): boolean;
  shortLived: boolean;
}

/** The first type: payments started before paymentWorkflowV2, each feature since its patch. */
export async function paymentWorkflow(input: PaymentWorkflowInput): Promise<Payment> {
  return runPayment(input, { has: patched, shortLived: false });
}

/** Every payment from this version on: every feature, no patch markers, ended at its final state. */
export async function paymentWorkflowV2(input: PaymentWorkflowInput): Promise<Payment> {
  return runPayment(input, { has: () => true, shortLived: true });
}

async function runPayment(input: PaymentWorkflowInput, generation: Generation): Promise<Payment> {
  let payment: Payment = input.payment;
  let version = 1;
  const lock = new StepLock();
  /** Closes when the refund window ends; later refunds are refused (the first type only). */
  let refundWindowOpen = true;
  const { shortLived } = generation;
  const write = shortLived ? recordsLocalFirst : records;
  const askBank = shortLived ? bankLocalFirst : bank;
  const askBankNow = shortLived ? localBankNow : bankNow;

  // Payments started from here on (a patch marker in their history) have their own clock for the
  // `advance` test helper and announce themselves with payment.created. Payments already running
  // keep exactly the code they started with.
  const merchantApi = generation.has('merchant-api');
  // Payments started from here on go to the bank over its protocol (docs/BANK.md): a token, the
  // bank's page, the bank's callback confirmed server to server, settlement at verify, reversal
  // and refunds at the bank. Only the bank's confirmation pays them; the old `bankResult` signal
  // and the in-worker sandbox bank serve the payments started before.
  const bankProtocol = generation.has('bank-protocol');
  /** The bank's token for this payment's page, once asked for. */
  let bankToken: BankTokenResult | undefined;
  /** The bank's reference (RefNum) of a payment whose confirmation is pending. */
  let pendingRef: string | undefined;

  /** How far the `advance` test helper has moved this payment's clock ahead of real time. */
  let clockOffsetMs = 0;
  /** Now, on the payment's clock: every deadline and timestamp of the payment is read on it. */
  const clockNow = () => Date.now() + clockOffsetMs;
  /** The clock offset at which the main flow is waiting for its next deadline, if it is. */
  let waitingAt: number | undefined;
  /** No timer is left to wait for: advancing the clock changes nothing any more. */
  let timersDone = false;

  /** Runs one transition at a time: bank results, verifies and timers never interleave. */
  const exclusive = <T>(step: () => Promise<T>): Promise<T> => lock.run(step);

  const checkTransition = (next: Payment) => checkAllowed(payment, next);

  function accept(next: Payment): void {
    version += 1;
    payment = next;
    upsertSearchAttributes([{ key: searchAttributes.status, value: next.status }]);
  }

  /** Records the next state in MySQL, then makes it the visible state. */
  async function commit(next: Payment): Promise<void> {
    checkTransition(next);
    await write.recordTransition({ payment: next, version: version + 1 });
    accept(next);
  }

  const now = () => new Date(clockNow()).toISOString();
  const msUntil = (iso: string) => Math.max(0, Date.parse(iso) - Date.now());

  /**
   * Waits until `done()` holds or `deadline` passes on the payment's clock;
   * answers whether `done()` held. A durable timer, raced with the clock:
   * when a test advances the clock, the wait is recomputed at once.
   */
  async function waitUntil(deadline: string, done: () => boolean): Promise<boolean> {
    if (!merchantApi) return condition(done, msUntil(deadline)); // the code these payments started with
    for (;;) {
      if (done()) return true;
      const remaining = Date.parse(deadline) - clockNow();
      if (remaining <= 0) return false;
      const offset = clockOffsetMs;
      waitingAt = offset;
      const woke = await condition(() => done() || clockOffsetMs !== offset, remaining);
      waitingAt = undefined;
      if (!woke) return done();
    }
  }

  async function markPaid(confirmed?: { reference_id: string; rrn: string; card_pan: string }): Promise<void> {
    const capture = confirmed ?? (await bank.captureSandboxPayment({ payment_id: payment.id, amount: payment.amount }));
    const paidAt = clockNow();
    await commit({
      ...payment,
      status: 'paid',
      reference_id: capture.reference_id,
      rrn: capture.rrn,
      card_pan: capture.card_pan,
      paid_at: new Date(paidAt).toISOString(),
      verify_deadline_at: new Date(paidAt + input.verify_window_ms).toISOString(),
    });
  }

  /** Returns the whole amount to the customer at the bank, then records `reversed` (no fee). */
  async function reverse(): Promise<void> {
    if (bankProtocol) await bank.reverseAtBank({ payment_id: payment.id, mode: payment.mode, ref_num: payment.reference_id ?? '' });
    else await bank.reverseSandboxPayment({ payment_id: payment.id, amount: payment.amount });
    await commit({ ...payment, status: 'reversed', refunded_amount: payment.amount, fee: 0 });
  }

  async function applyBankResult({ outcome }: BankResult): Promise<void> {
    // On the bank protocol a signal can pay nothing: only the bank's confirmation can.
    if (bankProtocol) return;
    // A second choice, or one after the page expired, changes nothing.
    if (payment.status !== 'created' || clockNow() >= Date.parse(payment.expires_at)) return;
    const next: PaymentStatus = STATUS_AFTER_OUTCOME[outcome];
    if (next === 'paid') return markPaid();
    if (next === 'failed') {
      return commit({ ...payment, status: 'failed', failure: { code: 'card_declined', message: 'The bank declined the payment.' } });
    }
    if (next === 'canceled') {
      return commit({ ...payment, status: 'canceled', failure: { code: 'canceled_by_customer', message: 'The customer canceled the payment.' } });
    }
    return commit({ ...payment, status: 'pending' });
  }

  const payable = () => payment.status === 'created' && clockNow() < Date.parse(payment.expires_at);

  /**
   * The bank's callback, never trusted: it must carry this payment's id and the token we were given,
   * and only the bank's own answer to confirm (the right amount, terminal and payment) pays.
   */
  async function applyBankCallback(callback: BankCallback): Promise<void> {
    if (!payable() || bankToken === undefined) return;
    if (callback.token !== bankToken.token || callback.res_num !== payment.id) return; // not this payment's session at the bank
    if (callback.state === 'CanceledByUser') {
      return commit({ ...payment, status: 'canceled', failure: { code: 'canceled_by_customer', message: 'The customer canceled the payment.' } });
    }
    if (callback.state !== 'OK') {
      return commit({ ...payment, status: 'failed', failure: { code: 'card_declined', message: 'The bank declined the payment.' } });
    }
    await confirmAtBank(callback.ref_num);
  }

  /** Asks the bank about `refNum`; pays, keeps pending, or (for a pending payment the bank refuses) fails the payment. */
  async function confirmAtBank(refNum: string): Promise<void> {
    // The second type asks within the workflow task first: the payment is recorded in the same task.
    const answer = await askBank.confirmAtBank({ payment_id: payment.id, mode: payment.mode, ref_num: refNum });
    if (answer.result === 'in_progress') {
      pendingRef = refNum;
      if (payment.status === 'created') await commit({ ...payment, status: 'pending' });
      return;
    }
    const genuine =
      answer.result === 'confirmed' &&
      answer.terminal_matches === true &&
      answer.amount === payment.amount &&
      answer.res_num === payment.id &&
      answer.ref_num === refNum &&
      /^[0-9]+$/.test(answer.ref_num) &&
      /^[0-9]{12}$/.test(answer.rrn) &&
      /^[0-9]{6}\*+[0-9]{4}$/.test(answer.card_pan);
    if (answer.result === 'confirmed' && genuine) return markPaid({ reference_id: answer.ref_num, rrn: answer.rrn, card_pan: answer.card_pan });
    // Not confirmed for this payment: a created payment stays payable; a pending one is refused by its bank.
    if (payment.status === 'pending') {
      await commit({ ...payment, status: 'failed', failure: { code: 'card_declined', message: 'The bank did not confirm the payment.' } });
    }
  }

  /** The refunds of a verified payment of the first type, taken here while its refund window is open. */
  const refunds = new RefundBook({
    payment: () => payment,
    refusal: (amount) => refundRefusal(payment, amount, refundWindowOpen),
    async record(refund, next) {
      if (next !== null) checkTransition(next);
      await records.recordRefund({
        refund,
        merchant_id: input.merchant_id,
        mode: payment.mode,
        payment: next === null ? null : { payment: next, version: version + 1 },
      });
      if (next !== null) accept(next);
    },
    async payOut(refund) {
      if (bankProtocol) {
        await bank.refundAtBank({ payment_id: payment.id, mode: payment.mode, ref_num: payment.reference_id ?? '', refund_id: refund.id, amount: refund.amount });
      } else {
        await bank.refundPayment({ payment_id: payment.id, refund_id: refund.id, amount: refund.amount });
      }
    },
    exclusive,
    now,
  });

  // Tell the merchant the payment exists (payment.created), once, before any change of it. The lock
  // is taken here, before the handlers are set: a bank answer sent with the workflow's start is
  // delivered as soon as its handler is, and must wait for the announcement.
  const announced = merchantApi ? exclusive(() => write.announcePayment({ payment, merchant_id: input.merchant_id })) : Promise.resolve();

  setHandler(paymentQuery, () => payment);

  setHandler(bankResultSignal, (result) => exclusive(() => applyBankResult(result)));

  /** A typed refusal: the API answers it with the code's status (src/errors.ts). */
  const refuse = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });
  const testModeOnly = () => {
    if (payment.mode !== 'test') throw refuse('test_mode_only', 'Test helpers work on test payments only.');
  };

  setHandler(
    bankTokenUpdate,
    (input) =>
      exclusive(async () => {
        if (!payable()) throw refuse('payment_not_payable', `The payment is ${payment.status}; it can no longer be paid.`);
        bankToken ??= await askBankNow.requestBankToken({ payment_id: payment.id, mode: payment.mode, amount: payment.amount, redirect_url: input.redirect_url });
        return bankToken;
      }),
    {
      validator: (_: BankTokenInput) => {
        if (!bankProtocol) throw refuse('payment_not_payable', 'This payment was created before the bank protocol; it cannot go to the bank.');
      },
    },
  );

  setHandler(
    bankCallbackUpdate,
    (callback) =>
      exclusive(async () => {
        await applyBankCallback(callback);
        return payment;
      }),
    {
      validator: (_: BankCallback) => {
        if (!bankProtocol) throw refuse('payment_not_payable', 'This payment was created before the bank protocol.');
      },
    },
  );

  setHandler(
    testBankOutcomeUpdate,
    (result) =>
      exclusive(async () => {
        await applyBankResult(result);
        return payment;
      }),
    {
      validator: (_: BankResult) => {
        testModeOnly();
        // The test helper now walks the bank's own page (src/payments/service.ts): nothing pays without the bank.
        if (bankProtocol) throw refuse('validation_failed', 'This payment goes to the bank; the test helper drives the bank simulator.');
      },
    },
  );

  // Cancel and reverse answer the same again once done, so a retried request succeeds. The
  // validators refuse early (nothing enters history) unless a transition is in flight.
  const canceledByMerchant = () => payment.status === 'canceled' && payment.failure?.code === 'canceled_by_merchant';
  const cancelRefusal = () =>
    payment.status === 'created' || canceledByMerchant()
      ? undefined
      : refuse('payment_not_cancelable', `The payment is ${payment.status}; only a created payment can be canceled.`);
  setHandler(
    cancelUpdate,
    () =>
      exclusive(async () => {
        const refusal = cancelRefusal();
        if (refusal !== undefined) throw refusal;
        if (canceledByMerchant()) return payment;
        await commit({ ...payment, status: 'canceled', failure: { code: 'canceled_by_merchant', message: 'The merchant canceled the payment.' } });
        return payment;
      }),
    {
      validator: () => {
        const refusal = lock.held ? undefined : cancelRefusal();
        if (refusal !== undefined) throw refusal;
      },
    },
  );

  const reverseRefusal = () =>
    payment.status === 'paid' || payment.status === 'reversed'
      ? undefined
      : refuse('payment_not_reversible', `The payment is ${payment.status}; only a paid, unverified payment can be reversed.`);
  setHandler(
    reverseUpdate,
    () =>
      exclusive(async () => {
        const refusal = reverseRefusal();
        if (refusal !== undefined) throw refusal;
        if (payment.status === 'paid') await reverse();
        return payment;
      }),
    {
      validator: () => {
        const refusal = lock.held ? undefined : reverseRefusal();
        if (refusal !== undefined) throw refusal;
      },
    },
  );

  setHandler(
    advanceClockUpdate,
    async ({ seconds }) => {
      clockOffsetMs += seconds * 1000;
      const target = clockOffsetMs;
      // Answer once the timers now due have fired and their transitions are recorded.
      await condition(() => timersDone || (waitingAt === target && !lock.held));
      return payment;
    },
    {
      validator: ({ seconds }: AdvanceClockInput) => {
        testModeOnly();
        if (!merchantApi) throw refuse('test_clock_unavailable', 'This payment was created before payments had their own clock.');
        if (!Number.isSafeInteger(seconds) || seconds < 1 || seconds > MAX_ADVANCE_SECONDS) {
          throw refuse('validation_failed', `seconds must be an integer from 1 to ${MAX_ADVANCE_SECONDS}`);
        }
      },
    },
  );

  setHandler(
    verifyUpdate,
    ({ amount }) =>
      exclusive(async () => {
        const refusal = verifyRefusal(payment, amount, clockNow());
        if (refusal !== undefined) throw ApplicationFailure.create({ type: refusal.code, message: refusal.message, nonRetryable: true });
        // Already verified with the same amount: the same answer again.
        if (payment.status !== 'paid') return payment;
        if (bankProtocol) {
          // Settled at the bank before it is verified; a bank that does not answer leaves it paid (503, try again).
          try {
            await askBankNow.settleAtBank({ payment_id: payment.id, mode: payment.mode, ref_num: payment.reference_id ?? '' });
          } catch (error) {
            if (isCancellation(error)) throw error;
            throw refuse('bank_unavailable', 'The bank did not settle the payment in time; verify again.');
          }
        }
        await commit({ ...payment, status: 'verified', verified_at: now(), fee: computeFee(payment.amount, input.fee_plan) });
        return payment;
      }),
    {
      // Rejects before anything enters history when the answer is already known.
      validator: ({ amount }: VerifyInput) => {
        if (!Number.isSafeInteger(amount) || amount <= 0) {
          throw ApplicationFailure.create({ type: 'validation_failed', message: 'amount must be a positive integer', nonRetryable: true });
        }
        if (lock.held) return; // a transition is in flight; the handler decides on the state it leaves
        const refusal = verifyRefusal(payment, amount, clockNow());
        if (refusal !== undefined) throw ApplicationFailure.create({ type: refusal.code, message: refusal.message, nonRetryable: true });
      },
    },
  );

  setHandler(refundUpdate, (request) => exclusive(() => refunds.reserve(request)), {
    validator: (request: RefundRequest) => {
      // The second type takes no refund (the workflow ends at verify): the API sends it to the payment's refunds workflow.
      if (shortLived) throw refuse(REFUNDS_APART, "This payment's refunds are taken by its refunds workflow.");
      checkRefundRequest(request);
      if (lock.held || refunds.taken.has(request.refund_id)) return; // the handler decides on the state it finds
      const refusal = refundRefusal(payment, request.amount, refundWindowOpen);
      if (refusal !== undefined) throw refusalFailure(refusal);
    },
  });

  // 0. The payment is announced (taken under the lock above, before any handler could run).
  await announced;

  // 1. The customer has until expires_at to get an answer from the bank.
  const answered = await waitUntil(payment.expires_at, () => payment.status !== 'created');
  if (!answered) {
    await exclusive(async () => {
      if (payment.status === 'created') {
        await commit({ ...payment, status: 'expired', failure: { code: 'payment_expired', message: 'The payment page expired before the payment was made.' } });
      }
    });
  }

  // 2. "Delay in verification": the bank confirms a pending payment later. Since the
  // 'bank-pending-limit' patch it is asked at doubling intervals, and a payment the bank still
  // holds "in progress" after the limit fails (the PSP reverses what it never confirmed).
  if (bankProtocol && payment.status === 'pending' && generation.has('bank-pending-limit')) {
    // The bank's time, not the payment's clock: advancing a test payment's clock asks the bank
    // sooner but does not make the bank's answer late.
    const giveUpAt = Date.now() + (input.bank_pending_limit_ms ?? BANK_PENDING_LIMIT_DEFAULT_MS);
    let interval = Math.max(input.sandbox_delay_ms, 1_000); // never a busy loop of confirm calls
    while (payment.status === 'pending') {
      const wait = Math.min(interval, Math.max(0, giveUpAt - Date.now()));
      await waitUntil(new Date(clockNow() + wait).toISOString(), () => payment.status !== 'pending');
      interval = Math.min(interval * 2, BANK_PENDING_MAX_INTERVAL_MS);
      await exclusive(async () => {
        if (payment.status === 'pending' && pendingRef !== undefined) await confirmAtBank(pendingRef);
        if (payment.status === 'pending' && Date.now() >= giveUpAt) {
          await commit({ ...payment, status: 'failed', failure: { code: 'bank_unconfirmed', message: 'The bank did not confirm the payment in time; it returns the money to the customer.' } });
        }
      });
    }
  }
  while (bankProtocol && payment.status === 'pending') {
    await waitUntil(new Date(clockNow() + input.sandbox_delay_ms).toISOString(), () => payment.status !== 'pending');
    await exclusive(async () => {
      if (payment.status === 'pending' && pendingRef !== undefined) await confirmAtBank(pendingRef);
    });
  }
  if (!bankProtocol && payment.status === 'pending') {
    if (merchantApi) await waitUntil(new Date(clockNow() + input.sandbox_delay_ms).toISOString(), () => payment.status !== 'pending');
    else await sleep(input.sandbox_delay_ms);
    await exclusive(async () => {
      if (payment.status === 'pending') await markPaid();
    });
  }

  // 3. Paid: the merchant must verify before the deadline, or the money goes back.
  if (payment.status === 'paid') {
    const verified = await waitUntil(payment.verify_deadline_at ?? now(), () => payment.status !== 'paid');
    if (!verified) {
      await exclusive(async () => {
        if (payment.status === 'paid') await reverse();
      });
    }
  }

  // 4. Verified, on the first type: refunds are taken until the refund window closes or everything
  // is refunded. Payments whose history ended at verify, before refunds existed, replay without a
  // refund window; the second type ends here, its refunds taken by the refunds workflow.
  if (!shortLived && payment.verified_at !== null && generation.has('refund-window')) {
    const windowEnd = new Date(Date.parse(payment.verified_at) + input.refund_window_ms).toISOString();
    await waitUntil(windowEnd, () => payment.status === 'refunded' && !refunds.pending());
    refundWindowOpen = false;
    timersDone = true;
    await condition(allHandlersFinished);
    // Refunds taken before the window closed are still paid out and settled.
    await Promise.all(refunds.payouts);
  }

  timersDone = true;
  await condition(allHandlersFinished);
  return payment;
}
