/**
 * Two-factor sign-in (docs/SECURITY.md#two-factor-sign-in): TOTP codes
 * (RFC 6238: HMAC-SHA1, 6 digits, 30-second steps, one step of clock drift
 * either way, as every authenticator app uses) computed by `otpauth`, and ten
 * one-time recovery codes. A code is accepted once: the step of the last
 * accepted code is kept, and an older or equal step is refused.
 *
 * After the right password a user with two-factor sign-in gets a challenge
 * (a random token in its own cookie, its SHA-256 in MySQL, 5 minutes, 5
 * wrong codes), not a session; the session starts only when the code is right.
 */
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../db/database.ts';
import {
  clearTotp,
  countSignInChallengeFailure,
  deleteSignInChallenge,
  deleteUserRecoveryCodes,
  enableTotp,
  insertRecoveryCodes,
  insertSignInChallenge,
  setPendingTotpSecret,
  setRecoveryCodeKey,
  signInChallengeWithUser,
  takeTotpStep,
  unusedRecoveryCodeCount,
  useRecoveryCode,
  userPendingTotp,
  userPendingTotpSecret,
  userSecondFactor,
  userTotpEnabledAt,
} from '../db/two-factor.ts';
import { AccountError, reserveSignInFailure, sha256, type SignedInUser } from './accounts.ts';
import type { SecretBox } from './secret-box.ts';

