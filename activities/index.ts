/**
 * Side effects of the payment workflow. Built by a factory that receives its
 * dependencies, so the worker passes the real pool and unit tests pass fakes.
 * Every activity is idempotent: Temporal may run it more than once.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Payment } from '../src/api/schemas.ts';
import type { Db } from '../src/db/database.ts';
import { isCheckViolation } from '../src/db/errors.ts';
import { writePaymentVersion } from '../src/db/payments.ts';
import { writeRefund } from '../src/db/refunds.ts';
import type { Refund } from '../src/api/refund-schemas.ts';
import type { Logger } from '../src/logger.ts';
import { paymentEventType } from '../src/domain/events.ts';
import { recordEvent, type StoredEvent } from '../src/webhooks/events.ts';
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

export interface RecordRefundInput {
  refund: Refund;
  merchant_id: string;
  mode: Payment['mode'];
  /** The payment's next version when the refund changes it (reserved or given back), else null. */
  payment: { payment: Payment; version: number } | null;
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

    /**
     * Writes a refund and, when it changes, the payment's next version, in
     * one transaction. The CHECK on payments.refunded_amount refuses any
     * write that would refund more than was paid.
     */
    async recordRefund({ refund, merchant_id, mode, payment }: RecordRefundInput): Promise<void> {
      let event: StoredEvent | undefined;
      try {
        event = await db.transaction().execute(async (trx) => {
          const at = new Date();
          if (payment !== null) {
            const stored = await writePaymentVersion(trx, payment.payment, payment.version, at);
            if (!stored) throw ApplicationFailure.retryable(`payment ${refund.payment_id} has no row for version ${payment.version}`, 'payment_row_missing');
          }
          await writeRefund(trx, refund, { merchantId: merchant_id, mode }, at);
          if (refund.status === 'pending') return undefined;
          // A refund's final status is an event (refund.succeeded / refund.failed), in the same transaction.
          return recordEvent(trx, {
            sourceKey: `refund:${refund.id}:${refund.status}`,
            merchantId: merchant_id,
            mode,
            type: `refund.${refund.status}`,
            objectId: refund.id,
            data: { refund },
            at,
          });
        });
      } catch (error) {
        if (isCheckViolation(error)) {
          throw ApplicationFailure.nonRetryable('the record refuses a refund of more than was paid', 'refund_exceeds_amount');
        }
        throw error;
      }
      logger.info({ payment_id: refund.payment_id, refund_id: refund.id, status: refund.status, amount: refund.amount }, 'refund recorded');
      if (event !== undefined) await dispatchEvent(db, temporal, config, event);
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

export type PaymentActivities = ReturnType<typeof createActivities>;
