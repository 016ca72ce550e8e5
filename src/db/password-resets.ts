/** What a password reset reads of the user (src/accounts/password-reset.ts); its writes are accounts.ts's, sessions.ts's and two-factor.ts's. */
import type { Db } from './database.ts';

/** The user's address, merchant and two-step state, and the merchant's name (the new password must not be guessable from it); throws if none. */
export function userForPasswordReset(db: Db, userId: string) {
  return db
    .selectFrom('users')
    .innerJoin('merchants', 'merchants.id', 'users.merchant_id')
    .select(['users.id', 'users.email', 'users.merchant_id', 'users.totp_enabled_at', 'merchants.name'])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
}
