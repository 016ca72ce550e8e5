/**
 * Every activity the worker registers, built by factories that receive their
 * dependencies, so the worker passes the real pool and PSP clients and tests pass
 * fakes. One module per purpose (records, bank, webhooks, maintenance, retention,
 * onboarding, settlement, the stuck-records sweep); a workflow's
 * proxy is typed with only the purpose it may call. Every activity is
 * idempotent: Temporal may run it more than once. Activity names are part
 * of running histories: renaming one breaks replay.
 */
import type { Client } from '@temporalio/client';
import type { PspClients } from '../src/psps/clients.ts';
import type { PspHealthStore } from '../src/db/psp-health.ts';
import type { Db } from '../src/db/database.ts';
import type { Logger } from '../src/logger.ts';
import { createBankActivities, type BankActivityDependencies } from './bank.ts';
import { createDebitActivities } from './debits.ts';
import { createMaintenanceActivities } from './maintenance.ts';
import { createMandateActivities, type MandateActivityDependencies } from './mandates.ts';
import {
  createSubscriptionActivities,
  type AdmitSubscriptionCharge,
  type SubscriptionActivityDependencies,
} from './subscriptions.ts';
import { createOnboardingActivities, type OnboardingActivityDependencies } from './onboarding.ts';
import { createRecordActivities, type RecordActivityDependencies } from './records.ts';
import { createRefundPayoutActivities, type RefundPayoutActivityDependencies } from './refund-payouts.ts';
import { createRetentionActivities, type RetentionActivityDependencies } from './retention.ts';
import { createSettlementActivities, type SettlementActivityDependencies } from './settlement.ts';
import { createSweepActivities, type SweepActivityDependencies } from './sweep.ts';
import { createWebhookActivities, type WebhookActivityDependencies } from './webhooks.ts';

export interface ActivityDependencies {
  db: Db;
  /** The PSP clients per mode and name (activities/bank.ts). */
  psps: PspClients;
  /** Each PSP terminal's circuit breaker, shared through MySQL. */
  health: PspHealthStore;
  /** Paya transfers of settlements, through the live PSP (absent: no live PSP configured). */
  payouts: SettlementActivityDependencies['payouts'];
  /** Each mode's Paya transfers of refunds to the IBAN a merchant gave (absent: that mode's refunds cannot be paid so). */
  refundPayouts?: RefundPayoutActivityDependencies['refundPayouts'];
  logger: Logger;
  /** Starts webhook deliveries, outside the payment's workflow. */
  temporal: Client;
  config: RecordActivityDependencies['config'] &
    BankActivityDependencies['config'] &
    WebhookActivityDependencies['config'] &
    OnboardingActivityDependencies['config'] &
    SettlementActivityDependencies['config'] &
    SweepActivityDependencies['config'] &
    RetentionActivityDependencies['config'];
  /** The merchants' document files (DOCUMENTS_DIR): the retention workflow prunes the rejected ones. */
  documents: RetentionActivityDependencies['documents'];
  /** The onboarding decision emails. */
  mailer: OnboardingActivityDependencies['mailer'];
  /** Each mode's direct debit provider and the box that seals mandates' signatures (absent: no direct debit). */
  directDebit?: Pick<MandateActivityDependencies, 'providers' | 'box'> & {
    /** A subscription's charge admitted as a debit by the debit service's admission. */
    admitCharge?: AdmitSubscriptionCharge;
    /** A subscription's signed customer page (src/direct-debit/customer-links.ts), its events' `customer_url`. */
    customerUrl?: SubscriptionActivityDependencies['customerUrl'];
  };
}

/** Without direct debit configured, no subscription is ever recorded: nothing to link. */
const NO_CUSTOMER_URL: SubscriptionActivityDependencies['customerUrl'] = () => {
  throw new Error('direct debit is not configured');
};

/** Without direct debit configured, a subscription's charge is refused as a debit would be. */
const NO_CHARGES: AdmitSubscriptionCharge = () =>
  Promise.resolve({ kind: 'refused', code: 'direct_debit_not_configured' });

/** Without direct debit configured, a signature is never fetched: nothing to seal. */
const NO_BOX: MandateActivityDependencies['box'] = {
  seal: () => {
    throw new Error('direct debit is not configured');
  },
  open: () => {
    throw new Error('direct debit is not configured');
  },
};

export function createActivities({
  db,
  psps,
  health,
  payouts,
  refundPayouts,
  logger,
  temporal,
  config,
  mailer,
  documents,
  directDebit,
}: ActivityDependencies) {
  return {
    ...createRecordActivities({ db, logger, temporal, config }),
    ...createBankActivities({ psps, db, health, logger, config }),
    ...createWebhookActivities({ db, logger, config, temporal }),
    ...createMaintenanceActivities({ db, logger }),
    ...createRetentionActivities({ db, logger, config, documents }),
    ...createOnboardingActivities({ db, logger, mailer, config }),
    ...createSettlementActivities({ db, logger, temporal, config, payouts, psps }),
    ...createSweepActivities({ db, logger, temporal, config }),
    ...createRefundPayoutActivities({ refundPayouts: refundPayouts ?? {}, logger }),
    ...createMandateActivities({
      db,
      logger,
      temporal,
      config,
      providers: directDebit?.providers ?? {},
      box: directDebit?.box ?? NO_BOX,
    }),
    ...createSubscriptionActivities({
      db,
      logger,
      temporal,
      config,
      admitCharge: directDebit?.admitCharge ?? NO_CHARGES,
      mailer,
      customerUrl: directDebit?.customerUrl ?? NO_CUSTOMER_URL,
    }),
    ...createDebitActivities({
      db,
      logger,
      providers: directDebit?.providers ?? {},
      box: directDebit?.box ?? NO_BOX,
    }),
  };
}
