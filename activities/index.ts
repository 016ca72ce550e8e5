/**
 * Side effects of the payment workflow. Built by a factory that receives its
 * dependencies, so the worker passes the real pool and unit tests pass fakes.
 * Every activity is idempotent: Temporal may run it more than once.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Payment } from '../src/api/schemas.ts';
import type { Db } from '../src/db/database.ts';
import { writePaymentVersion } from '../src/db/payments.ts';
import { writeRefund } from '../src/db/refunds.ts';
import type { Refund } from '../src/api/refund-schemas.ts';
import type { Logger } from '../src/logger.ts';
import type { BankAdapter } from './bank.ts';

export interface ActivityDependencies {
  db: Db;
  bank: BankAdapter;
  logger: Logger;
}

export interface RecordRefundInput {
  refund: Refund;
  merchant_id: string;
  mode: Payment['mode'];
  /** The payment's next version when the refund changes it (reserved or given back), else null. */
  payment: { payment: Payment; version: number } | null;
}

export function createActivities({ db, bank, logger }: ActivityDependencies) {
  return {
    /** Writes a transition to MySQL; a stale or repeated write changes nothing. */
    async recordTransition({ payment, version }: { payment: Payment; version: number }): Promise<void> {
      const stored = await writePaymentVersion(db, payment, version, new Date());
      if (!stored) {
        // The create endpoint inserts the row before it starts the workflow; retry until it is visible.
        throw ApplicationFailure.retryable(`payment ${payment.id} has no row to record version ${version}`, 'payment_row_missing');
      }
      logger.info({ payment_id: payment.id, status: payment.status, version }, 'payment transition recorded');
    },

    async captureSandboxPayment({ payment_id, amount }: { payment_id: string; amount: number }) {
      return bank.capture(payment_id, amount);
    },

    /**
     * Writes a refund and, when it changes, the payment's next version, in
     * one transaction. The CHECK on payments.refunded_amount refuses any
     * write that would refund more than was paid.
     */
    async recordRefund({ refund, merchant_id, mode, payment }: RecordRefundInput): Promise<void> {
      try {
        await db.transaction().execute(async (trx) => {
          const at = new Date();
          if (payment !== null) {
            const stored = await writePaymentVersion(trx, payment.payment, payment.version, at);
            if (!stored) throw ApplicationFailure.retryable(`payment ${refund.payment_id} has no row for version ${payment.version}`, 'payment_row_missing');
          }
          await writeRefund(trx, refund, { merchantId: merchant_id, mode }, at);
        });
      } catch (error) {
        if (isCheckViolation(error)) {
          throw ApplicationFailure.nonRetryable('the record refuses a refund of more than was paid', 'refund_exceeds_amount');
        }
        throw error;
      }
      logger.info({ payment_id: refund.payment_id, refund_id: refund.id, status: refund.status, amount: refund.amount }, 'refund recorded');
    },

    async refundPayment({ payment_id, refund_id, amount }: { payment_id: string; refund_id: string; amount: number }) {
      const result = await bank.refund(payment_id, refund_id, amount);
      logger.info({ payment_id, refund_id, amount }, 'refund paid out to the customer');
      return result;
    },

    async reverseSandboxPayment({ payment_id, amount }: { payment_id: string; amount: number }) {
      const result = await bank.reverse(payment_id, amount);
      logger.info({ payment_id, amount }, 'payment reversed to the customer');
      return result;
    },
  };
}

/** MariaDB (4025) and MySQL (3819) report a violated CHECK constraint differently. */
const isCheckViolation = (error: unknown) => {
  const e = error as { errno?: number; code?: string };
  return e.errno === 4025 || e.errno === 3819 || e.code === 'ER_CHECK_CONSTRAINT_VIOLATED' || e.code === 'ER_CONSTRAINT_FAILED';
};

export type PaymentActivities = ReturnType<typeof createActivities>;
