import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// The dashboard's overview sums a tenant's payments by the day they were
// verified (src/payments/overview.ts): a range on verified_at within
// (merchant_id, mode), with amount in the index so the rows themselves are
// never read.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('payments_by_verified_at')
    .on('payments')
    .columns(['merchant_id', 'mode', 'verified_at', 'amount'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_by_verified_at').on('payments').execute();
}
