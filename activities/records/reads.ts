/**
 * What workflows read from the records to decide (activities/records.ts): the merchant's live
 * standing, on which a live payment link's payment is verified, and the payment (with the refund, if
 * taken) the refunds workflow decides a refund on. Reads only: they write nothing, so their answers
 * land in the workflows' histories and replay as they were.
 */
import { ApplicationFailure } from '@temporalio/common';
import { merchantLiveMode } from '../../src/db/merchants.ts';
import { paymentById, paymentFromRow } from '../../src/db/payments.ts';
import { refundFromRow, refundOfPayment } from '../../src/db/refunds.ts';
import type { Payment } from '../../src/domain/payment-schemas.ts';
import type { Refund } from '../../src/domain/refund-schemas.ts';
import type { RecordActivityDependencies } from './versions.ts';

/** What the refunds workflow decides a refund on: the payment and its version as recorded, and the refund if it was taken before. */
export interface RecordedForRefund {
  /** Without the merchant's metadata, which stays in MySQL (no history keeps a copy). */
  payment: Payment;
  version: number;
  refund: Refund | null;
}

export function recordReadActivities({ db }: Pick<RecordActivityDependencies, 'db'>) {
  return {
    /**
     * Whether the merchant is approved for live mode now: a live payment link's payment is verified by
     * its workflow only while it is (docs/PAYMENTS.md#payment-links). A read, answered from the record.
     */
    async merchantLiveStanding({ merchant_id }: { merchant_id: string }): Promise<{ live: boolean }> {
      const merchant = await merchantLiveMode(db, merchant_id);
      return { live: Boolean(merchant?.live_mode) };
    },

    /** Reads the payment (and the refund `refund_id`, if taken) for the refunds workflow, which alone writes a verified payment. */
    async readPaymentForRefund({
      payment_id,
      refund_id,
    }: {
      payment_id: string;
      refund_id: string;
    }): Promise<RecordedForRefund> {
      const row = await paymentById(db, payment_id);
      if (row === undefined) throw ApplicationFailure.nonRetryable(`no payment ${payment_id}`, 'payment_not_found');
      const taken = await refundOfPayment(db, refund_id, payment_id);
      return {
        payment: { ...paymentFromRow(row), metadata: {} },
        version: row.version,
        refund: taken === undefined ? null : refundFromRow(taken),
      };
    },
  };
}
