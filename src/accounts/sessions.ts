/**
 * Server-side dashboard sessions in MySQL. The cookie carries a random
 * token; the row keeps only its SHA-256, so a copy of the table opens no
 * session. A session ends after DASHBOARD_SESSION_IDLE_SECONDS without use
 * and DASHBOARD_SESSION_MAX_SECONDS after sign-in, whichever comes first.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { sha256, type SignedInUser } from './accounts.ts';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_RESOLUTION_MS = 30_000;

export type SessionConfig = Pick<Config, 'DASHBOARD_SESSION_IDLE_SECONDS' | 'DASHBOARD_SESSION_MAX_SECONDS'>;

/**
 * A new session for a user who just signed in; `replacing` (the browser's previous session, if any) ends.
 * `secondFactor`: the sign-in passed a TOTP or recovery code, which counts as this session's step-up.
 */
export async function startSession(db: Db, config: SessionConfig, userId: string, replacing?: string, secondFactor = false): Promise<string> {
  if (replacing !== undefined) await endSession(db, replacing);
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await db
    .insertInto('user_sessions')
    .values({ token_hash: sha256(token), user_id: userId, created_at: now, last_seen_at: now, expires_at: new Date(now.getTime() + config.DASHBOARD_SESSION_MAX_SECONDS * 1000), second_factor_at: secondFactor ? now : null })
    .execute();
  return token;
}

/** The user of a live session, or undefined (and the row is gone) when it has ended. */
export async function sessionUser(db: Db, config: SessionConfig, token: string | undefined): Promise<SignedInUser | undefined> {
  if (token === undefined || !TOKEN_PATTERN.test(token)) return undefined;
  const tokenHash = sha256(token);
  const row = await db
    .selectFrom('user_sessions')
    .innerJoin('users', 'users.id', 'user_sessions.user_id')
    .select(['user_sessions.last_seen_at', 'user_sessions.expires_at', 'users.id as user_id', 'users.merchant_id', 'users.email', 'users.totp_enabled_at', 'user_sessions.second_factor_at'])
    .where('user_sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const now = Date.now();
  if (now >= row.expires_at.getTime() || now - row.last_seen_at.getTime() >= config.DASHBOARD_SESSION_IDLE_SECONDS * 1000) {
    await db.deleteFrom('user_sessions').where('token_hash', '=', tokenHash).execute();
    return undefined;
  }
  if (now - row.last_seen_at.getTime() > TOUCH_RESOLUTION_MS) {
    await db.updateTable('user_sessions').set({ last_seen_at: new Date(now) }).where('token_hash', '=', tokenHash).execute();
  }
  return { userId: row.user_id, merchantId: row.merchant_id, email: row.email, twoFactor: row.totp_enabled_at !== null, secondFactorAt: row.second_factor_at };
}

/** This session just proved a second factor (a step-up, or a new authenticator's first code). */
export async function recordSecondFactor(db: Db, token: string): Promise<void> {
  if (!TOKEN_PATTERN.test(token)) return;
  await db.updateTable('user_sessions').set({ second_factor_at: new Date() }).where('token_hash', '=', sha256(token)).execute();
}

export async function endSession(db: Db, token: string): Promise<void> {
  if (!TOKEN_PATTERN.test(token)) return;
  await db.deleteFrom('user_sessions').where('token_hash', '=', sha256(token)).execute();
}

/** Sign-out everywhere: every session of the user, on every device, ends. */
export async function endAllSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('user_sessions').where('user_id', '=', userId).execute();
  // A sign-in half done (password given, second factor pending) ends too.
  await db.deleteFrom('user_sign_in_challenges').where('user_id', '=', userId).execute();
}
