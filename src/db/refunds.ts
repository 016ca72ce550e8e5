import type { Refund } from '../api/refund-schemas.ts';
import type { Db, RefundRow } from './database.ts';

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
  };
}

/**
 * Records a refund: the first write inserts it `pending`; a final status is
 * written once, only over `pending`, so a retried or replayed write never
 * moves it back.
 */
export async function writeRefund(db: Db, refund: Refund, scope: { merchantId: string; mode: 'test' | 'live' }, at: Date): Promise<void> {
  await db
    .insertInto('refunds')
    .ignore()
    .values({
      id: refund.id,
      payment_id: refund.payment_id,
      merchant_id: scope.merchantId,
      mode: scope.mode,
      amount: refund.amount,
      status: 'pending',
      reason: refund.reason,
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
      updated_at: at,
    })
    .where('id', '=', refund.id)
    .where('status', '=', 'pending')
    .execute();
}

export async function findRefund(db: Db, id: string, scope: { merchantId: string; mode: 'test' | 'live' }): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('id', '=', id)
    .where('merchant_id', '=', scope.merchantId)
    .where('mode', '=', scope.mode)
    .executeTakeFirst();
}
