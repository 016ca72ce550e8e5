import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// The operator's retry of a beneficiary transfer the bank refused (docs/LEDGER.md#split-settlement):
// each retry is the next attempt, a new key at the bank, as a settlement's own payout retry is.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('beneficiary_payouts')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('beneficiary_payouts').dropColumn('attempt').execute();
}
