/**
 * The customer at the bank and back (docs/BANK.md): the token for the
 * bank's page (asked in bank-token.ts, kept here), the bank's callback when the customer returns, never trusted,
 * and the bank's own confirmation, the only thing that pays a payment, as
 * its own answer to an inquiry is the only thing that fails or cancels one;
 * a payment the bank keeps "in progress" is asked about again, at doubling
 * intervals, until the pending limit.
 */
import { deprecatePatch, isCancellation, patched } from '@temporalio/workflow';
import {
  BANK_REFERENCE_PATTERN,
  isGenuineConfirmation,
  MASKED_CARD_PAN_PATTERN,
  RRN_PATTERN,
  type ConfirmedAtBank,
} from '../src/domain/bank-confirmation.ts';
import { confirmationRefusalReason } from '../src/domain/confirmation-refusal.ts';
import { CAPTURE } from '../src/domain/capture.ts';
import { chargedAmount, PAYMENT_FAILURES } from '../src/domain/payment.ts';
import {
  BANK_PENDING_LIMIT_DEFAULT_MS,
  BANK_PENDING_MAX_INTERVAL_MS,
  type BankCallback,
  type BankTokenInput,
  type BankTokenResult,
  type PaymentWorkflowInput,
} from '../src/domain/payment-workflow.ts';
import type { PaymentClock } from './payment-clock.ts';
import { refusalFailure } from './failures.ts';
import type { PaymentState } from './payment-state.ts';
import { bankCalls, bankConfirmOnReturn, bankInquiryOnReturn, pspCapabilitiesOf } from './proxies.ts';
import { askBankToken, type PspCapabilitiesAnswer } from './bank-token.ts';
import {
  ASK_BANK_ON_FAILED_RETURN_PATCH,
  CARD_RESTRICTION_PATCH,
  CUSTOMER_PAYS_FEE_PATCH,
  LATE_RETURN_PATCH,
  PSP_CAPABILITIES_PATCH,
  REFUSED_CONFIRMATION_PATCH,
  SIGNED_RETURN_PATCH,
} from './patches.ts';
import { reverseLateReturn } from './late-return.ts';
import { ENDED_UNPAID } from '../src/domain/late-return.ts';

/**
 * What the bank charges for the workflow's payment: see CUSTOMER_PAYS_FEE_PATCH (the lifecycle workflow's
 * marker; the flow workflow has none, `flow`). Called once, as the workflow starts.
 */
export function amountAtBank({ payment }: PaymentWorkflowInput, flow: boolean): number {
  if (payment.fee_payer !== 'customer') return payment.amount;
  if (!flow) deprecatePatch(CUSTOMER_PAYS_FEE_PATCH);
  return chargedAmount(payment);
}

const BANK_REFERENCE = new RegExp(BANK_REFERENCE_PATTERN);
const RRN = new RegExp(RRN_PATTERN);
const MASKED_CARD_PAN = new RegExp(MASKED_CARD_PAN_PATTERN);
/** A bank's value kept on the record only in the shape the payment resource allows (payment-schemas.ts). */
const shaped = (value: string | null, pattern: RegExp): string | null =>
  value !== null && pattern.test(value) ? value : null;

export class BankReturn {
  /** The bank's token for this payment's page, once asked for. */
  private token: BankTokenResult | undefined;
  /** The bank's reference (RefNum) of a payment whose confirmation is pending. */
  private pendingRef: string | undefined;
  /** The payment's PSP's capabilities, once read (PSP_CAPABILITIES_PATCH). */
  private offered: PspCapabilitiesAnswer | undefined;
  private readonly state: PaymentState;
  private readonly clock: PaymentClock;
  private readonly input: PaymentWorkflowInput;
  readonly charged: number;
  /**
   * The payment flow workflow's (payment.ts): every branch a patch of the lifecycle workflow chose is
   * taken with no marker, and the token is one local activity (bankTokenOnRoute).
   */
  private readonly flow: boolean;

  constructor(
    state: PaymentState,
    clock: PaymentClock,
    input: PaymentWorkflowInput,
    /** What the bank charges the customer (amountAtBank). */
    charged: number,
    flow: boolean,
  ) {
    this.state = state;
    this.clock = clock;
    this.input = input;
    this.charged = charged;
    this.flow = flow;
  }

