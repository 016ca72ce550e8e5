/**
 * Server-side dashboard sessions in MySQL. The cookie carries a random
 * token; the row keeps only its SHA-256, so a copy of the table opens no
 * session. A session ends after DASHBOARD_SESSION_IDLE_SECONDS without use
 * and DASHBOARD_SESSION_MAX_SECONDS after sign-in, whichever comes first.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import {
  deleteSession,
  deleteUserSessions,
  insertSession,
  sessionWithUser,
  setSessionLastSeen,
  setSessionSecondFactor,
} from '../db/sessions.ts';
import { deleteUserSignInChallenges } from '../db/two-factor.ts';
import { sha256, type SignedInUser } from './accounts.ts';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** last_seen_at is written at most this often per session, not on every request. */
const TOUCH_RESOLUTION_MS = 30_000;

export type SessionConfig = Pick<Config, 'DASHBOARD_SESSION_IDLE_SECONDS' | 'DASHBOARD_SESSION_MAX_SECONDS'>;

/**
 * A new session for a user who just signed in; `replacing` (the browser's previous session, if any) ends.
 * `secondFactor`: the sign-in passed a TOTP or recovery code, which counts as this session's step-up.
 */
export async function startSession(
  db: Db,
  config: SessionConfig,
  userId: string,
  replacing?: string,
  secondFactor = false,
): Promise<string> {
  if (replacing !== undefined) await endSession(db, replacing);
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await insertSession(db, {
    tokenHash: sha256(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + config.DASHBOARD_SESSION_MAX_SECONDS * 1000),
    secondFactorAt: secondFactor ? now : null,
  });
  return token;
}

/** The user of a live session, or undefined (and the row is gone) when it has ended. */
export async function sessionUser(
  db: Db,
  config: SessionConfig,
  token: string | undefined,
): Promise<SignedInUser | undefined> {
  if (token === undefined || !TOKEN_PATTERN.test(token)) return undefined;
  const tokenHash = sha256(token);
  const row = await sessionWithUser(db, tokenHash);
  if (row === undefined) return undefined;
  const now = Date.now();
  if (
    now >= row.expires_at.getTime() ||
    now - row.last_seen_at.getTime() >= config.DASHBOARD_SESSION_IDLE_SECONDS * 1000
  ) {
    await deleteSession(db, tokenHash);
    return undefined;
  }
  if (now - row.last_seen_at.getTime() > TOUCH_RESOLUTION_MS) {
    await setSessionLastSeen(db, tokenHash, new Date(now));
  }
  return {
    userId: row.user_id,
    merchantId: row.merchant_id,
    email: row.email,
    twoFactor: row.totp_enabled_at !== null,
    secondFactorAt: row.second_factor_at,
  };
}

/** This session just proved a second factor (a step-up, or a new authenticator's first code). */
export async function recordSecondFactor(db: Db, token: string): Promise<void> {
  if (!TOKEN_PATTERN.test(token)) return;
  await setSessionSecondFactor(db, sha256(token), new Date());
}

export async function endSession(db: Db, token: string): Promise<void> {
  if (!TOKEN_PATTERN.test(token)) return;
  await deleteSession(db, sha256(token));
}

/** Sign-out everywhere: every session of the user, on every device, ends. */
export async function endAllSessions(db: Db, userId: string): Promise<void> {
  await deleteUserSessions(db, userId);
  // A sign-in half done (password given, second factor pending) ends too.
  await deleteUserSignInChallenges(db, userId);
}
