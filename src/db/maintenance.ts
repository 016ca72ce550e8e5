/**
 * Housekeeping's rows (activities/maintenance.ts): deleting records nobody needs any more.
 */
import type { Db } from './database.ts';

/**
 * Deletes up to `limit` Idempotency-Key records expired at `now` (oldest first, by the expires_at
 * index) and answers how many went. A record a request still holds (locked) is left alone.
 */
export async function deleteExpiredIdempotencyKeys(db: Db, now: Date, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('expires_at')
    .limit(limit)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