  /**
   * What the payment's PSP offers: asked of the bank activity once (a local activity, so the answer is
   * in the history and replays), then kept. Callers ask only under PSP_CAPABILITIES_PATCH.
   */
  async capabilities(): Promise<PspCapabilitiesAnswer> {
    this.offered ??= await pspCapabilitiesOf.pspCapabilities(this.state.atBank());
    return this.offered;
  }

  /**
   * Whether the merchant's verify (or a payment link's) must still capture at the PSP (settle): not
   * where the PSP's verify at the return captured already. Where capture is `merchant_verify` (Sadad),
   * the "settle" is the PSP's verify itself, asked only now. Histories recorded before the patch settle.
   */
  async settlesAtVerify(): Promise<boolean> {
    if (!(this.flow || patched(PSP_CAPABILITIES_PATCH))) return true;
    const { capture } = await this.capabilities();
    return CAPTURE[capture].callsPspAtMerchantVerify;
  }

  /**
   * Whether the payment's PSP verifies only at the merchant's verify (capture `merchant_verify`:
   * docs/PAYMENTS.md#capture-at-verify-or-at-settle), as settlesAtVerify read it: from the capabilities
   * already in the history, never a new call, so no history that did not read them takes a new step.
   */
  verifiesAtMerchantVerify(): boolean {
    return this.offered !== undefined && CAPTURE[this.offered.capture].verifiesOnlyAtMerchantVerify;
  }

  /** The customer may still pay: nobody has answered and the page has not expired. */
  payable(): boolean {
    const { payment } = this.state;
    return payment.status === 'created' && this.clock.nowMs() < Date.parse(payment.expires_at);
  }

  /** The bank's token for the customer's way to its page: asked once, the same again on a repeat. */
  async requestToken({ redirect_url }: BankTokenInput): Promise<BankTokenResult> {
    const { payment } = this.state;
    if (!this.payable())
      throw refusalFailure({
        code: 'payment_not_payable',
        message: `The payment is ${payment.status}; it can no longer be paid.`,
      });
    if (this.token !== undefined) return this.token;
    const { token, offered } = await askBankToken(
      { state: this.state, input: this.input, charged: this.charged, flow: this.flow },
      redirect_url,
    );
    this.token = token;
    if (offered !== undefined) this.offered = offered;
    return token;
  }

  /**
   * The bank's callback, never trusted: it must carry this payment's id and the token we were given,
   * and only the bank's own answer to confirm (the right amount, terminal and payment) pays. A
   * return that carries no token at all is SEP's form post as its integrations read it
   * (docs/psps/sep.md#the-return): judged by the payment's id alone here, and by SEP's verify of its
   * RefNum. No history holds such a callback from before (the connectors refused a token-less
   * return), so the rule needs no patch.
   *
   * Only a return of the payment's own bank session may end it (failed, canceled): one that came to the
   * session's signed return address (`signed`, checked by the API) or carries the session's PSP token
   * (SIGNED_RETURN_PATCH; docs/SECURITY.md, "A stranger ends a payment"). Any other return may still pay,
   * since only the PSP's confirmation pays and the sale's claim decides whose sale it is.
   *
   * A paid return for a payment already ended (canceled, expired, failed) is confirmed and reversed at
   * the PSP (LATE_RETURN_PATCH; late-return.ts): money the PSP took is never left without a record.
   */
  async applyCallback(callback: BankCallback): Promise<void> {
    const { payment } = this.state;
    if (this.token === undefined) return;
    if ((callback.token !== '' && callback.token !== this.token.token) || callback.res_num !== payment.id) return; // not this payment's session at the bank
    if (!this.payable()) {
      if (
        callback.state === 'OK' &&
        callback.ref_num !== '' &&
        (ENDED_UNPAID as readonly string[]).includes(payment.status)
      ) {
        if (!this.flow) deprecatePatch(LATE_RETURN_PATCH);
        await reverseLateReturn(this.state.atBank(), callback.ref_num);
      }
      return;
    }
    // The token, where the PSP posts one, is the session's (checked above).
    const ofSession = callback.signed === true || callback.token !== '';
    if (callback.state !== 'OK' && !ofSession) {
      if (!this.flow) deprecatePatch(SIGNED_RETURN_PATCH);
      return;
    }
    if (callback.state !== 'OK') {
      if (!this.flow) deprecatePatch(ASK_BANK_ON_FAILED_RETURN_PATCH);
      return this.recordBankRefusal(callback);
    }
    await this.confirm(callback.ref_num, ofSession);
  }

