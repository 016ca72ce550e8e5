/**
 * The subscription workflow's activities (docs/SUBSCRIPTIONS.md#subscriptions): admitting a period's
 * charge as a debit (through the debit service's own admission, given by the worker: activities do
 * not import services) and recording the subscription with its event. Both are idempotent: the
 * charge's key finds its debit again, and a record lands once per version with its event.
 */
import type { Client } from '@temporalio/client';
import type { Mailer } from '../src/adapters/mailer.ts';
import type { Config } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { eventIdFor, storedEvent } from '../src/db/events.ts';
import { confirmedUserEmails } from '../src/db/onboarding.ts';
import {
  subscriptionEventKey,
  subscriptionRowById,
  writeSubscriptionVersion,
  type SubscriptionUrl,
} from '../src/db/subscriptions.ts';
import type { ChargeAdmission, SubscriptionRecordInput } from '../src/domain/subscription-workflow.ts';
import type { Logger } from '../src/logger.ts';
import { dispatchEvent, type DeliveryConfig } from '../src/temporal/deliveries.ts';

export interface ChargeAsked {
  subscription_id: string;
  period: number;
  attempt: number;
}

/** The debit admission of a period's charge (src/direct-debit/subscriptions.ts, composed by the worker). */
export type AdmitSubscriptionCharge = (asked: ChargeAsked) => Promise<ChargeAdmission>;

export interface SubscriptionActivityDependencies {
  db: Db;
  logger: Logger;
  temporal: Client;
  config: DeliveryConfig & Pick<Config, 'PUBLIC_BASE_URL'>;
  admitCharge: AdmitSubscriptionCharge;
  mailer: Mailer;
  /** The subscription's signed customer page, its events' `customer_url` (composed by the worker). */
  customerUrl: SubscriptionUrl;
}

export type SubscriptionActivities = ReturnType<typeof createSubscriptionActivities>;

export function createSubscriptionActivities({
  db,
  logger,
  temporal,
  config,
  admitCharge,
  mailer,
  customerUrl,
}: SubscriptionActivityDependencies) {
  return {
    /** A period's charge admitted as a debit (the same debit again for the same period and attempt), or refused. */
    async admitSubscriptionCharge(asked: ChargeAsked): Promise<ChargeAdmission> {
      const admission = await admitCharge(asked);
      if (admission.kind === 'refused')
        logger.warn({ ...asked, code: admission.code }, "a subscription's charge was refused before the provider");
      return admission;
    },

    /**
     * Writes the subscription's next version with its event and hands the event to its deliveries.
     * When an earlier attempt wrote it, the event it stored is dispatched again (starting a delivery
     * is idempotent), so an attempt that died between the two loses nothing.
     */
    async recordSubscription(input: SubscriptionRecordInput): Promise<void> {
      const { record } = input;
      const event = await writeSubscriptionVersion(
        db,
        {
          id: input.subscription_id,
          version: record.version,
          status: record.status,
          current_period: record.current_period,
          current_period_start: new Date(input.period_start_ms),
          current_period_end: new Date(input.period_end_ms),
          cancel_at_period_end: record.cancel_at_period_end,
          failed_attempts: record.failed_attempts,
          last_payment_id: record.last_payment_id,
          cancel_reason: record.cancel_reason,
          canceled_at: record.canceled_at_ms === null ? null : new Date(record.canceled_at_ms),
        },
        input.event,
        new Date(),
        customerUrl,
      );
      if (input.event === undefined) return;
      const stored =
        event ?? (await storedEvent(db, eventIdFor(subscriptionEventKey(input.subscription_id, record.version))));
      if (stored !== undefined) await dispatchEvent(db, temporal, config, stored);
    },

    /**
     * Tells the merchant's users (those who confirmed their email) that a subscription's charge was
     * refused and will be tried again, in Persian and English as the onboarding's emails are. The
     * customer is not emailed: a mandate names only their mobile. A retry may send it twice, which
     * is better for a notice than never.
     */
    async emailSubscriptionPastDue({ subscription_id: id }: { subscription_id: string }): Promise<void> {
      const row = await subscriptionRowById(db, id);
      if (row === undefined) return;
      const users = await confirmedUserEmails(db, row.merchant_id);
      const link = `${config.PUBLIC_BASE_URL}/dashboard`;
      const subject = 'برداشت اشتراک ناموفق بود — A subscription charge failed';
      const text = `برداشت دورهٔ ${row.current_period} اشتراک ${id} از حساب مشتری ناموفق بود. دوباره ۱، ۳ و ۵ روز بعد تلاش می‌شود.\n${link}\n\nThe charge of period ${row.current_period} of subscription ${id} was refused. It is tried again 1, 3 and 5 days later.\n${link}?lang=en\n`;
      for (const user of users) await mailer.send({ to: user.email, subject, text });
      logger.info({ subscription_id: id, recipients: users.length }, 'subscription past_due emailed');
    },
  };
}
