/**
 * The life of each refund of a payment, one at a time (docs/PAYMENTS.md#refunds):
 * reserved, paid out at the bank, settled. The refunds workflow
 * (workflows/refunds.ts) owns the state, the lock and the activities it is
 * given through RefundOwner. The commands it issues, and their order, are
 * part of every refund's history: a change here must keep the committed
 * histories replaying.
 */
import { ActivityFailure, ApplicationFailure, isCancellation } from '@temporalio/workflow';
import { isPositiveAmount, NOT_A_POSITIVE_AMOUNT } from '../src/domain/payment.ts';
import type { RefundRequest } from '../src/domain/payment-workflow.ts';
import type { Payment } from '../src/domain/payment-schemas.ts';
import {
  refundableAmount,
  refundPayoutFailure,
  statusAfterRefunds,
  type RefundMethod,
  type RefundRefusal,
} from '../src/domain/refund.ts';
import type { Refund } from '../src/domain/refund-schemas.ts';
import { refusalFailure } from './failures.ts';

export interface RefundOwner {
  /** The payment as last recorded. */
  payment(): Payment;
  /** Whether a refund of `amount` (null: everything left) is refused now, and why. */
  refusal(amount: number | null): RefundRefusal | undefined;
  /**
   * How a refund of `amount` rials (resolved: everything left when the request gave none) reaches the
   * customer, by what the payment's PSP offers (src/domain/refund.ts refundMethod), or why it is refused.
   */
  method(request: RefundRequest, amount: number): Promise<Pick<Refund, 'method' | 'destination_iban'> | RefundRefusal>;
  /** Records a refund (and the payment's next state, unless null) in MySQL, then makes the payment's state visible. */
  record(refund: Refund, next: Payment | null): Promise<void>;
  /**
   * Pays the refund out (at the PSP, or by a transfer to its IBAN), retried until the bank answers;
   * throws when the bank refuses it. Answers the method that paid it when it is not the refund's own
   * (a reversal the PSP refused, paid to the IBAN given instead).
   */
  payOut(refund: Refund): Promise<RefundMethod | undefined>;
  /** Runs a step under the owner's lock, after the steps before it. */
  exclusive<T>(step: () => Promise<T>): Promise<T>;
  /** Now, as the refund's timestamps read it. */
  now(): string;
}

/** The check of a refund request that needs no state: a given amount is a positive integer. */
export function checkRefundRequest(request: RefundRequest): void {
  if (request.amount !== null && !isPositiveAmount(request.amount)) {
    throw refusalFailure(NOT_A_POSITIVE_AMOUNT);
  }
}

export class RefundBook {
  /** Every refund taken here, by id, as last recorded. */
  readonly taken = new Map<string, Refund>();
  /** Each taken refund's way to its final status (the bank's answer, then the record). */
  readonly payouts: Promise<void>[] = [];

  constructor(private readonly owner: RefundOwner) {}

  /** Whether a refund taken here still waits for the bank's answer. */
  pending(): boolean {
    return [...this.taken.values()].some((r) => r.status === 'pending');
  }

  /**
   * Takes a refund (under the owner's lock): its amount counts as refunded
   * from the moment it is recorded `pending`, so refunds taken one at a time
   * can never add up to more than was paid. The bank is paid out afterwards.
   */
  async reserve(request: RefundRequest): Promise<Refund> {
    const known = this.taken.get(request.refund_id);
    if (known !== undefined) return known; // the same request again (a retry with its Idempotency-Key)
    const refusal = this.owner.refusal(request.amount);
    if (refusal !== undefined) throw refusalFailure(refusal);
    const payment = this.owner.payment();
    const amount = request.amount ?? refundableAmount(payment);
    const way = await this.owner.method(request, amount);
    if ('code' in way) throw refusalFailure(way);
    const refund: Refund = {
      id: request.refund_id,
      payment_id: payment.id,
      amount,
      status: 'pending',
      reason: request.reason,
      created_at: this.owner.now(),
      succeeded_at: null,
      failure: null,
      method: way.method,
      destination_iban: way.destination_iban,
    };
    const refunded = payment.refunded_amount + amount;
    await this.commit(refund, { ...payment, refunded_amount: refunded, status: statusAfterRefunds(payment, refunded) });
    this.payouts.push(this.payOut(refund));
    return refund;
  }

  /**
   * A refund an earlier run recorded `pending` and never saw answered (its
   * run ended, or its worker died after the record and before the run went
   * on): paid out here, under the same refund id, so the bank pays it once.
   * A refund already final is only answered.
   */
  resume(recorded: Refund): Refund {
    const known = this.taken.get(recorded.id);
    if (known !== undefined) return known;
    if (recorded.status !== 'pending') return recorded;
    this.taken.set(recorded.id, recorded);
    this.payouts.push(this.payOut(recorded));
    return recorded;
  }

  private async commit(refund: Refund, next: Payment | null): Promise<void> {
    await this.owner.record(refund, next);
    this.taken.set(refund.id, refund);
  }

  /** Asks the bank (retried until it answers) and settles the refund with its answer. */
  private async payOut(refund: Refund): Promise<void> {
    let settled: Refund;
    try {
      const paidBy = await this.owner.payOut(refund);
      settled = {
        ...refund,
        ...(paidBy === undefined ? {} : { method: paidBy }),
        status: 'succeeded',
        succeeded_at: this.owner.now(),
      };
    } catch (error) {
      if (isCancellation(error)) throw error;
      const cause = error instanceof ActivityFailure ? error.cause : error;
      const code = cause instanceof ApplicationFailure && typeof cause.type === 'string' ? cause.type : 'refund_failed';
      settled = { ...refund, status: 'failed', failure: refundPayoutFailure(code) };
    }
    await this.owner.exclusive(() => this.finish(settled));
  }

  /**
   * The one place where a refund reaches its final status (`succeeded` or
   * `failed`): the refund.succeeded / refund.failed events belong here.
   * A failed refund gives its amount back to the payment.
   */
  private async finish(settled: Refund): Promise<void> {
    if (settled.status === 'succeeded') return this.commit(settled, null);
    const payment = this.owner.payment();
    const refunded = payment.refunded_amount - settled.amount;
    await this.commit(settled, {
      ...payment,
      refunded_amount: refunded,
      status: statusAfterRefunds(payment, refunded),
    });
  }
}