  /**
   * A return that says the customer did not pay: the bank is asked, and the payment is failed or
   * canceled only when the bank says so. Otherwise it stays as it is: still open at the bank (or the
   * return forged, or the bank silent), the customer may still pay until it expires; paid at the
   * bank, only the genuine return's RefNum, confirmed, pays it, and a paid transaction nobody
   * confirms is reversed by the bank itself, so believing the inquiry's "succeeded" gains nothing.
   */
  private async recordBankRefusal(callback: BankCallback): Promise<void> {
    const { payment } = this.state;
    let standing: string;
    // A PSP with no inquiry (SEP) cannot be asked, and a return that names no transaction of the PSP's
    // (Behpardakht's canceled or failed return carries no SaleReferenceId: no sale was made) gives it
    // nothing to find: the return of this payment's own bank session (its id, and its token where the
    // PSP posts one, checked above) is recorded as it says. A forged one can only end a payment its
    // forger holds the page of, and a customer who pays after it is not charged: the PSP gives back by
    // itself any sale nobody verifies (docs/SECURITY.md, docs/BANK.md#a-failed-or-canceled-return).
    if (this.flow || patched(PSP_CAPABILITIES_PATCH)) {
      let inquiry: boolean;
      try {
        ({ inquiry } = await this.capabilities());
      } catch (error) {
        if (isCancellation(error)) throw error;
        return;
      }
      if (!inquiry || callback.ref_num === '') {
        if (callback.state === 'CanceledByUser')
          return this.state.commit({ ...payment, status: 'canceled', failure: PAYMENT_FAILURES.canceledByCustomer });
        return this.state.commit({ ...payment, status: 'failed', failure: PAYMENT_FAILURES.declined });
      }
    }
    try {
      // The return's reference and token: a PSP that finds a sale by them (Behpardakht, by SaleReferenceId).
      ({ standing } = await bankInquiryOnReturn.inquireAtBank({
        ...this.state.atBank(),
        ref_num: callback.ref_num,
        token: callback.token,
      }));
    } catch (error) {
      if (isCancellation(error)) throw error;
      return;
    }
    if (standing === 'canceled')
      return this.state.commit({ ...payment, status: 'canceled', failure: PAYMENT_FAILURES.canceledByCustomer });
    if (standing === 'failed')
      return this.state.commit({ ...payment, status: 'failed', failure: PAYMENT_FAILURES.declined });
  }

  /**
   * Asks the bank about `refNum`; pays, keeps pending, or (for a pending payment the bank refuses) fails
   * the payment. `ofSession`: the return was of the payment's own bank session (applyCallback), so it
   * may end the payment; a pending payment's recheck is.
   */
  private async confirm(refNum: string, ofSession = true): Promise<void> {
    const { payment } = this.state;
    // Asked within the workflow task first: the payment is recorded in the same task.
    const answer = await bankConfirmOnReturn.confirmAtBank({ ...this.state.atBank(), ref_num: refNum });
    if (answer.result === 'in_progress') {
      this.pendingRef = refNum;
      if (payment.status === 'created') await this.state.commit({ ...payment, status: 'pending' });
      return;
    }
    if (
      answer.result === 'confirmed' &&
      isGenuineConfirmation(answer, { id: payment.id, amount: this.charged }, refNum)
    ) {
      if (answer.card_allowed === false) {
        if (!this.flow) deprecatePatch(CARD_RESTRICTION_PATCH);
        return this.state.refuseCard(answer.ref_num, answer.rrn, answer.card_pan);
      }
      const paidAt = this.clock.nowMs();
      return this.state.commit({
        ...payment,
        status: 'paid',
        reference_id: answer.ref_num,
        rrn: answer.rrn,
        card_pan: answer.card_pan,
        paid_at: new Date(paidAt).toISOString(),
        verify_deadline_at: new Date(paidAt + this.input.verify_window_ms).toISOString(),
      });
    }
    if (answer.result === 'confirmed') {
      if (!this.flow) deprecatePatch(REFUSED_CONFIRMATION_PATCH);
      if (await this.refuseConfirmation(answer, refNum, ofSession)) return;
    }
    // The PSP holds no payment for a return that says nothing of its own (Asan Pardakht's): the customer
    // left its page without paying. Decided by the activity's recorded answer, so no patch: no history
    // holds such an answer from before.
    // Only a return of the session may end it (SIGNED_RETURN_PATCH): Asan Pardakht's return carries no
    // token, and any return, a stranger's included, is refused this way while the customer is on its page.
    if (answer.result === 'refused' && answer.standing === 'canceled' && payment.status === 'created') {
      if (!ofSession) {
        if (!this.flow) deprecatePatch(SIGNED_RETURN_PATCH);
        return;
      }
      return this.state.commit({ ...payment, status: 'canceled', failure: PAYMENT_FAILURES.canceledByCustomer });
    }
    // Not confirmed for this payment: a created payment stays payable; a pending one is refused by its bank.
    if (payment.status === 'pending')
      await this.state.commit({ ...payment, status: 'failed', failure: PAYMENT_FAILURES.notConfirmed });
  }

