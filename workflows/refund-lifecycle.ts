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
import type { RefundDecision, RefundRequest } from '../src/domain/payment-workflow.ts';
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
  method(
    request: RefundRequest,
    amount: number,
  ): Promise<
    (Pick<Refund, 'method' | 'destination_iban'> & Partial<Pick<Refund, 'status' | 'held_for'>>) | RefundRefusal
  >;
  /**
   * Records a refund (and the payment's next state, unless null) in MySQL, then makes the payment's state
   * visible. `withinBalance`: a refund that takes its amount from the merchant's balance now is held for
   * the operator instead when the balance would go below zero. Answers the status recorded (undefined:
   * as asked; a run from before the balance check).
   */
  record(
    refund: Refund,
    next: Payment | null,
    withinBalance?: boolean,
  ): Promise<Pick<Refund, 'status' | 'held_for'> | undefined>;
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

/** The check of a decision that needs no state: a claim names a Sheba IBAN and an owner, a rejection a reason. */
export function checkRefundDecision(decision: RefundDecision): void {
  if (decision.decision === 'claim') {
    if (!/^IR[0-9]{24}$/.test(decision.payee.iban) || decision.payee.owner_name.trim() === '')
      throw refusalFailure({
        code: 'validation_failed',
        message: 'A claim names the Sheba IBAN and owner of the paying card.',
      });
  }
  if (decision.decision === 'reject' && decision.reason.trim() === '')
    throw refusalFailure({ code: 'validation_failed', message: 'A rejection gives its reason.' });
}

export class RefundBook {
  /** Every refund taken here, by id, as last recorded. */
  readonly taken = new Map<string, Refund>();
  /** Each taken refund's way to its final status (the bank's answer, then the record). */
  readonly payouts: Promise<void>[] = [];
  private readonly owner: RefundOwner;

  constructor(owner: RefundOwner) {
    this.owner = owner;
  }

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
    // A run under the patch `refunds-to-payer` names the first status (and asks for the balance check);
    // older runs recorded every refund `pending`, as their histories replay.
    const toPayer = way.status !== undefined;
    const refund: Refund = {
      id: request.refund_id,
      payment_id: payment.id,
      amount,
      status: way.status ?? 'pending',
      reason: request.reason,
      created_at: this.owner.now(),
      succeeded_at: null,
      failure: null,
      method: way.method,
      destination_iban: way.destination_iban,
      ...(toPayer ? { held_for: way.held_for ?? null, owner_name: null } : {}),
    };
    // Its amount is reserved on the payment from its first status on, whether it is paid now or waits.
    const refunded = payment.refunded_amount + amount;
    // The balance check: every refund whose amount leaves the merchant's balance, but a reversal of the whole
    // payment, which the PSP undoes before it pays the gateway for it (docs/LEDGER.md#refunds-and-the-balance).
    const taken = await this.commit(
      refund,
      { ...payment, refunded_amount: refunded, status: statusAfterRefunds(payment, refunded) },
      toPayer && refund.method !== 'reversal',
    );
    if (taken.status === 'pending') this.payouts.push(this.payOut(taken));
    return taken;
  }

  /**
   * A decision on a refund that waits (recorded by this run or an earlier one), under the owner's lock:
   * the operator's approval pays it out (or, for one to the payer's card held for the balance, lets it wait
   * for its payer), the operator's rejection fails it and gives its amount back, and the customer's claim
   * names the paying card's account and pays it there. Only forward: a decision the refund no longer
   * waits for is refused (`refund_not_awaiting`), except the same decision again, answered with the
   * refund as it is.
   */
  async decide(recorded: Refund, decision: RefundDecision): Promise<Refund> {
    const refund = this.taken.get(recorded.id) ?? recorded;
    // The operator may also reject a refund that waits for its payer (a customer who never claims it): its
    // amount goes back to the merchant's balance, as a rejection of one held for approval makes it refundable.
    const waitsFor: Refund['status'][] =
      decision.decision === 'claim'
        ? ['awaiting_payer']
        : decision.decision === 'reject'
          ? ['awaiting_approval', 'awaiting_payer']
          : ['awaiting_approval'];
    if (!waitsFor.includes(refund.status)) {
      const done =
        (decision.decision === 'approve' &&
          refund.held_for !== undefined &&
          refund.held_for !== null &&
          refund.status !== 'failed') ||
        (decision.decision === 'reject' && refund.status === 'failed' && refund.failure?.code === 'refund_rejected') ||
        (decision.decision === 'claim' &&
          refund.method === 'payer_card' &&
          refund.status !== 'awaiting_approval' &&
          refund.status !== 'failed');
      if (done) return refund;
      throw refusalFailure({
        code: 'refund_not_awaiting',
        message: `The refund is ${refund.status}; it does not wait for ${decision.decision === 'claim' ? 'its payer' : "the operator's approval"}.`,
      });
    }
    if (decision.decision === 'reject') {
      const rejected: Refund = {
        ...refund,
        status: 'failed',
        failure: { code: 'refund_rejected', message: `Rejected by the operator: ${decision.reason}` },
      };
      await this.finish(rejected);
      return rejected;
    }
    if (decision.decision === 'approve') {
      // Approved: what the balance did not cover is the operator's decision; a refund to the payer's card now waits for its payer.
      const next: Refund = { ...refund, status: refund.method === 'payer_card' ? 'awaiting_payer' : 'pending' };
      const taken = await this.commit(next, null);
      if (taken.status === 'pending') this.payouts.push(this.payOut(taken));
      return taken;
    }
    const claimed: Refund = {
      ...refund,
      status: 'pending',
      destination_iban: decision.payee.iban,
      owner_name: decision.payee.owner_name,
    };
    const taken = await this.commit(claimed, null);
    this.payouts.push(this.payOut(taken));
    return taken;
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

  private async commit(refund: Refund, next: Payment | null, withinBalance = false): Promise<Refund> {
    const recorded = await this.owner.record(refund, next, withinBalance);
    // The balance check may have held it for the operator instead.
    const taken = recorded === undefined ? refund : { ...refund, status: recorded.status, held_for: recorded.held_for };
    this.taken.set(refund.id, taken);
    return taken;
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
    if (settled.status === 'succeeded') {
      await this.commit(settled, null);
      return;
    }
    const payment = this.owner.payment();
    const refunded = payment.refunded_amount - settled.amount;
    await this.commit(settled, {
      ...payment,
      refunded_amount: refunded,
      status: statusAfterRefunds(payment, refunded),
    });
  }
}