export const TOTP_PARAMETERS = { issuer: 'Dargah', algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** Steps of clock drift accepted either side of now. */
const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** A pending sign-in's second step must come within this time and these many wrong codes. */
export const CHALLENGE = { seconds: 5 * 60, failures: 5 } as const;

const totpOf = (secret: string, label = '') =>
  new TOTP({ ...TOTP_PARAMETERS, label, secret: Secret.fromBase32(secret) });

/** A new random TOTP secret (160 bits, RFC 4226's recommended length), in base32 as apps take it. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app reads (from the QR code or pasted). */
export const totpUri = (secret: string, email: string): string => totpOf(secret, email).toString();

/**
 * The time step of `code` if it is the secret's code now (within the drift
 * allowed) and newer than `lastStep`; undefined otherwise. Pure: `now` in ms.
 */
export function acceptedStep(secret: string, code: string, now: number, lastStep: number | null): number | undefined {
  const token = code.replace(/\s+/g, '');
  if (!/^[0-9]{6}$/.test(token)) return undefined;
  const delta = totpOf(secret).validate({ token, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return undefined;
  const step = Math.floor(now / 1000 / TOTP_PARAMETERS.period) + delta;
  return lastStep !== null && step <= lastStep ? undefined : step;
}

// Recovery codes: 10 characters from an alphabet without look-alikes (50 bits), shown as xxxxx-xxxxx.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_LENGTH; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What is hashed: the code without case, spaces or dashes, so "ABCDE FGHJK" is the same code. */
export const normalizeRecoveryCode = (input: string): string => input.toLowerCase().replace(/[\s-]+/g, '');

/**
 * A recovery code's stored hash: HMAC-SHA-256 under the user's own random key
 * (users.recovery_code_key), so one code hashes differently for every user and
 * a table of precomputed hashes fits no one. Codes made before that key existed
 * (key null) keep the old shared-prefix SHA-256 until the user makes new ones.
 */
export const recoveryHash = (key: Buffer | null, input: string): Buffer =>
  key === null
    ? sha256(`recovery:${normalizeRecoveryCode(input)}`)
    : createHmac('sha256', key).update(normalizeRecoveryCode(input)).digest();

/** New recovery codes for a user, inside `trx`: a new key, the old codes gone; answers the codes, to show once. */
async function replaceRecoveryCodes(trx: Db, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const key = randomBytes(32);
  await setRecoveryCodeKey(trx, userId, key);
  await deleteUserRecoveryCodes(trx, userId);
  await insertRecoveryCodes(
    trx,
    userId,
    codes.map((c) => recoveryHash(key, c)),
    now,
  );
  return codes;
}

export interface TwoFactorDeps {
  db: Db;
  box: SecretBox;
}

export async function twoFactorStatus(
  db: Db,
  userId: string,
): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const user = await userTotpEnabledAt(db, userId);
  const recoveryCodesLeft = await unusedRecoveryCodeCount(db, userId);
  return { enabled: user.totp_enabled_at !== null, recoveryCodesLeft };
}

/** The secret being set up (a new one if none is pending), to show with its URI. */
export async function pendingTotpSecret({ db, box }: TwoFactorDeps, userId: string): Promise<string> {
  const user = await userPendingTotp(db, userId);
  if (user.totp_pending_secret !== null) return box.open(user.totp_pending_secret, userId);
  const secret = newTotpSecret();
  await setPendingTotpSecret(db, userId, box.seal(secret, userId));
  return secret;
}

/**
 * Turns two-factor sign-in on once the first code of the pending secret is
 * right; answers the new recovery codes, shown once (only their hashes are kept).
 */
export async function enableTwoFactor({ db, box }: TwoFactorDeps, userId: string, code: string): Promise<string[]> {
  const user = await userPendingTotpSecret(db, userId);
  const pending = user.totp_pending_secret;
  if (pending === null) throw new AccountError('invalid_code');
  const step = acceptedStep(box.open(pending, userId), code, Date.now(), null);
  if (step === undefined) throw new AccountError('invalid_code');
  const now = new Date();
  return db.transaction().execute(async (trx) => {
    if (!(await enableTotp(trx, userId, pending, now, step))) throw new AccountError('invalid_code');
    return replaceRecoveryCodes(trx, userId, now);
  });
}

/** New recovery codes (the old ones stop working) once a current code (or a recovery code) is right; answers them, to show once. */
export async function renewRecoveryCodes(
  deps: TwoFactorDeps,
  userId: string,
  code: string,
): Promise<{ codes: string[]; used: 'totp' | 'recovery_code' }> {
  const used = await useSecondFactor(deps, userId, code);
  return { codes: await deps.db.transaction().execute((trx) => replaceRecoveryCodes(trx, userId, new Date())), used };
}

/**
 * Checks a second-factor code for a user with two-factor sign-in on: a TOTP
 * code not used before, or an unused recovery code (which is then used up).
 * Answers which it was; anything else is `invalid_code`.
 */
export async function useSecondFactor(
  { db, box }: TwoFactorDeps,
  userId: string,
  code: string,
): Promise<'totp' | 'recovery_code'> {
  const user = await userSecondFactor(db, userId);
  if (user.totp_secret === null) throw new AccountError('invalid_code');
  const lastStep = user.totp_last_step === null ? null : Number(user.totp_last_step);
  const step = acceptedStep(box.open(user.totp_secret, userId), code, Date.now(), lastStep);
  if (step !== undefined) {
    // Conditional on the step: of two uses of one code at once, one wins.
    if (await takeTotpStep(db, userId, step)) return 'totp';
    throw new AccountError('invalid_code');
  }
  const normalized = normalizeRecoveryCode(code);
  if (normalized.length === RECOVERY_LENGTH) {
    if (await useRecoveryCode(db, userId, recoveryHash(user.recovery_code_key, normalized), new Date()))
      return 'recovery_code';
  }
  throw new AccountError('invalid_code');
}

/**
 * Runs a code check of a signed-in user within the sign-in throttle: counted
 * first (past the limits: `invalid_code` unheard), taken back when right.
 */
export async function throttledCodeCheck<T>(
  db: Db,
  user: { email: string },
  address: string,
  check: () => Promise<T>,
): Promise<T> {
  const attempt = await reserveSignInFailure(db, user.email, address);
  if (attempt === undefined) throw new AccountError('invalid_code');
  const result = await check();
  await attempt.succeeded();
  return result;
}

/** Turns two-factor sign-in off; needs a current code (or a recovery code: the device may be lost). */
export async function disableTwoFactor(
  deps: TwoFactorDeps,
  userId: string,
  code: string,
): Promise<'totp' | 'recovery_code'> {
  const used = await useSecondFactor(deps, userId, code);
  await deps.db.transaction().execute(async (trx) => {
    await clearTotp(trx, userId);
    await deleteUserRecoveryCodes(trx, userId);
  });
  return used;
}

const CHALLENGE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A pending sign-in for a user whose password was right: the token goes in its own cookie. */
export async function startChallenge(db: Db, userId: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await insertSignInChallenge(db, {
    tokenHash: sha256(token),
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHALLENGE.seconds * 1000),
  });
  return token;
}

async function challengeRow(db: Db, token: string | undefined) {
  if (token === undefined || !CHALLENGE_TOKEN.test(token)) return undefined;
  const row = await signInChallengeWithUser(db, sha256(token));
  if (row === undefined || row.expires_at <= new Date() || row.failures >= CHALLENGE.failures) return undefined;
  return row;
}

/** Whether the pending sign-in still stands (for the code page). */
export async function challengeStands(db: Db, token: string | undefined): Promise<boolean> {
  return (await challengeRow(db, token)) !== undefined;
}

export type ChallengeResult = { user: SignedInUser; method: 'totp' | 'recovery_code' };

/**
 * The second step of a sign-in. A right code ends the challenge and answers
 * the user (the caller starts the session); a wrong one counts against the
 * challenge and the sign-in throttle. A missing, expired or used-up challenge
 * is `invalid_link` (start again); a wrong code or a throttled account
 * `invalid_code`, whose `subject` names the account for the audit log.
 */
export async function passChallenge(
  deps: TwoFactorDeps,
  token: string | undefined,
  code: string,
  address: string,
): Promise<ChallengeResult> {
  const row = await challengeRow(deps.db, token);
  if (row === undefined) throw new AccountError('invalid_link');
  const subject = { userId: row.user_id, merchantId: row.merchant_id };
  // Count first, atomically, then decide: of any number of codes sent at once, only the first
  // CHALLENGE.failures get a slot of this pending sign-in; the rest find it used up.
  if (!(await countSignInChallengeFailure(deps.db, row.token_hash, CHALLENGE.failures, new Date())))
    throw new AccountError('invalid_link');
  const attempt = await reserveSignInFailure(deps.db, row.email, address);
  if (attempt === undefined) throw new AccountError('invalid_code', subject);
  let method: 'totp' | 'recovery_code';
  try {
    method = await useSecondFactor(deps, row.user_id, code);
  } catch (error) {
    if (!(error instanceof AccountError)) throw error;
    throw new AccountError('invalid_code', subject);
  }
  await attempt.succeeded();
  // Two right codes at once for one challenge: only one becomes a session.
  if (!(await deleteSignInChallenge(deps.db, row.token_hash))) throw new AccountError('invalid_link');
  return { user: { userId: row.user_id, merchantId: row.merchant_id, email: row.email, twoFactor: true }, method };
}
