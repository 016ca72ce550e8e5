import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// A domain is a live callback domain only once the merchant proved it controls it
// (docs/SECURITY.md "Threats and their tests"): the token the merchant publishes,
// made when first shown, and when the gateway found it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('merchant_domains')
    .addColumn('verification_token', 'varchar(64)')
    .addColumn('verified_at', sql`datetime(3)`)
    .execute();
  // Merchants already live passed the operator's review with these domains: their live payments keep working.
  await sql`UPDATE merchant_domains SET verified_at = NOW(3) WHERE merchant_id IN (SELECT id FROM merchants WHERE live_mode = TRUE)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('merchant_domains').dropColumn('verification_token').dropColumn('verified_at').execute();
}
