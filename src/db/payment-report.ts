/**
 * The payments report's reads (docs/API.md#reconciliation): the tenant's payments of a period in
 * keyed batches, oldest first, and each batch's shares summed.
 */
import { sql } from 'kysely';
import type { Tenant } from '../domain/merchant.ts';
import type { Db, PaymentRow } from './database.ts';
import { scopedTo } from './tenant.ts';

/**
 * Up to `batchSize` of the tenant's payments created in [`from`, `to`), oldest first by
 * (created_at, id), after the row `after` (the last of the batch before) when given (index
 * payments_list).
 */
export async function reportPaymentsBatch(
  db: Db,
  tenant: Tenant,
  { from, to }: { from: Date; to: Date },
  after: PaymentRow | undefined,
  batchSize: number,
) {
  let q = db
    .selectFrom('payments')
    .selectAll()
    .where(scopedTo(tenant))
    .where('created_at', '>=', from)
    .where('created_at', '<', to);
  if (after !== undefined) {
    q = q.where((eb) =>
      eb.or([
        eb('created_at', '>', after.created_at),
        eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)]),
      ]),
    );
  }
  return q.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(batchSize).execute();
}

/**
 * The sum of each payment's shares, by payment id (payments without shares are absent): one
 * grouped read (the unique index payment_splits_position begins with payment_id), not one query a
 * payment.
 */
export async function splitsAmountsOf(db: Db, paymentIds: string[]): Promise<Map<string, number>> {
  const sums = await db
    .selectFrom('payment_splits')
    .select(['payment_id', sql<string>`sum(amount)`.as('total')])
    .where('payment_id', 'in', paymentIds)
    .groupBy('payment_id')
    .execute();
  return new Map(sums.map((s) => [s.payment_id, Number(s.total)]));
}
