/**
 * Onboarding's record (docs/DASHBOARD.md#onboarding): the merchant's row as the onboarding
 * workflow writes it, only forward by onboarding_version, its onboarding_events, and who hears of
 * the operator's decision. The steps' order is the workflow's (workflows/onboarding.ts).
 */
import type { Insertable } from 'kysely';
import type { Db, OnboardingEventsTable } from './database.ts';
import { gatewayStatusOf } from '../domain/onboarding.ts';
import type { OnboardingRecord } from '../domain/onboarding-workflow.ts';

/** The merchant's onboarding as recorded (status, version, rejection reason); undefined for an unknown merchant. */
export function merchantOnboardingRecord(db: Db, merchantId: string) {
  return db
    .selectFrom('merchants')
    .select(['onboarding_status', 'onboarding_version', 'rejection_reason'])
    .where('id', '=', merchantId)
    .executeTakeFirst();
}

/**
 * Writes a step onto the merchant's row, only if its version is newer than the row's; with
 * `settlementIban`, that becomes the IBAN settlements are paid to.
 */
export async function recordOnboardingStep(
  db: Db,
  record: OnboardingRecord,
  now: Date,
  settlementIban: string | undefined,
): Promise<void> {
  await db
    .updateTable('merchants')
    .set({
      onboarding_status: record.status,
      onboarding_version: record.version,
      rejection_reason: record.rejection_reason,
      gateway_status: gatewayStatusOf(record.status),
      live_mode: record.status === 'live' ? 1 : 0,
      onboarding_updated_at: now,
      ...(settlementIban !== undefined ? { settlement_iban: settlementIban } : {}),
    })
    .where('id', '=', record.merchant_id)
    .where('onboarding_version', '<', record.version)
    .execute();
}

/** An onboarding event; one of the same id (the same cause) already there is kept as it is. */
export async function insertOnboardingEventOnce(db: Db, event: Insertable<OnboardingEventsTable>): Promise<void> {
  await db.insertInto('onboarding_events').ignore().values(event).execute();
}

/** The email addresses of the merchant's users who confirmed theirs. */
export function confirmedUserEmails(db: Db, merchantId: string) {
  return db
    .selectFrom('users')
    .select('email')
    .where('merchant_id', '=', merchantId)
    .where('email_confirmed_at', 'is not', null)
    .execute();
}
