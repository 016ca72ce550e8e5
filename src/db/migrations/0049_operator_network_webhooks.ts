import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// The merchants whose webhook receivers may sit on the operator's own networks (WEBHOOK_ALLOWED_NETWORKS,
// docs/WEBHOOKS.md#receivers-on-the-operators-network): when the operator allowed it (npm run cli -- merchants
// allow-operator-network); null, every merchant before this one and every new sign-up: public receivers only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchants')
    .addColumn('operator_network_webhooks_at', sql`datetime(3)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('merchants').dropColumn('operator_network_webhooks_at').execute();
}
