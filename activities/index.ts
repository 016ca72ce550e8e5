/**
 * Side effects of the payment workflow. Built by a factory that receives its
 * dependencies, so the worker passes the real pool and unit tests pass fakes.
 * Every activity is idempotent: Temporal may run it more than once.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Payment } from '../src/api/schemas.ts';
import type { Db } from '../src/db/database.ts';
import { writePaymentVersion } from '../src/db/payments.ts';
import type { Logger } from '../src/logger.ts';
import { paymentEventType } from '../src/domain/events.ts';
import { recordEvent } from '../src/webhooks/events.ts';
import { dispatchEvent, type DeliveryConfig } from '../src/webhooks/dispatch.ts';
import type { BankAdapter } from './bank.ts';
import { createWebhookActivities, type WebhookActivityDependencies } from './webhooks.ts';

export interface ActivityDependencies {
  db: Db;
  bank: BankAdapter;
  logger: Logger;
  /** Starts webhook deliveries, outside the payment's workflow. */
  temporal: Client;
  config: DeliveryConfig & WebhookActivityDependencies['config'];
}

export function createActivities({ db, bank, logger, temporal, config }: ActivityDependencies) {
  return {
    /**
     * Writes a transition to MySQL, and its event in the same transaction (an
     * outbox: the event exists exactly when the change does); a stale or
     * repeated write changes nothing. Then starts the event's deliveries.
     */
    async recordTransition({ payment, version }: { payment: Payment; version: number }): Promise<void> {
      const event = await db.transaction().execute(async (trx) => {
        const now = new Date();
        const stored = await writePaymentVersion(trx, payment, version, now);
        if (!stored) return undefined;
        const type = paymentEventType(payment.status);
        if (type === undefined) return null;
        const { merchant_id } = await trx.selectFrom('payments').select('merchant_id').where('id', '=', payment.id).executeTakeFirstOrThrow();
        return recordEvent(trx, {
          // One event per recorded version: a retried activity finds the same one.
          sourceKey: `payment:${payment.id}:${version}`,
          merchantId: merchant_id,
          mode: payment.mode,
          type,
          objectId: payment.id,
          data: { payment },
          at: now,
        });
      });
      if (event === undefined) {
        // The create endpoint inserts the row before it starts the workflow; retry until it is visible.
        throw ApplicationFailure.retryable(`payment ${payment.id} has no row to record version ${version}`, 'payment_row_missing');
      }
      logger.info({ payment_id: payment.id, status: payment.status, version }, 'payment transition recorded');
      if (event !== null) await dispatchEvent(db, temporal, config, event);
    },

    ...createWebhookActivities({ db, logger, config }),

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
