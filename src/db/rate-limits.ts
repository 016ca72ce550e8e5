/**
 * The one fixed-window counter in `rate_limit_counters`, shared by the API's
 * limits (src/api/middleware/rate-limit.ts) and the dashboard's sign-in
 * throttle (src/accounts): one row per (bucket, window), counted by every
 * process alike. Old windows are pruned by the retention workflow
 * (src/domain/retention.ts), past the longest window any bucket uses, never by
 * a hit: a hit knows only its own window, and would cut a longer one short.
 */
import { sql } from 'kysely';
import type { Db } from './database.ts';

/** The start of the fixed window (aligned to the clock, so every process agrees) that `now` falls in. */
export const windowStartOf = (now: number, windowMs: number): number => now - (now % windowMs);

/**
 * Counts one hit in (bucket, window) and answers the hits so far in that
 * window, this one included: one atomic upsert, one round trip.
 */
export async function hitCounter(db: Db, bucket: string, windowStart: number): Promise<number> {
  // LAST_INSERT_ID(expr) hands the new count back in the same statement's reply.
  const result = await db
    .insertInto('rate_limit_counters')
    .values({ bucket, window_start: windowStart, hits: sql<number>`LAST_INSERT_ID(1)` })
    .onDuplicateKeyUpdate({ hits: sql<number>`LAST_INSERT_ID(hits + 1)` })
    .executeTakeFirstOrThrow();
  return Number(result.insertId);
}

/** Takes back one hit counted in (bucket, window): a reserved attempt that turned out not to count (a right password). */
export async function unhitCounter(db: Db, bucket: string, windowStart: number): Promise<void> {
  await db
    .updateTable('rate_limit_counters')
    .set({ hits: sql<number>`hits - 1` })
    .where('bucket', '=', bucket)
    .where('window_start', '=', windowStart)
    .where('hits', '>', 0)
    .execute();
}

/** The hits so far of each bucket in one window, without counting (a bucket never hit is 0). */
export async function counterHits(db: Db, buckets: string[], windowStart: number): Promise<Map<string, number>> {
  const hits = new Map(buckets.map((b) => [b, 0]));
  if (buckets.length === 0) return hits;
  const rows = await db
    .selectFrom('rate_limit_counters')
    .select(['bucket', 'hits'])
    .where('window_start', '=', windowStart)
    .where('bucket', 'in', buckets)
    .execute();
  for (const row of rows) hits.set(row.bucket, row.hits);
  return hits;
}