  /**
   * The PSP confirmed (its verify did the work) what the gateway refuses for this payment: the bank
   * activity reverses the sale at once (keyed by payment: a retry or a replay reverses once), counts it
   * and alerts, and only then is the payment recorded failed `confirmation_mismatch`, with the bank's
   * references where they have the shapes of a record. Answers false, leaving the payment as it is
   * (payable, or a pending one failed by the caller), when the sale is another payment's: the activity
   * does not reverse that, and this payment has no money of its own at the PSP. A return not of the
   * payment's bank session (`ofSession` false, SIGNED_RETURN_PATCH) ends nothing: the sale is reversed
   * all the same (counted and logged by the activity), and the payment stays payable.
   */
  private async refuseConfirmation(answer: ConfirmedAtBank, refNum: string, ofSession: boolean): Promise<boolean> {
    const { payment } = this.state;
    const reason = confirmationRefusalReason(answer, { id: payment.id, amount: this.charged }, refNum);
    const { reversal } = await bankCalls.reverseRefusedConfirmation({
      ...this.state.atBank(),
      ref_num: refNum,
      reason,
    });
    if (reversal === 'not_reversed') return false;
    if (!ofSession && this.state.payment.status === 'created') {
      if (!this.flow) deprecatePatch(SIGNED_RETURN_PATCH);
      return true;
    }
    await this.state.commit({
      ...payment,
      status: 'failed',
      failure: PAYMENT_FAILURES.confirmationMismatch,
      reference_id: shaped(refNum, BANK_REFERENCE),
      rrn: shaped(answer.rrn, RRN),
      card_pan: shaped(answer.card_pan, MASKED_CARD_PAN),
    });
    return true;
  }

  /**
   * "Delay in verification": the bank confirms a pending payment later. It is asked at doubling
   * intervals, and a payment the bank still holds "in progress" after the limit fails (the PSP
   * reverses what it never confirmed).
   */
  async awaitConfirmation(): Promise<void> {
    // The bank's time, not the payment's clock: advancing a test payment's clock asks the bank
    // sooner but does not make the bank's answer late.
    const giveUpAt = Date.now() + (this.input.bank_pending_limit_ms ?? BANK_PENDING_LIMIT_DEFAULT_MS);
    let interval = Math.max(this.input.sandbox_delay_ms, 1_000); // never a busy loop of confirm calls
    const pending = () => this.state.payment.status === 'pending';
    while (pending()) {
      const wait = Math.min(interval, Math.max(0, giveUpAt - Date.now()));
      await this.clock.waitUntil(this.clock.after(wait), () => !pending());
      interval = Math.min(interval * 2, BANK_PENDING_MAX_INTERVAL_MS);
      await this.state.exclusive(async () => {
        if (pending() && this.pendingRef !== undefined) await this.confirm(this.pendingRef);
        if (pending() && Date.now() >= giveUpAt)
          await this.state.commit({
            ...this.state.payment,
            status: 'failed',
            failure: PAYMENT_FAILURES.bankUnconfirmed,
          });
      });
    }
  }
}
