import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// A key's scopes (docs/API.md#key-scopes): a live key creates refunds only once the merchant granted
// it the `refunds` scope, with a recent second factor in the dashboard or by the operator's CLI; this
// column is when that was granted (NULL: not granted). Every key that exists before this migration
// has no scope: a live key stolen before it refunds nothing until its merchant grants it. Test keys
// refund without the scope (test mode moves no money), so the column matters for live keys only.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('refunds_granted_at', 'datetime(3)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('refunds_granted_at').execute();
}
