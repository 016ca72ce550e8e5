/**
 * Webhook delivery attempts (table webhook_attempts): one row per HTTP attempt, written whatever
 * the receiver answered, read back as each event's delivery history.
 */
import type { Insertable } from 'kysely';
import type { Db, WebhookAttemptsTable } from './database.ts';

export async function insertWebhookAttempt(db: Db, attempt: Insertable<WebhookAttemptsTable>): Promise<void> {
  await db.insertInto('webhook_attempts').values(attempt).execute();
}

/** Every attempt to deliver the event, oldest first. */
export async function attemptsOfEvent(db: Db, eventId: string) {
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
}

/** Every attempt to deliver these events, oldest first, in one read (index webhook_attempts_event). */
export async function attemptsOfEvents(db: Db, eventIds: readonly string[]) {
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('event_id', 'in', eventIds)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
}

/** The attempts to deliver these events, oldest first, as `cli payments show` lists them. */
export async function attemptSummariesOfEvents(db: Db, eventIds: readonly string[]) {
  return db
    .selectFrom('webhook_attempts')
    .select([
      'event_id',
      'endpoint_id',
      'attempt',
      'attempted_at',
      'response_status',
      'latency_ms',
      'error',
      'succeeded',
    ])
    .where('event_id', 'in', eventIds)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
}

/** Whether the endpoint answered any attempt with 2xx at or after `since`. */
export async function endpointSucceededSince(db: Db, endpointId: string, since: Date): Promise<boolean> {
  const success = await db
    .selectFrom('webhook_attempts')
    .select('id')
    .where('endpoint_id', '=', endpointId)
    .where('succeeded', '=', 1)
    .where('attempted_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return success !== undefined;
}
