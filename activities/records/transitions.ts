/**
 * A payment's transitions, recorded (activities/records.ts): each version the payment workflow
 * decides is written with its ledger posting and its event in one transaction, keyed by the version,
 * so a stale, retried or replayed write changes nothing, then the event is handed to its deliveries.
 * A refund, and the payment's version it changes, is written by refunds.ts instead.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../src/db/database.ts';
import { post } from '../../src/db/ledger.ts';
import { splitAmountOf } from '../../src/db/splits.ts';
import { writePaymentVersion } from '../../src/db/payments.ts';
import { paymentEventType } from '../../src/domain/events.ts';
import { transitionMovement } from '../../src/domain/ledger.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { countTransition, lockForWrite, recordPaymentEvent, withMetadata } from './versions.ts';
import type { RecordActivityDependencies, RecordWriteKit, Shown } from './versions.ts';

/** The ledger posting of a payment's recorded transition (capture, verify, reversal), once per payment and movement. */
async function postTransition(trx: Db, { payment, merchantId }: Shown, at: Date): Promise<void> {
  const movement = transitionMovement(payment.status);
  if (movement === undefined) return;
  await post(trx, {
    cause: `payment:${payment.id}:${movement}`,
    movement,
    merchantId,
    mode: payment.mode,
    // What the customer was charged: a customer-pays payment's fee is part of what is held, and of what goes back.
    amount: payment.charged_amount,
    fee: payment.fee,
    // A split payment's shares go to its beneficiaries' payable at verify (docs/LEDGER.md#split-settlement).
    splits: movement === 'verify' ? await splitAmountOf(trx, payment.id) : 0,
    paymentId: payment.id,
    at,
  });
}

export function transitionActivities(
  { db, logger }: Pick<RecordActivityDependencies, 'db' | 'logger'>,
  { guard, dispatch }: RecordWriteKit,
) {
  return {
    /** Writes a transition and its event; a stale or repeated write changes nothing. Then starts the event's deliveries. */
    async recordTransition({ payment, version }: { payment: Payment; version: number }): Promise<void> {
      let from: string | undefined;
      const event = await db.transaction().execute(async (trx) => {
        const now = new Date();
        const locked = await lockForWrite(trx, guard, 'recordTransition', payment, version);
        from = locked?.from;
        const stored = await writePaymentVersion(trx, payment, version, now);
        if (!stored) return undefined;
        // Written before (a retry or a replay): read the record as it stands.
        const shown = locked?.shown ?? (await withMetadata(trx, payment));
        await postTransition(trx, shown, now);
        const type = paymentEventType(payment.status, payment.failure?.code);
        if (type === undefined) return null;
        return recordPaymentEvent(trx, shown, version, type, now);
      });
      if (event !== undefined) countTransition(from, payment);
      if (event === undefined) {
        // The create endpoint inserts the row before it starts the workflow; retry until it is visible.
        throw ApplicationFailure.retryable(
          `payment ${payment.id} has no row to record version ${version}`,
          'payment_row_missing',
        );
      }
      logger.info({ payment_id: payment.id, status: payment.status, version }, 'payment transition recorded');
      if (event !== null) await dispatch([event]);
    },
  };
}
