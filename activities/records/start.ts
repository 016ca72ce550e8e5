/**
 * A payment's start, recorded (activities/records.ts): its creation announced (payment.created, the
 * first thing every payment workflow does, where one started with another payment's mode, amount or
 * merchant stops), and the PSP terminal that gave it its token, written before the customer is sent
 * there. Apart from the transitions because neither writes a version: the create endpoint wrote
 * version 1, and the PSP is written while the payment is `created` only.
 */
import { paymentRecordOf, setPaymentPspWhileCreated } from '../../src/db/payments.ts';
import type { KeyMode } from '../../src/domain/merchant.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import { recordPaymentEvent, shownFrom, type RecordActivityDependencies, type RecordWriteKit } from './versions.ts';

export function paymentStartActivities(
  { db }: Pick<RecordActivityDependencies, 'db'>,
  { guard, dispatch }: RecordWriteKit,
) {
  return {
    /** Records payment.created for a new payment (its version 1) and starts its deliveries. */
    async announcePayment({ payment, merchant_id }: { payment: Payment; merchant_id: string }): Promise<void> {
      // The first thing every payment workflow does: one started with another payment's mode, amount or merchant stops here.
      // One read serves the check and the event: the row's identity and what the event shows of the record.
      const row = guard.check(
        'announcePayment',
        { payment_id: payment.id, mode: payment.mode, amount: payment.amount, merchant_id },
        await paymentRecordOf(db, payment.id),
      );
      // The event's a single insert: no transaction needed.
      const event = await recordPaymentEvent(
        db,
        shownFrom(payment, row),
        1,
        'payment.created',
        new Date(payment.created_at),
      );
      await dispatch([event]);
    },

    /**
     * Records which PSP terminal gave the payment its token, before the customer is sent there
     * (docs/psps/routing.md): from then on every bank call of the payment goes to that PSP
     * (activities/bank/record-guard.ts), and its resource, its events and its search attributes name it. Written
     * while the payment is `created` only; the same values again change nothing.
     */
    async recordPaymentPsp({
      payment_id,
      mode,
      amount,
      psp,
      terminal_id,
    }: {
      payment_id: string;
      mode: KeyMode;
      amount: number;
      psp: string;
      terminal_id: string;
    }): Promise<void> {
      await guard.read(db, 'recordPaymentPsp', { payment_id, mode, amount });
      await setPaymentPspWhileCreated(db, payment_id, psp, terminal_id);
    },
  };
}
