/**
 * The rows of `merchants` as the services read and write them outside onboarding's record
 * (src/db/onboarding.ts): a merchant by id, its row lock, a new merchant, its fee plan and the
 * operator's review queue.
 */
import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { OnboardingStatus } from '../domain/onboarding.ts';
import type { FeePlan } from '../domain/payment.ts';

/**
 * The merchant columns a credential's caller is built from (an API key's, or a compatible protocol's), with
 * the merchant's domains in the same query (callerDomains reads them): every request of a merchant's server
 * needs them (a create's callback_url), and a second query was a second round trip on each.
 */
export const CALLER_COLUMNS = [
  'merchants.id as merchant_id',
  'merchants.name',
  'merchants.fee_bps',
  'merchants.fee_min',
  'merchants.fee_max',
  'merchants.live_mode',
  sql<unknown>`(SELECT JSON_ARRAYAGG(JSON_OBJECT('domain', d.domain, 'verified', d.verified_at IS NOT NULL)) FROM merchant_domains d WHERE d.merchant_id = merchants.id)`.as(
    'domains',
  ),
] as const;

/** The caller's domains as CALLER_COLUMNS read them: JSON (text in MariaDB, parsed in MySQL), NULL for none. */
export function callerDomains(value: unknown): { domain: string; verified: boolean }[] {
  if (value === null || value === undefined) return [];
  const list = (typeof value === 'string' ? JSON.parse(value) : value) as { domain: string; verified: unknown }[];
  return list.map(({ domain, verified }) => ({ domain, verified: verified === true || verified === 1 }));
}

/** The merchant's whole row; undefined for an unknown merchant. */
export function merchantById(db: Db, merchantId: string) {
  return db.selectFrom('merchants').selectAll().where('id', '=', merchantId).executeTakeFirst();
}

/** The merchant's id if there is such a merchant (whether it exists, without reading its row). */
export function findMerchantId(db: Db, merchantId: string) {
  return db.selectFrom('merchants').select('id').where('id', '=', merchantId).executeTakeFirst();
}

/** Whether the merchant is approved for live mode, as its row says now (undefined: no such merchant). */
export function merchantLiveMode(db: Db, merchantId: string) {
  return db.selectFrom('merchants').select('live_mode').where('id', '=', merchantId).executeTakeFirst();
}

/** Locks the merchant's row until the caller's transaction ends (one writer at a time per merchant). */
export async function lockMerchantRow(db: Db, merchantId: string): Promise<void> {
  await db.selectFrom('merchants').select('id').where('id', '=', merchantId).forUpdate().executeTakeFirst();
}

/** Where the merchant stands in onboarding; undefined for an unknown merchant. */
export function merchantOnboardingStatus(db: Db, merchantId: string) {
  return db.selectFrom('merchants').select('onboarding_status').where('id', '=', merchantId).executeTakeFirst();
}

/** A new merchant's row. */
export async function insertMerchantRow(
  db: Db,
  row: { id: string; name: string; feePlan: FeePlan; createdAt: Date; onboardingStatus: OnboardingStatus },
): Promise<void> {
  const { id, name, feePlan, createdAt } = row;
  await db
    .insertInto('merchants')
    .values({
      id,
      name,
      fee_bps: feePlan.bps,
      fee_min: feePlan.min,
      fee_max: feePlan.max,
      created_at: createdAt,
      onboarding_status: row.onboardingStatus,
      onboarding_updated_at: createdAt,
    })
    .execute();
}

/** Merchants in one onboarding status, longest waiting first, at most 1,000. */
export function merchantsInOnboardingStatus(db: Db, status: OnboardingStatus) {
  return db
    .selectFrom('merchants')
    .select([
      'id',
      'name',
      'onboarding_status',
      'gateway_status',
      'live_mode',
      'rejection_reason',
      'onboarding_updated_at',
    ])
    .where('onboarding_status', '=', status)
    .orderBy('onboarding_updated_at')
    .orderBy('id')
    .limit(1_000)
    .execute();
}

/** The fee plan of the merchant's payments created from now on. */
export async function setMerchantFeePlan(db: Db, merchantId: string, plan: FeePlan): Promise<void> {
  await db
    .updateTable('merchants')
    .set({ fee_bps: plan.bps, fee_min: plan.min, fee_max: plan.max })
    .where('id', '=', merchantId)
    .execute();
}

/**
 * Lets the merchant's webhook receivers sit on the operator's networks (at: now), or takes that back
 * (null); false for an unknown merchant. One conditional update: its affected rows decide.
 */
export async function setOperatorNetworkWebhooks(db: Db, merchantId: string, at: Date | null): Promise<boolean> {
  const found = await db
    .updateTable('merchants')
    .set({ operator_network_webhooks_at: at })
    .where('id', '=', merchantId)
    .executeTakeFirst();
  // MySQL counts matched rows here only with CLIENT_FOUND_ROWS; an unchanged row would count 0 without it.
  return found.numUpdatedRows > 0n || (await findMerchantId(db, merchantId)) !== undefined;
}

/** Whether the operator let the merchant's webhook receivers sit on its networks (false for an unknown merchant). */
export async function operatorNetworkWebhooksAllowed(db: Db, merchantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('merchants')
    .select('operator_network_webhooks_at')
    .where('id', '=', merchantId)
    .executeTakeFirst();
  return row?.operator_network_webhooks_at != null;
}
