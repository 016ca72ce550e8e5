import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Two-factor sign-in (TOTP, RFC 6238). The secrets are sealed (AES-256-GCM) when DASHBOARD_SECRETS_KEY is set.
  await db.schema
    .alterTable('users')
    .addColumn('totp_secret', 'varchar(255)')
    // A secret being set up: shown to the user, active only once a first code confirms it.
    .addColumn('totp_pending_secret', 'varchar(255)')
    .addColumn('totp_enabled_at', sql`datetime(3)`)
    // The last 30-second step whose code was accepted: a code is never accepted twice.
    .addColumn('totp_last_step', 'bigint')
    .execute();

  // One-time recovery codes: only their SHA-256 is kept.
  await db.schema
    .createTable('user_recovery_codes')
    .addColumn('code_hash', sql`binary(32)`, (c) => c.primaryKey())
    .addColumn('user_id', 'char(36)', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('used_at', sql`datetime(3)`)
    .execute();
  await db.schema.createIndex('user_recovery_codes_user').on('user_recovery_codes').column('user_id').execute();

  // A sign-in whose password was right and which still needs its second factor: not a session.
  await db.schema
    .createTable('user_sign_in_challenges')
    .addColumn('token_hash', sql`binary(32)`, (c) => c.primaryKey())
    .addColumn('user_id', 'char(36)', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('expires_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull().unsigned().defaultTo(0))
    .execute();
  await db.schema.createIndex('user_sign_in_challenges_user').on('user_sign_in_challenges').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_sign_in_challenges').execute();
  await db.schema.dropTable('user_recovery_codes').execute();
  await db.schema
    .alterTable('users')
    .dropColumn('totp_last_step')
    .dropColumn('totp_enabled_at')
    .dropColumn('totp_pending_secret')
    .dropColumn('totp_secret')
    .execute();
}
