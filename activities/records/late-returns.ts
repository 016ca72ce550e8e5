/**
 * A paid return for a payment already ended (docs/BANK.md#a-paid-return-for-an-ended-payment,
 * workflows/late-return.ts), recorded (activities/records.ts): what became of its sale, one row per
 * payment and reference, counted and logged once. Apart from the payment's writes because it writes
 * no version of the payment: the payment has ended, and its record stays as it ended.
 */
import { paymentById } from '../../src/db/payments.ts';
import { recordLateReturn, type LateReturnRecord } from '../../src/db/late-returns.ts';
import { lateBankReturns } from '../../src/observability/metrics.ts';
import type { RecordActivityDependencies } from './versions.ts';

export function lateReturnActivities({ db, logger }: Pick<RecordActivityDependencies, 'db' | 'logger'>) {
  return {
    /**
     * A paid return for a payment already ended, and what became of its sale
     * (docs/BANK.md#a-paid-return-for-an-ended-payment): one row per payment and reference, counted and
     * logged once; a sale the PSP holds (it refused the reversal) is logged as an error and listed by
     * `cli stuck`.
     */
    async recordLateReturn(record: Omit<LateReturnRecord, 'payment_status'>): Promise<void> {
      const row = await paymentById(db, record.payment_id);
      if (row === undefined || row.mode !== record.mode) {
        logger.error({ payment_id: record.payment_id }, 'late bank return: no such payment in this mode; not recorded');
        return;
      }
      const written = await recordLateReturn(db, { ...record, payment_status: row.status });
      if (!written) return;
      lateBankReturns.inc({ psp: record.psp, outcome: record.outcome });
      const fields = { payment_id: record.payment_id, mode: record.mode, psp: record.psp, outcome: record.outcome };
      if (record.outcome === 'reversal_refused')
        logger.error(fields, 'late bank return: the PSP refused to reverse the sale; money is held at the PSP');
      else logger.warn(fields, 'late bank return: a paid return came for a payment already ended');
    },
  };
}
