import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// The compatible protocols (docs/COMPAT.md): a merchant's ZarinPal-style merchant_id and Zibal
// `merchant` per mode, stored as SHA-256 hashes only (they are bearer secrets, like API keys), and on
// each payment the protocol that created it and, for ZarinPal's toman, the currency its amounts use.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('compat_credentials')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    // `zarinpal` or `zibal`: which protocol's requests the value authenticates.
    .addColumn('protocol', 'varchar(16)', (c) => c.notNull())
    // The value has 96 bits or more of randomness, so its hash alone finds the row.
    .addColumn('value_hash', sql`binary(32)`, (c) => c.notNull().unique())
    // The value's last four characters, for telling credentials apart in the dashboard; not secret.
    .addColumn('hint', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('revoked_at', sql`datetime(3)`)
    .addColumn('expires_at', sql`datetime(3)`)
    .addColumn('last_used_at', sql`datetime(3)`)
    .execute();
  await db.schema
    .createIndex('compat_credentials_merchant')
    .on('compat_credentials')
    .columns(['merchant_id', 'mode', 'protocol'])
    .execute();
  await db.schema
    .alterTable('payments')
    .addColumn('created_via', 'varchar(16)', (c) => c.notNull().defaultTo('api'))
    .execute();
  // ZarinPal's request may be in toman (IRT); its verify's amount is then toman too. Null for rials.
  await db.schema.alterTable('payments').addColumn('protocol_currency', 'char(3)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('protocol_currency').execute();
  await db.schema.alterTable('payments').dropColumn('created_via').execute();
  await db.schema.dropTable('compat_credentials').execute();
}
