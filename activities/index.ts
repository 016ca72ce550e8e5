/**
 * Side effects of the payment workflow. Built by a factory that receives its
 * dependencies, so the worker passes the real pool and unit tests pass fakes.
 * Every activity is idempotent: Temporal may run it more than once.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Payment } from '../src/api/schemas.ts';
import type { Db } from '../src/db/database.ts';
import { writePaymentVersion } from '../src/db/payments.ts';
import type { Logger } from '../src/logger.ts';
import type { BankAdapter } from './bank.ts';

export interface ActivityDependencies {
  db: Db;
  bank: BankAdapter;
  logger: Logger;
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

    async reverseSandboxPayment({ payment_id, amount }: { payment_id: string; amount: number }) {
      const result = await bank.reverse(payment_id, amount);
      logger.info({ payment_id, amount }, 'payment reversed to the customer');
      return result;
    },
  };
}

export type PaymentActivities = ReturnType<typeof createActivities>;
