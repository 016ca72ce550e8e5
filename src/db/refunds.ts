import type { Tenant } from '../domain/merchant.ts';
import type { Refund } from '../domain/refund-schemas.ts';
import type { Db, RefundRow } from './database.ts';
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
export type WrittenRefund = Omit<Refund, 'method' | 'destination_iban'> & Partial<Pick<Refund, 'method' | 'destination_iban'>>;

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
