/**
 * A refund, recorded (activities/records.ts): the refund and, when it changes, the payment's next
 * version, with their ledger postings and events, in one transaction, a live refund held for the
 * operator when the merchant's balance would go below zero (docs/LEDGER.md#refunds-and-the-balance).
 * Called by the refunds workflow alone; apart from the transitions because a refund moves the
 * balance and a split payment's shares, and the CHECK on payments.refunded_amount may refuse it.
 */
import { ApplicationFailure } from '@temporalio/common';
import { isCheckViolation } from '../../src/db/errors.ts';
import { recordEvent, type StoredEvent } from '../../src/db/events.ts';
import { hasPosting, post } from '../../src/db/ledger.ts';
import { allocateRefundToShares, returnRefundToShares } from '../../src/db/splits.ts';
import { writePaymentVersion } from '../../src/db/payments.ts';
import { lockedMerchantBalance, lockRefundStatus, writeRefund } from '../../src/db/refunds.ts';
import { paymentEventType, type EventType } from '../../src/domain/events.ts';
import { tenantOf, type KeyMode } from '../../src/domain/merchant.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import { refunds as refundOutcomes } from '../../src/observability/metrics.ts';
import { countTransition, lockForWrite, recordPaymentEvent, withMetadata } from './versions.ts';
import type { RecordActivityDependencies, RecordWriteKit, Shown } from './versions.ts';

export interface RecordRefundInput {
  refund: Refund;
  merchant_id: string;
  mode: KeyMode;
  /** The payment's next version when the refund changes it (reserved or given back), else null. */
  payment: { payment: Payment; version: number } | null;
  /**
   * Whether a refund whose amount this write takes from the merchant's balance is held for the operator's
   * approval instead (`awaiting_approval`, held_for `balance`) when the balance would go below zero
   * (docs/LEDGER.md#refunds-and-the-balance). Absent in the writes of runs from before it: never held.
   * Only a live refund is checked: test mode moves no money.
   */
  within_balance?: boolean;
}

/** What recordRefund recorded: the refund's status, which the balance check may have turned into a hold. */
export interface RecordedRefund {
  status: Refund['status'];
  held_for: Refund['held_for'];
}

const REFUND_MOVEMENTS = { pending: 'refund', succeeded: 'refund_succeeded', failed: 'refund_failed' } as const;

/** The posting a refund's status makes: its amount leaves the balance once, named `pending`, whether it then waits for its payer or is paid out. */
const postedStatus = (status: Refund['status']): keyof typeof REFUND_MOVEMENTS =>
  status === 'awaiting_payer' || status === 'awaiting_approval' ? 'pending' : status;

