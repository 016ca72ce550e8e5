/** Reading a merchant's payments: the list with its filters, and the merchant's metadata change. */
import type { Db } from '../db/database.ts';
import { instant } from '../db/filters.ts';
import { keyedPage } from '../db/pagination.ts';
import { paymentFromRow } from '../db/payments.ts';
import { scopedTo } from '../db/tenant.ts';
import type { AuthState, Tenant } from '../domain/merchant.ts';
import { mergeMetadata, type PaymentStatus } from '../domain/payment.ts';
import { METADATA_LIMITS, type ListPaymentsQuery, type Metadata, type Payment, type UpdatePaymentRequest } from '../domain/payment-schemas.ts';
import { commaSeparated } from '../domain/schema.ts';
import { DomainError } from '../errors.ts';
import { pageWithSplits } from './splits.ts';

/**
 * Newest first, with the filters of the query, all combined (docs/API.md#pagination),
 * a split payment with its `splits`.
 * Each filter has an index that starts with (merchant_id, mode): see
 * migrations 0001 and 0006.
 */
export async function listPayments(db: Db, tenant: Tenant, query: ListPaymentsQuery) {
  let q = db.selectFrom('payments').selectAll().where(scopedTo(tenant));
  if (query.status !== undefined) q = q.where('status', 'in', commaSeparated<PaymentStatus>(query.status));
  if (query.merchant_reference !== undefined) q = q.where('merchant_reference', '=', query.merchant_reference);
  if (query.tracking_code !== undefined) q = q.where('tracking_code', '=', query.tracking_code);
  if (query.rrn !== undefined) q = q.where('rrn', '=', query.rrn);
  if (query.amount_gte !== undefined) q = q.where('amount', '>=', query.amount_gte);
  if (query.amount_lte !== undefined) q = q.where('amount', '<=', query.amount_lte);
  if (query.created_gte !== undefined) q = q.where('created_at', '>=', instant(query.created_gte, 'created_gte'));
  if (query.created_lt !== undefined) q = q.where('created_at', '<', instant(query.created_lt, 'created_lt'));
  const page = await keyedPage(q, query, paymentFromRow);
  // Each split payment with its shares, as GET /payments/{id} shows it: one query for the page.
  return { ...page, data: await pageWithSplits(db, page.data) };
}

/** Merges metadata into the payment's (docs/PAYMENTS.md#metadata): a null value removes its key. */
export async function updatePayment(db: Db, auth: AuthState, id: string, request: UpdatePaymentRequest): Promise<Payment> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('payments').selectAll().where('id', '=', id).where(scopedTo(auth)).forUpdate().executeTakeFirst();
    if (row === undefined) throw new DomainError('payment_not_found', `No payment ${id}.`);
    const merged = mergeMetadata(JSON.parse(row.metadata) as Metadata, request.metadata);
    if (Object.keys(merged).length > METADATA_LIMITS.keys) {
      throw new DomainError('validation_failed', `A payment has at most ${METADATA_LIMITS.keys} metadata keys; remove some first.`, [
        { path: 'metadata', message: `would have more than ${METADATA_LIMITS.keys} keys` },
      ]);
    }
    const metadata = JSON.stringify(merged);
    await trx.updateTable('payments').set({ metadata }).where('id', '=', id).execute();
    return paymentFromRow({ ...row, metadata });
  });
}
