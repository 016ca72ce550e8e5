/**
 * The rows of two-step sign-in (docs/SECURITY.md#two-factor-sign-in): the TOTP
 * columns of `users` (secrets sealed by src/accounts/secret-box.ts), the
 * hashes of `user_recovery_codes`, and `user_sign_in_challenges` (a sign-in
 * whose password was right, waiting for its code). Which code is accepted is
 * the service's rule (src/accounts/two-factor.ts); this module only reads and
 * writes the rows. The conditional writes answer whether they took effect, so
 * that of two uses at once only one wins.
 */
import type { Db } from './database.ts';

export function userTotpEnabledAt(db: Db, userId: string) {
  return db.selectFrom('users').select('totp_enabled_at').where('id', '=', userId).executeTakeFirstOrThrow();
}

/** The user's recovery codes not used yet. */
export async function unusedRecoveryCodeCount(db: Db, userId: string): Promise<number> {
  const left = await db
    .selectFrom('user_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(left.n);
}

/** The sealed secret being set up (null if none) and whether two-step sign-in is on. */
export function userPendingTotp(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['totp_pending_secret', 'totp_enabled_at'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

export function userPendingTotpSecret(db: Db, userId: string) {
  return db.selectFrom('users').select(['totp_pending_secret']).where('id', '=', userId).executeTakeFirstOrThrow();
}

export async function setPendingTotpSecret(db: Db, userId: string, sealedSecret: string): Promise<void> {
  await db.updateTable('users').set({ totp_pending_secret: sealedSecret }).where('id', '=', userId).execute();
}

/**
 * Makes the pending secret the user's TOTP secret, with `step` as the last accepted one, provided
 * the pending secret is still `pendingSecret`; false when it changed meanwhile.
 */
export async function enableTotp(
  db: Db,
  userId: string,
  pendingSecret: string,
  now: Date,
  step: number,
): Promise<boolean> {
  const set = await db
    .updateTable('users')
    .set({ totp_secret: pendingSecret, totp_pending_secret: null, totp_enabled_at: now, totp_last_step: step })
    .where('id', '=', userId)
    .where('totp_pending_secret', '=', pendingSecret)
    .executeTakeFirst();
  return Number(set.numUpdatedRows) === 1;
}

/** What a code is checked against: the sealed TOTP secret, the last accepted step, the recovery codes' key. */
export function userSecondFactor(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .select(['totp_secret', 'totp_last_step', 'recovery_code_key'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** Records `step` as the last accepted TOTP step if it is newer than the stored one; false otherwise. */
export async function takeTotpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const taken = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** Uses up the user's unused recovery code of this hash; false if there is none. */
export async function useRecoveryCode(db: Db, userId: string, codeHash: Buffer, now: Date): Promise<boolean> {
  const used = await db
    .updateTable('user_recovery_codes')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** The key the user's recovery codes are hashed under (src/accounts/two-factor.ts#recoveryHash). */
export async function setRecoveryCodeKey(db: Db, userId: string, key: Buffer): Promise<void> {
  await db.updateTable('users').set({ recovery_code_key: key }).where('id', '=', userId).execute();
}

export async function deleteUserRecoveryCodes(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
}

export async function insertRecoveryCodes(
  db: Db,
  userId: string,
  codeHashes: Buffer[],
  createdAt: Date,
): Promise<void> {
  await db
    .insertInto('user_recovery_codes')
    .values(codeHashes.map((codeHash) => ({ code_hash: codeHash, user_id: userId, created_at: createdAt })))
    .execute();
}

/** Two-step sign-in off: the secrets, the last step and the recovery codes' key cleared. */
export async function clearTotp(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({
      totp_secret: null,
      totp_pending_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
      recovery_code_key: null,
    })
    .where('id', '=', userId)
    .execute();
}

export async function insertSignInChallenge(
  db: Db,
  row: { tokenHash: Buffer; userId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('user_sign_in_challenges')
    .values({ token_hash: row.tokenHash, user_id: row.userId, created_at: row.createdAt, expires_at: row.expiresAt })
    .execute();
}

/** The pending sign-in of this token hash with its user; undefined if none (whether it still stands is the caller's to decide). */
export function signInChallengeWithUser(db: Db, tokenHash: Buffer) {
  return db
    .selectFrom('user_sign_in_challenges')
    .innerJoin('users', 'users.id', 'user_sign_in_challenges.user_id')
    .select([
      'user_sign_in_challenges.token_hash',
      'user_sign_in_challenges.expires_at',
      'user_sign_in_challenges.failures',
      'users.id as user_id',
      'users.merchant_id',
      'users.email',
    ])
    .where('user_sign_in_challenges.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Counts one more code against the pending sign-in if it has fewer than `maxFailures` and has not expired by `now`; false otherwise. */
export async function countSignInChallengeFailure(
  db: Db,
  tokenHash: Buffer,
  maxFailures: number,
  now: Date,
): Promise<boolean> {
  const counted = await db
    .updateTable('user_sign_in_challenges')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('token_hash', '=', tokenHash)
    .where('failures', '<', maxFailures)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(counted.numUpdatedRows) === 1;
}

/** Ends the pending sign-in; false if it was gone already. */
export async function deleteSignInChallenge(db: Db, tokenHash: Buffer): Promise<boolean> {
  const ended = await db.deleteFrom('user_sign_in_challenges').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(ended.numDeletedRows) === 1;
}

/** Every pending sign-in of the user (password given, second factor pending). */
export async function deleteUserSignInChallenges(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('user_sign_in_challenges').where('user_id', '=', userId).execute();
}
