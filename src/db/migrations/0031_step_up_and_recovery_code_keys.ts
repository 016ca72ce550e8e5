import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // When this session last proved a second factor (a TOTP or recovery code at sign-in or at a step-up):
  // live actions need one within the last few minutes (src/accounts/step-up.ts). Null: the password only.
  await db.schema
    .alterTable('user_sessions')
    .addColumn('second_factor_at', sql`datetime(3)`)
    .execute();
  // Each user's own random HMAC key for their recovery codes' hashes, so that one code hashes differently
  // for every user. Null: codes made before this key existed, hashed with the old shared prefix.
  await db.schema
    .alterTable('users')
    .addColumn('recovery_code_key', sql`binary(32)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('recovery_code_key').execute();
  await db.schema.alterTable('user_sessions').dropColumn('second_factor_at').execute();
}
