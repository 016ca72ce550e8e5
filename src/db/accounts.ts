/**
 * The rows of dashboard accounts (docs/DASHBOARD.md): `users` (the address, the
 * password's hash, the confirmation) and `user_email_tokens` (the emailed
 * one-time links, only their SHA-256). The rules (who may sign in, which link
 * is usable) are the service's (src/accounts/accounts.ts); this module only
 * reads and writes the rows. Two-step sign-in's columns are in two-factor.ts.
 */
import type { Db, UserEmailTokensTable } from './database.ts';

/** Stores an emailed link's token by its hash. */
export async function insertEmailToken(
  db: Db,
  row: {
    tokenHash: Buffer;
    userId: string;
    purpose: UserEmailTokensTable['purpose'];
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('user_email_tokens')
    .values({
      token_hash: row.tokenHash,
      user_id: row.userId,
      purpose: row.purpose,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** The emailed token of this hash and purpose, used or not; undefined if none. */
export function emailTokenByHash(db: Db, tokenHash: Buffer, purpose: UserEmailTokensTable['purpose']) {
  return db
    .selectFrom('user_email_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
}

/** Uses up the token of this hash if it is still unused; false when it was used already (of two uses at once, one gets true). */
export async function markEmailTokenUsed(db: Db, tokenHash: Buffer, now: Date): Promise<boolean> {
  const used = await db
    .updateTable('user_email_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Uses up every still unused token of the user for this purpose. */
export async function markUserEmailTokensUsed(
  db: Db,
  userId: string,
  purpose: UserEmailTokensTable['purpose'],
  now: Date,
): Promise<void> {
  await db
    .updateTable('user_email_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** The id of the user of this (normalized) address; undefined if none. */
export function userIdByEmail(db: Db, email: string) {
  return db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
}

/** The user of this (normalized) address, and its merchant; undefined if none. */
export function userAccountByEmail(db: Db, email: string) {
  return db.selectFrom('users').select(['id', 'merchant_id']).where('email', '=', email).executeTakeFirst();
}

/** The whole row of the user of this (normalized) address; undefined if none. */
export function userByEmail(db: Db, email: string) {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** A new user of the merchant; a taken address fails on the unique index (ER_DUP_ENTRY). */
export async function insertUser(
  db: Db,
  row: { id: string; merchantId: string; email: string; passwordHash: string; createdAt: Date },
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: row.id,
      merchant_id: row.merchantId,
      email: row.email,
      password_hash: row.passwordHash,
      created_at: row.createdAt,
    })
    .execute();
}

/** The user's address counts as confirmed from `now`, unless it was confirmed before. */
export async function confirmUserEmail(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_confirmed_at: now })
    .where('id', '=', userId)
    .where('email_confirmed_at', 'is', null)
    .execute();
}

/** The user's password hash; throws if there is no such user. */
export function userPasswordHash(db: Db, userId: string) {
  return db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
}

export async function setUserPassword(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** The confirmed addresses of the merchant's users (its owner): whom an operator's live change to the account is mailed to. */
export async function merchantUserEmails(db: Db, merchantId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('merchant_id', '=', merchantId)
    .where('email_confirmed_at', 'is not', null)
    .execute();
  return rows.map((r) => r.email);
}
