/**
 * Reading payments to show them: the API's list with its filters, the row a metadata change
 * locks, the customer's payment page, and the operator's `cli payments show`.
 */
import type { Tenant } from '../domain/merchant.ts';
import type { PaymentStatus } from '../domain/payment.ts';
import type { ListPaymentsQuery } from '../domain/payment-schemas.ts';
import { commaSeparated } from '../domain/schema.ts';
import type { Db } from './database.ts';
import { instant } from './filters.ts';
import { keyedPage } from './pagination.ts';
import { paymentFromRow } from './payments.ts';
import { scopedTo } from './tenant.ts';

/**
 * One page of the tenant's payments, newest first, with the filters of the query, all combined
 * (docs/API.md#pagination). Each filter has an index that starts with (merchant_id, mode): see
 * migrations 0001 and 0006.
 */
export async function paymentsPage(db: Db, tenant: Tenant, query: ListPaymentsQuery) {
  let q = db.selectFrom('payments').selectAll().where(scopedTo(tenant));
  if (query.status !== undefined) q = q.where('status', 'in', commaSeparated<PaymentStatus>(query.status));
  if (query.merchant_reference !== undefined) q = q.where('merchant_reference', '=', query.merchant_reference);
  if (query.tracking_code !== undefined) q = q.where('tracking_code', '=', query.tracking_code);
  if (query.rrn !== undefined) q = q.where('rrn', '=', query.rrn);
  if (query.amount_gte !== undefined) q = q.where('amount', '>=', query.amount_gte);
  if (query.amount_lte !== undefined) q = q.where('amount', '<=', query.amount_lte);
  if (query.created_gte !== undefined) q = q.where('created_at', '>=', instant(query.created_gte, 'created_gte'));
  if (query.created_lt !== undefined) q = q.where('created_at', '<', instant(query.created_lt, 'created_lt'));
  return keyedPage(q, query, paymentFromRow);
}

/** The tenant's payment row locked (FOR UPDATE) for a change; undefined when the tenant has none of that id. */
export async function lockTenantPayment(trx: Db, tenant: Tenant, id: string) {
  return trx
    .selectFrom('payments')
    .selectAll()
    .where('id', '=', id)
    .where(scopedTo(tenant))
    .forUpdate()
    .executeTakeFirst();
}

export async function setPaymentMetadata(trx: Db, id: string, metadata: string): Promise<void> {
  await trx.updateTable('payments').set({ metadata }).where('id', '=', id).execute();
}

/** The payment's row with its merchant's name, whoever's it is (the customer's payment page). */
export async function paymentWithMerchantName(db: Db, id: string) {
  return db
    .selectFrom('payments')
    .innerJoin('merchants', 'merchants.id', 'payments.merchant_id')
    .selectAll('payments')
    .select('merchants.name as merchant_name')
    .where('payments.id', '=', id)
    .executeTakeFirst();
}

/** The payment's refunds, oldest first: what `cli payments show` lists of each. */
export async function refundSummariesOf(db: Db, paymentId: string) {
  return db
    .selectFrom('refunds')
    .select(['id', 'amount', 'status', 'created_at'])
    .where('payment_id', '=', paymentId)
    .orderBy('created_at')
    .execute();
}
