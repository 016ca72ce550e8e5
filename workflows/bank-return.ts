/**
 * The customer at the bank and back (docs/BANK.md): the token for the
 * bank's page, the bank's callback when the customer returns, never trusted,
 * and the bank's own confirmation, the only thing that pays a payment;
 * a payment the bank keeps "in progress" is asked about again, at doubling
 * intervals, until the pending limit.
 */
import { isGenuineConfirmation } from '../src/domain/bank-confirmation.ts';
import { PAYMENT_FAILURES } from '../src/domain/payment.ts';
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
import { bankCallsAwaited, bankConfirmOnReturn } from './proxies.ts';

export class BankReturn {
  /** The bank's token for this payment's page, once asked for. */
  private token: BankTokenResult | undefined;
  /** The bank's reference (RefNum) of a payment whose confirmation is pending. */
  private pendingRef: string | undefined;

  constructor(
    private readonly state: PaymentState,
    private readonly clock: PaymentClock,
    private readonly input: PaymentWorkflowInput,
  ) {}

  /** The customer may still pay: nobody has answered and the page has not expired. */
  payable(): boolean {
    const { payment } = this.state;
    return payment.status === 'created' && this.clock.nowMs() < Date.parse(payment.expires_at);
  }

  /** The bank's token for the customer's way to its page: asked once, the same again on a repeat. */
  async requestToken({ redirect_url }: BankTokenInput): Promise<BankTokenResult> {
    const { payment } = this.state;
    if (!this.payable()) throw refusalFailure({ code: 'payment_not_payable', message: `The payment is ${payment.status}; it can no longer be paid.` });
    this.token ??= await bankCallsAwaited.requestBankToken({ payment_id: payment.id, mode: payment.mode, amount: payment.amount, redirect_url });
    return this.token;
  }

  /**
   * The bank's callback, never trusted: it must carry this payment's id and the token we were given,
   * and only the bank's own answer to confirm (the right amount, terminal and payment) pays.
   */
  async applyCallback(callback: BankCallback): Promise<void> {
    const { payment } = this.state;
    if (!this.payable() || this.token === undefined) return;
    if (callback.token !== this.token.token || callback.res_num !== payment.id) return; // not this payment's session at the bank
    if (callback.state === 'CanceledByUser') return this.state.commit({ ...payment, status: 'canceled', failure: PAYMENT_FAILURES.canceledByCustomer });
    if (callback.state !== 'OK') return this.state.commit({ ...payment, status: 'failed', failure: PAYMENT_FAILURES.declined });
    await this.confirm(callback.ref_num);
  }

  /** Asks the bank about `refNum`; pays, keeps pending, or (for a pending payment the bank refuses) fails the payment. */
  private async confirm(refNum: string): Promise<void> {
    const { payment } = this.state;
    // Asked within the workflow task first: the payment is recorded in the same task.
    const answer = await bankConfirmOnReturn.confirmAtBank({ payment_id: payment.id, mode: payment.mode, ref_num: refNum });
    if (answer.result === 'in_progress') {
      this.pendingRef = refNum;
      if (payment.status === 'created') await this.state.commit({ ...payment, status: 'pending' });
      return;
    }
    if (answer.result === 'confirmed' && isGenuineConfirmation(answer, payment, refNum)) {
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
    // Not confirmed for this payment: a created payment stays payable; a pending one is refused by its bank.
    if (payment.status === 'pending') await this.state.commit({ ...payment, status: 'failed', failure: PAYMENT_FAILURES.notConfirmed });
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
        if (pending() && Date.now() >= giveUpAt) await this.state.commit({ ...this.state.payment, status: 'failed', failure: PAYMENT_FAILURES.bankUnconfirmed });
      });
    }
  }
}