export function refundRecordActivities(
  { db, logger }: Pick<RecordActivityDependencies, 'db' | 'logger'>,
  { guard, dispatch }: RecordWriteKit,
) {
  return {
    /**
     * Writes a refund and, when it changes, the payment's next version, in
     * one transaction. The CHECK on payments.refunded_amount refuses any
     * write that would refund more than was paid.
     */
    async recordRefund({
      refund: asked,
      merchant_id,
      mode,
      payment,
      within_balance,
    }: RecordRefundInput): Promise<RecordedRefund> {
      let refund = asked;
      const owner = tenantOf(merchant_id, mode);
      let events: StoredEvent[];
      // Whether this write ends the refund (counted once, like transitions).
      let ends = false;
      let paymentFrom: string | undefined;
      try {
        events = await db.transaction().execute(async (trx) => {
          const at = new Date();
          await guard.read(trx, 'recordRefund', {
            payment_id: refund.payment_id,
            mode,
            merchant_id,
            amount: payment?.payment.amount,
          });
          // The refund's row locked first: its status now decides what this write moves.
          const before = await lockRefundStatus(trx, refund.id);
          if (refund.status === 'succeeded' || refund.status === 'failed') ends = before?.status !== refund.status;
          // Its amount leaves the merchant's balance with the posting `refund:<id>:pending`, once: at
          // `awaiting_payer` or `pending`, never while it waits for the operator (nothing has moved then).
          const reserving = refund.status === 'pending' || refund.status === 'awaiting_payer';
          const reserved = await hasPosting(trx, `refund:${refund.id}:pending`);
          // Live mode only: test mode moves no money, so its refunds are never held for the balance.
          if (within_balance === true && mode === 'live' && reserving && !reserved) {
            // The merchant's row locked, then its balance read, in this transaction: concurrent refunds of one
            // merchant are decided one after the other, each on what the other left.
            const balance = await lockedMerchantBalance(trx, merchant_id, mode);
            if (balance - refund.amount < 0) refund = { ...refund, status: 'awaiting_approval', held_for: 'balance' };
          }
          const recorded: StoredEvent[] = [];
          let paymentEvent: { shown: Shown; version: number; type: EventType } | undefined;
          if (payment !== null) {
            const locked = await lockForWrite(trx, guard, 'recordRefund', payment.payment, payment.version);
            paymentFrom = locked?.from;
            const stored = await writePaymentVersion(trx, payment.payment, payment.version, at);
            if (!stored)
              throw ApplicationFailure.retryable(
                `payment ${refund.payment_id} has no row for version ${payment.version}`,
                'payment_row_missing',
              );
            // payment.partially_refunded / payment.refunded; a failed refund's way back to `verified` is told by refund.failed.
            const type = payment.payment.status === 'verified' ? undefined : paymentEventType(payment.payment.status);
            if (type !== undefined)
              paymentEvent = {
                shown: locked?.shown ?? (await withMetadata(trx, payment.payment)),
                version: payment.version,
                type,
              };
          }
          await writeRefund(trx, refund, owner, at);
          const posts = refund.status === 'pending' || refund.status === 'awaiting_payer' || reserved;
          // A split payment's refund: the merchant's share first, then its beneficiaries' (docs/LEDGER.md#refunds-of-a-split-payment).
          const fromShares = !posts
            ? 0
            : refund.status === 'pending' || refund.status === 'awaiting_payer'
              ? await allocateRefundToShares(trx, refund)
              : refund.status === 'failed'
                ? await returnRefundToShares(trx, refund.id)
                : 0;
          // The payment's event after the shares took their part of the refund: its splits' `refunded` say what this refund took.
          if (paymentEvent !== undefined)
            recorded.push(
              await recordPaymentEvent(trx, paymentEvent.shown, paymentEvent.version, paymentEvent.type, at),
            );
          // A refund that never left the balance (rejected while it waited for the operator) posts nothing.
          if (posts)
            await post(trx, {
              cause: `refund:${refund.id}:${postedStatus(refund.status)}`,
              movement: REFUND_MOVEMENTS[postedStatus(refund.status)],
              merchantId: merchant_id,
              mode,
              amount: refund.amount,
              splits: fromShares,
              paymentId: refund.payment_id,
              refundId: refund.id,
              at,
            });
          // A refund's first record and its final status are events (refund.created / .succeeded / .failed),
          // in the same transaction; the steps between (approved, claimed) are not.
          const final = refund.status === 'succeeded' || refund.status === 'failed';
          if (final || before === undefined)
            recorded.push(
              await recordEvent(trx, {
                sourceKey: `refund:${refund.id}:${final ? refund.status : 'pending'}`,
                owner,
                type:
                  refund.status === 'succeeded'
                    ? 'refund.succeeded'
                    : refund.status === 'failed'
                      ? 'refund.failed'
                      : 'refund.created',
                objectId: refund.id,
                data: { refund },
                at,
              }),
            );
          return recorded;
        });
      } catch (error) {
        if (isCheckViolation(error)) {
          throw ApplicationFailure.nonRetryable(
            'the record refuses a refund of more than was paid',
            'refund_exceeds_amount',
          );
        }
        throw error;
      }
      if (ends) refundOutcomes.inc({ outcome: refund.status, mode });
      if (payment !== null) countTransition(paymentFrom, payment.payment);
      logger.info(
        { payment_id: refund.payment_id, refund_id: refund.id, status: refund.status, amount: refund.amount },
        'refund recorded',
      );
      await dispatch(events);
      return { status: refund.status, held_for: refund.held_for ?? null };
    },
  };
}
