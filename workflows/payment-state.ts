/**
 * What the payment workflow holds (workflows/payment.ts): the payment as
 * last recorded, its version, and the lock under which each step runs, with
 * `commit`, the one way a step changes the payment: recorded in MySQL first,
 * then visible to queries and search (and `refuseCard`, the reversal of a card
 * the payment does not allow, then its failure: bank-return.ts confirm).
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { upsertSearchAttributes } from '@temporalio/workflow';
import { bankCallIdentityOf, type BankCallIdentity } from '../src/domain/bank-call.ts';
import type { Payment } from '../src/domain/payment-schemas.ts';
import { PAYMENT_FAILURES } from '../src/domain/payment.ts';
import { searchAttributes } from '../src/domain/payment-workflow.ts';
import { checkTransition, refusalFailure } from './failures.ts';
import { StepLock } from './lock.ts';
import { bankCalls, recordWrites } from './proxies.ts';

type SearchAttributeUpdates = SearchAttributeUpdatePair[];

const pspAttributes = (psp: NonNullable<Payment['psp']>): SearchAttributeUpdates => [
  { key: searchAttributes.psp, value: psp.name },
  { key: searchAttributes.pspTerminal, value: psp.terminal_id },
];

export class PaymentState {
  /** Runs one step at a time: bank answers, the merchant's Updates and the timers never interleave. */
  readonly lock = new StepLock();
  private version = 1;
  private current: Payment;
  readonly merchantId: string;
  /**
   * Search attributes that changed outside a transition (the PSP that took a payment flow workflow's
   * payment: tookPsp), written with the next transition's status, in one upsert.
   */
  private unwritten: SearchAttributeUpdates = [];

  constructor(current: Payment, merchantId: string) {
    this.current = current;
    this.merchantId = merchantId;
  }

  get payment(): Payment {
    return this.current;
  }

  /** Runs `step` under the lock, after the steps before it. */
  exclusive<T>(step: () => Promise<T>): Promise<T> {
    return this.lock.run(step);
  }

  /** Records the next state in MySQL, then makes it the visible state. */
  async commit(next: Payment): Promise<void> {
    checkTransition(this.current, next);
    await recordWrites.recordTransition({ payment: next, version: this.version + 1 });
    this.version += 1;
    this.current = next;
    upsertSearchAttributes([{ key: searchAttributes.status, value: next.status }, ...this.unwritten]);
    this.unwritten = [];
  }

  /**
   * The PSP terminal that gave the payment its token, recorded first (recordPaymentPsp): from now on
   * the payment is that PSP's, and searchable by it. Not a transition: the payment stays `created`.
   */
  async choosePsp(psp: NonNullable<Payment['psp']>): Promise<void> {
    const { id, mode, amount } = this.current;
    await recordWrites.recordPaymentPsp({ payment_id: id, mode, amount, psp: psp.name, terminal_id: psp.terminal_id });
    this.current = { ...this.current, psp };
    upsertSearchAttributes(pspAttributes(psp));
  }

  /**
   * The payment flow workflow's: the PSP terminal its token activity recorded (bankTokenOnRoute). Searchable
   * by it from the payment's next transition on, written in that transition's upsert (MySQL has it now).
   */
  tookPsp(psp: NonNullable<Payment['psp']>): void {
    this.current = { ...this.current, psp };
    this.unwritten = pspAttributes(psp);
  }

  /**
   * What every bank call of the payment names: the payment, its mode and the PSP that took it (none
   * for a payment whose workflow predates routing: the record's, or SEP, decides); a call about a
   * reference adds its `ref_num`.
   */
  atBank(): BankCallIdentity {
    return bankCallIdentityOf(this.current);
  }

  /** A bank call about the payment's recorded reference (a paid payment's settle or reverse). */
  atBankRecorded(): BankCallIdentity & { ref_num: string } {
    return { ...this.atBank(), ref_num: this.current.reference_id ?? '' };
  }

  /**
   * The bank confirmed a payment made with a card the merchant did not allow: the money goes back at
   * once (the reverse is keyed by payment at the bank, so a retry or a replay reverses once), and
   * only then is the payment recorded failed: a worker lost in between reverses on its successor.
   * The masked card and the bank's references stay on the record, for the merchant and support.
   */
  async refuseCard(refNum: string, rrn: string | null, cardPan: string | null): Promise<void> {
    const payment = this.current;
    await bankCalls.reverseAtBank({ ...this.atBank(), ref_num: refNum });
    await this.commit({
      ...payment,
      status: 'failed',
      failure: PAYMENT_FAILURES.cardNotAllowed,
      reference_id: refNum,
      rrn,
      card_pan: cardPan,
    });
  }

  /** Tells the merchant the payment exists (payment.created), once, before any change of it. */
  announce(): Promise<void> {
    return this.exclusive(() => recordWrites.announcePayment({ payment: this.current, merchant_id: this.merchantId }));
  }

  /** Refuses a test helper on a live payment. */
  testModeOnly(): void {
    if (this.current.mode !== 'test')
      throw refusalFailure({ code: 'test_mode_only', message: 'Test helpers work on test payments only.' });
  }
}
