/**
 * The webhook backlog as MySQL shows it: the oldest event whose delivery is
 * still being retried. A delivery is in retry when its latest attempt failed,
 * none succeeded, it has attempts left and its endpoint is still enabled;
 * only failed attempts of the last `withinSeconds` (the retry schedule's
 * span) are read, through webhook_attempts_failures (migration 0025).
 */
import { sql } from 'kysely';
import type { Db } from './database.ts';

export async function oldestUndeliveredEventAge(
  db: Db,
  { withinSeconds, attempts }: { withinSeconds: number; attempts: number },
  now = new Date(),
): Promise<number> {
  const since = new Date(now.getTime() - withinSeconds * 1000);
  const row = await db
    .selectFrom('webhook_attempts as failed')
    .innerJoin('events', 'events.id', 'failed.event_id')
    .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'failed.endpoint_id')
    .select(sql<Date | null>`min(events.created_at)`.as('oldest'))
    .where('failed.succeeded', '=', 0)
    .where('failed.attempted_at', '>=', since)
    .where('webhook_endpoints.status', '=', 'enabled')
    .where('webhook_endpoints.deleted_at', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_attempts as later')
            .select('later.id')
            .whereRef('later.event_id', '=', 'failed.event_id')
            .whereRef('later.delivery_id', '=', 'failed.delivery_id')
            .where((inner) => inner.or([inner('later.succeeded', '=', 1), inner('later.attempt', '>=', attempts)])),
        ),
      ),
    )
    .executeTakeFirst();
  const oldest = row?.oldest ?? null;
  return oldest === null ? 0 : Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000);
}
