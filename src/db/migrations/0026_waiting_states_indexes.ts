import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// The stuck-records sweep and `cli stuck` (src/db/stuck.ts) read records by state and age across
// every merchant: these indexes make each of their queries a range scan of the waiting rows only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('refunds_waiting').on('refunds').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('events_by_age').on('events').column('created_at').execute();
  await db.schema.createIndex('payments_waiting').on('payments').columns(['status', 'updated_at']).execute();
  await db.schema.createIndex('settlements_waiting').on('settlements').columns(['status', 'updated_at']).execute();
  await db.schema
    .createIndex('webhook_attempts_by_endpoint')
    .on('webhook_attempts')
    .columns(['event_id', 'endpoint_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_attempts_by_endpoint').on('webhook_attempts').execute();
  await db.schema.dropIndex('settlements_waiting').on('settlements').execute();
  await db.schema.dropIndex('payments_waiting').on('payments').execute();
  await db.schema.dropIndex('events_by_age').on('events').execute();
  await db.schema.dropIndex('refunds_waiting').on('refunds').execute();
}
