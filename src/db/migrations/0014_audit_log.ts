import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // What was done in a merchant's dashboard, by whom, from where: appended, never changed.
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigint', (c) => c.primaryKey().autoIncrement().unsigned())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    // Null for an action that belongs to no merchant yet (a sign-in with an unknown address).
    .addColumn('merchant_id', 'char(36)')
    .addColumn('user_id', 'char(36)')
    .addColumn('action', 'varchar(40)', (c) => c.notNull())
    // A few words about the object (a key's prefix, a domain); never a secret.
    .addColumn('detail', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('audit_log_merchant').on('audit_log').columns(['merchant_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
}
