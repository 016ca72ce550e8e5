/**
 * The rows of `user_sessions`: the dashboard's server-side sessions, each by
 * the SHA-256 of its cookie's token. When a session ends is the service's rule
 * (src/accounts/sessions.ts); this module only reads and writes the rows.
 */
import type { Db } from './database.ts';

export async function insertSession(
  db: Db,
  row: {
    tokenHash: Buffer;
    userId: string;
    createdAt: Date;
    lastSeenAt: Date;
    expiresAt: Date;
    secondFactorAt: Date | null;
  },
): Promise<void> {
  await db
    .insertInto('user_sessions')
    .values({
      token_hash: row.tokenHash,
      user_id: row.userId,
      created_at: row.createdAt,
      last_seen_at: row.lastSeenAt,
      expires_at: row.expiresAt,
      second_factor_at: row.secondFactorAt,
    })
    .execute();
}

/** The session of this token hash with its user; undefined if none (whether it is still live is the caller's to decide). */
export function sessionWithUser(db: Db, tokenHash: Buffer) {
  return db
    .selectFrom('user_sessions')
    .innerJoin('users', 'users.id', 'user_sessions.user_id')
    .select([
      'user_sessions.last_seen_at',
      'user_sessions.expires_at',
      'users.id as user_id',
      'users.merchant_id',
      'users.email',
      'users.totp_enabled_at',
      'user_sessions.second_factor_at',
    ])
    .where('user_sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function deleteSession(db: Db, tokenHash: Buffer): Promise<void> {
  await db.deleteFrom('user_sessions').where('token_hash', '=', tokenHash).execute();
}

export async function setSessionLastSeen(db: Db, tokenHash: Buffer, lastSeenAt: Date): Promise<void> {
  await db.updateTable('user_sessions').set({ last_seen_at: lastSeenAt }).where('token_hash', '=', tokenHash).execute();
}

export async function setSessionSecondFactor(db: Db, tokenHash: Buffer, secondFactorAt: Date): Promise<void> {
  await db
    .updateTable('user_sessions')
    .set({ second_factor_at: secondFactorAt })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/** Every session of the user, on every device. */
export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('user_sessions').where('user_id', '=', userId).execute();
}
