import type { Tenant } from '../domain/merchant.ts';
import type { ListAllRefundsQuery, ListRefundsQuery, Refund } from '../domain/refund-schemas.ts';
import type { Db, RefundRow } from './database.ts';
import { instant } from './filters.ts';
import { keyedPage } from './pagination.ts';
import { scopedTo } from './tenant.ts';

/** The API shape of a stored refund. */
export function refundFromRow(row: RefundRow): Refund {
  return {
    id: row.id,
    payment_id: row.payment_id,
    amount: Number(row.amount),
    status: row.status,
    reason: row.reason,
    created_at: row.created_at.toISOString(),
    succeeded_at: row.succeeded_at === null ? null : row.succeeded_at.toISOString(),
    failure: row.failure_code === null ? null : { code: row.failure_code, message: row.failure_message ?? '' },
    method: row.method,
    destination_iban: row.destination_iban,
  };
}

/**
 * Records a refund: the first write inserts it `pending`; a final status is
 * written once, only over `pending`, so a retried or replayed write never
 * moves it back.
 */
/** A refund as a workflow hands it over: one recorded by a run older than refund methods carries neither field. */
export type WrittenRefund = Omit<Refund, 'method' | 'destination_iban'> &
  Partial<Pick<Refund, 'method' | 'destination_iban'>>;

export async function writeRefund(db: Db, refund: WrittenRefund, tenant: Tenant, at: Date): Promise<void> {
  await db
    .insertInto('refunds')
    .ignore()
    .values({
      id: refund.id,
      payment_id: refund.payment_id,
      merchant_id: tenant.merchant.id,
      mode: tenant.mode,
      amount: refund.amount,
      status: 'pending',
      reason: refund.reason,
      // A refund recorded by a run older than refund methods was the PSP's refund, with no IBAN.
      method: refund.method ?? 'psp_refund',
      destination_iban: refund.destination_iban ?? null,
      created_at: new Date(refund.created_at),
      updated_at: at,
    })
    .execute();
  if (refund.status === 'pending') return;
  await db
    .updateTable('refunds')
    .set({
      status: refund.status,
      succeeded_at: refund.succeeded_at === null ? null : new Date(refund.succeeded_at),
      failure_code: refund.failure?.code ?? null,
      failure_message: refund.failure?.message ?? null,
      // The method that paid it, when not the one chosen (a reversal refused, paid to the IBAN instead).
      ...(refund.method === undefined ? {} : { method: refund.method }),
      updated_at: at,
    })
    .where('id', '=', refund.id)
    .where('status', '=', 'pending')
    .execute();
}

/** The tenant's refund with this id, if it has one. */
export async function findRefund(db: Db, id: string, tenant: Tenant): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).where(scopedTo(tenant)).executeTakeFirst();
}

/** The refund `refundId` of payment `paymentId`, if it was taken (a workflow's read: the ids are trusted). */
export function refundOfPayment(db: Db, refundId: string, paymentId: string): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('id', '=', refundId)
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
}

/** Locks the refund's row (FOR UPDATE) and reads its status; undefined: not written yet. */
export function lockRefundStatus(db: Db, refundId: string) {
  return db.selectFrom('refunds').select('status').where('id', '=', refundId).forUpdate().executeTakeFirst();
}

/**
 * A page of the tenant's refunds, newest first, with the filters of the query combined (indexes:
 * refunds_by_merchant, refunds_by_status, refunds_by_payment).
 */
export function refundsPage(db: Db, tenant: Tenant, query: ListAllRefundsQuery) {
  let q = db.selectFrom('refunds').selectAll().where(scopedTo(tenant));
  if (query.status !== undefined) q = q.where('status', '=', query.status);
  if (query.payment_id !== undefined) q = q.where('payment_id', '=', query.payment_id);
  if (query.created_gte !== undefined) q = q.where('created_at', '>=', instant(query.created_gte, 'created_gte'));
  if (query.created_lt !== undefined) q = q.where('created_at', '<', instant(query.created_lt, 'created_lt'));
  return keyedPage(q, query, refundFromRow);
}

/** A page of the tenant's refunds of one payment, newest first. */
export function paymentRefundsPage(db: Db, tenant: Tenant, paymentId: string, query: ListRefundsQuery) {
  return keyedPage(
    db.selectFrom('refunds').selectAll().where('payment_id', '=', paymentId).where(scopedTo(tenant)),
    query,
    refundFromRow,
  );
}
