/**
 * Payment links' rows (table payment_links, docs/PAYMENTS.md#payment-links): each read with the
 * places its payments hold, counted from the payments themselves; the link's row locked while a
 * customer's payment is started on it; and the merchant's terms a link payment needs.
 */
import { sql } from 'kysely';
import type { Tenant } from '../domain/merchant.ts';
import { LINK_OPEN_STATUSES, LINK_PLACE_FREED_STATUSES } from '../domain/payment-link.ts';
import type { Db, PaymentLinkRow } from './database.ts';
import { keyedPage, type PageQuery } from './pagination.ts';
import { scopedTo } from './tenant.ts';

/**
 * The places a link's payments hold now, counted from the payments themselves (not a counter): a
 * payment that ended without money (LINK_PLACE_FREED_STATUSES) has given its place back, whatever
 * ended it (the customer, the bank, the page's timer, the verify deadline).
 */
const placesHeld = sql<
  number | string
>`(SELECT COUNT(*) FROM payments WHERE payments.payment_link_id = payment_links.id AND payments.status NOT IN (${sql.join(LINK_PLACE_FREED_STATUSES.map((status) => sql.lit(status)))}))`.as(
  'places_held',
);

/** A link's row with the places its payments hold. */
export type CountedLinkRow = PaymentLinkRow & { places_held: number | string };

/** The link with its places held, whoever's it is (a retry under the Idempotency-Key finds its first attempt's). */
export async function countedLinkById(db: Db, linkId: string) {
  return db.selectFrom('payment_links').selectAll().select(placesHeld).where('id', '=', linkId).executeTakeFirst();
}

export async function insertPaymentLink(db: Db, row: PaymentLinkRow): Promise<void> {
  await db.insertInto('payment_links').values(row).execute();
}

/** One page of the tenant's links with their places held, newest first. */
export async function paymentLinksPage<Item>(
  db: Db,
  tenant: Tenant,
  page: PageQuery,
  toItem: (row: CountedLinkRow) => Item,
) {
  return keyedPage(db.selectFrom('payment_links').selectAll().select(placesHeld).where(scopedTo(tenant)), page, toItem);
}

/** The tenant's link with its places held; undefined when the tenant has none of that id. */
export async function tenantCountedLink(db: Db, tenant: Tenant, id: string) {
  return db
    .selectFrom('payment_links')
    .selectAll()
    .select(placesHeld)
    .where('id', '=', id)
    .where(scopedTo(tenant))
    .executeTakeFirst();
}

export async function deactivateTenantLink(db: Db, tenant: Tenant, id: string): Promise<void> {
  await db.updateTable('payment_links').set({ active: 0 }).where('id', '=', id).where(scopedTo(tenant)).execute();
}

/** A link by its slug, whoever's it is, with its places held and its merchant's name. */
export async function countedLinkBySlug(db: Db, slug: string) {
  return db
    .selectFrom('payment_links')
    .innerJoin('merchants', 'merchants.id', 'payment_links.merchant_id')
    .selectAll('payment_links')
    .select(placesHeld)
    .select('merchants.name as merchant_name')
    .where('payment_links.slug', '=', slug)
    .executeTakeFirst();
}

/** The merchant's fee plan and whether it is approved for live mode (a link payment's merchant: it exists). */
export async function linkMerchantTerms(db: Db, merchantId: string) {
  return db
    .selectFrom('merchants')
    .select(['fee_bps', 'fee_min', 'fee_max', 'live_mode'])
    .where('id', '=', merchantId)
    .executeTakeFirstOrThrow();
}

/** The link's row locked (FOR UPDATE): one start of this link at a time counts its places and open payments. */
export async function lockLinkForStart(trx: Db, linkId: string) {
  return trx
    .selectFrom('payment_links')
    .select(['active', 'expires_at', 'max_payments'])
    .where('id', '=', linkId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** The places the link's payments hold (`held`) and how many of them are open (`open`); null sums when it has none. */
export async function linkPaymentCounts(trx: Db, linkId: string) {
  return trx
    .selectFrom('payments')
    .select([
      sql<
        number | string | null
      >`SUM(status NOT IN (${sql.join(LINK_PLACE_FREED_STATUSES.map((s) => sql.lit(s)))}))`.as('held'),
      sql<number | string | null>`SUM(status IN (${sql.join(LINK_OPEN_STATUSES.map((s) => sql.lit(s)))}))`.as('open'),
    ])
    .where('payment_link_id', '=', linkId)
    .executeTakeFirstOrThrow();
}

/** Writes the link's payments_count column. */
export async function setLinkPaymentsCount(trx: Db, linkId: string, paymentsCount: number): Promise<void> {
  await trx.updateTable('payment_links').set({ payments_count: paymentsCount }).where('id', '=', linkId).execute();
}

/** Deletes the link payment while it is still at its first version (its workflow never started). */
export async function deleteUnstartedLinkPayment(db: Db, paymentId: string): Promise<void> {
  await db.deleteFrom('payments').where('id', '=', paymentId).where('version', '=', 1).execute();
}

/** The payment's row, only when it was started on this link. */
export async function linkPaymentRow(db: Db, linkId: string, paymentId: string) {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('id', '=', paymentId)
    .where('payment_link_id', '=', linkId)
    .executeTakeFirst();
}
