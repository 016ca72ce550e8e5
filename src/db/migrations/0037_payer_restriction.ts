import { type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// Who may pay a payment (docs/PAYMENTS.md#who-may-pay-cards-and-national-code). The allowed cards
// are kept twice, never in full: masked (first six, last four) as a JSON array, to show, and as a
// JSON array of keyed hashes (HMAC-SHA256 under CARD_HASH_KEY of the card's SHA-256, hex), to hold
// the PSP's HashedPan against. The national code is kept masked only: no PSP connector carries it.
// All null on a payment without a restriction.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('allowed_cards_masked', 'varchar(128)').execute();
  await db.schema.alterTable('payments').addColumn('allowed_card_hashes', 'varchar(400)').execute();
  await db.schema.alterTable('payments').addColumn('national_code_masked', 'char(10)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('national_code_masked').execute();
  await db.schema.alterTable('payments').dropColumn('allowed_card_hashes').execute();
  await db.schema.alterTable('payments').dropColumn('allowed_cards_masked').execute();
}
