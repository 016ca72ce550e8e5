import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// SEP's RefNum is a Base64-like digital receipt of about 50 characters (docs/psps/sep.md), not the
// 14 digits the first simulator gave: a payment's bank reference takes up to 128 characters, the
// length BANK_REFERENCE_PATTERN (src/domain/bank-confirmation.ts) allows. Indexed: SEP's verify names
// no payment, so the bank activity asks whether another payment recorded a RefNum before it pays one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payments MODIFY reference_id varchar(128) NULL`.execute(db);
  await db.schema.createIndex('payments_by_reference_id').on('payments').column('reference_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('payments_by_reference_id').on('payments').execute();
  await sql`ALTER TABLE payments MODIFY reference_id varchar(32) NULL`.execute(db);
}
