import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The people who sign in to the dashboard; each belongs to one merchant.
  await db.schema
    .createTable('users')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    // argon2id in PHC string form; never the password.
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('email_confirmed_at', sql`datetime(3)`)
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_merchant').on('users').column('merchant_id').execute();

  // Server-side sessions: the cookie holds a random token, the row only its SHA-256.
  await db.schema
    .createTable('user_sessions')
    .addColumn('token_hash', sql`binary(32)`, (c) => c.primaryKey())
    .addColumn('user_id', 'char(36)', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('last_seen_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('expires_at', sql`datetime(3)`, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_sessions_user').on('user_sessions').column('user_id').execute();

  // One-time links sent by email (confirm the address, reset the password): only their SHA-256 is kept.
  await db.schema
    .createTable('user_email_tokens')
    .addColumn('token_hash', sql`binary(32)`, (c) => c.primaryKey())
    .addColumn('user_id', 'char(36)', (c) => c.notNull().references('users.id'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('expires_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('used_at', sql`datetime(3)`)
    .execute();
  await db.schema.createIndex('user_email_tokens_user').on('user_email_tokens').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_email_tokens').execute();
  await db.schema.dropTable('user_sessions').execute();
  await db.schema.dropTable('users').execute();
}
