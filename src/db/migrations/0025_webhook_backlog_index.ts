import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// The webhook backlog gauge (src/db/webhook-backlog.ts) reads the failed attempts of the last days:
// this index makes that a range scan of failures only, however many attempts succeeded.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('webhook_attempts_failures')
    .on('webhook_attempts')
    .columns(['succeeded', 'attempted_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_attempts_failures').on('webhook_attempts').execute();
}
