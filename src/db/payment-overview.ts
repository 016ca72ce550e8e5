/**
 * The dashboard overview's one read: count and volume of the tenant's verified payments per day,
 * a range read of the index payments_by_verified_at (merchant, mode, verified_at, amount), which
 * covers the query.
 */
import { sql } from 'kysely';
import type { Tenant } from '../domain/merchant.ts';
import type { Db } from './database.ts';
import { scopedTo } from './tenant.ts';

/**
 * Count (`n`) and volume of the tenant's payments verified in [`days[0].start`, `now`], grouped by
 * `bucket`: the index in `days` of the day each falls on. Days without any have no row.
 */
export async function verifiedTotalsByDay(db: Db, tenant: Tenant, days: readonly { start: Date }[], now: Date) {
  const from = days[0]!.start;
  // Which day a row falls on, by the days' first instants: exact whatever the offsets.
  const bucket = sql<number>`(case ${sql.join(
    days.slice(1).map((d, i) => sql`when verified_at < ${d.start} then ${i}`),
    sql` `,
  )} else ${days.length - 1} end)`;
  return db
    .selectFrom('payments')
    .select([
      bucket.as('bucket'),
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.sum<string>('amount').as('volume'),
    ])
    .where(scopedTo(tenant))
    .where('verified_at', '>=', from)
    .where('verified_at', '<=', now)
    .groupBy('bucket')
    .execute();
}
