import type { Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// The bank the customer chose to sign a mandate at (docs/SUBSCRIPTIONS.md#the-mandates-bank): its code
// as the provider lists it and its name as the provider gave it then, recorded from Dargah's bank page
// while the mandate is pending. Null for a mandate signed before this, or never sent to a bank.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mandates')
    .addColumn('bank_code', 'varchar(32)')
    .addColumn('bank_name', 'varchar(128)')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mandates').dropColumn('bank_name').dropColumn('bank_code').execute();
}
