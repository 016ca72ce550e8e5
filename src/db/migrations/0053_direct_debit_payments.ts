import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// A debit is a payment (docs/SUBSCRIPTIONS.md#debits-are-payments): a payment says how it was paid
// (`card` for every payment before this one, `direct_debit` for a mandate's debit), and a debit keeps
// the provider's name of its transaction (`provider_authority`, recorded before the money is taken,
// so a retried checkout sends the same one) and the provider's reference once it is taken.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('payments')
    .addColumn('method', 'varchar(16)', (c) => c.notNull().defaultTo('card'))
    .execute();
  await db.schema
    .alterTable('mandate_debits')
    .addColumn('provider_authority', 'varchar(64)')
    .addColumn('provider_reference', 'varchar(128)')
    .addColumn('taken_at', sql`datetime(3)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mandate_debits')
    .dropColumn('taken_at')
    .dropColumn('provider_reference')
    .dropColumn('provider_authority')
    .execute();
  await db.schema.alterTable('payments').dropColumn('method').execute();
}
