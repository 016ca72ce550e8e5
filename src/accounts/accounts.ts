/**
 * Dashboard accounts (docs/DASHBOARD.md): sign-up creates the merchant
 * through the merchants service (with its test key, as the CLI does) and
 * its first user; the address is confirmed by an emailed one-time link;
 * sign-in checks an argon2id hash and is throttled per account and per
 * address, with one generic error for every refusal that could tell an
 * attacker something.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEnglish from '@zxcvbn-ts/language-en';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Mailer } from '../adapters/mailer.ts';
import { hitCounter, unhitCounter, windowStartOf } from '../db/rate-limits.ts';
import { clientBucket } from '../domain/client-bucket.ts';
import {
  confirmUserEmail,
  emailTokenByHash,
  insertEmailToken,
  insertUser,
  markEmailTokenUsed,
  userByEmail,
  userIdByEmail,
  userPasswordHash,
} from '../db/accounts.ts';
import type { UserEmailTokensTable } from '../db/database.ts';
import type { Client } from '@temporalio/client';
import { insertMerchant, merchantName, OnboardingError } from '../merchants/merchants.ts';
import { startOnboarding } from '../temporal/onboarding.ts';
import { mailOwner } from './owner-mail.ts';

export type AccountErrorCode =
  | 'invalid_email'
  | 'weak_password'
  | 'invalid_name'
  | 'invalid_credentials'
  | 'not_confirmed'
  | 'invalid_link'
  | 'invalid_code';

/**
 * A refusal the dashboard shows in the user's language; the code picks the
 * words. `subject` names the account concerned, when known, for the audit
 * log only: it is never shown.
 */
export class AccountError extends Error {
  override name = 'AccountError';
  readonly code: AccountErrorCode;
  readonly subject?: { userId: string; merchantId: string };
  constructor(code: AccountErrorCode, subject?: { userId: string; merchantId: string }) {
    super(code);
    this.code = code;
    this.subject = subject;
  }
}

// OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane): about 30 ms here.
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
/** A password's argon2id hash in PHC string form, as stored in users.password_hash. */
export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2);
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;
const EMAIL_PATTERN = /^[^\s@<>()[\],;:"]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}$/;
const CONFIRM_LINK_HOURS = 24;
/** Sign-ups one address may be given per hour; more are answered alike and do nothing. */
export const SIGN_UPS_PER_EMAIL_PER_HOUR = 3;

/**
 * Sign-in failures allowed per window, per account from one address and per address; past them
 * every attempt gets the generic error. Per account from every address together there is no
 * refusal, which would let anyone lock the owner out, but a backoff (signInBackoffMs).
 */
export const SIGN_IN_LIMITS = {
  perAccount: 5,
  perAddress: 20,
  windowSeconds: 15 * 60,
  backoffBaseMs: 250,
  backoffMaxMs: 4_000,
} as const;

/**
 * How long a sign-in on an account waits before its password (or code) is checked, after
 * `failures` failures on the account from any address in the window: nothing for the first
 * `perAccount`, then doubling from `backoffBaseMs` up to `backoffMaxMs`. A delay, never a
 * refusal: a guesser spread over many addresses is slowed, and the owner still gets in.
 */
export function signInBackoffMs(failures: number): number {
  const over = failures - SIGN_IN_LIMITS.perAccount;
  if (over <= 0) return 0;
  return Math.min(SIGN_IN_LIMITS.backoffBaseMs * 2 ** Math.min(over - 1, 16), SIGN_IN_LIMITS.backoffMaxMs);
}

export const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();
export const newToken = () => randomBytes(32).toString('base64url');

export function normalizeEmail(input: string): string {
  const email = input.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) throw new AccountError('invalid_email');
  return email;
}

/** zxcvbn's estimate: 3 ("safely unguessable", about 10^10 guesses) or more is accepted. */
export const PASSWORD_MIN_SCORE = 3;
let strength: ZxcvbnFactory | undefined;

/**
 * 10 to 256 characters, not the address itself, and not easy to guess: zxcvbn-ts with
 * its common and English dictionaries, and the user's own address and business name.
 */
export function checkPassword(password: string, email: string, userInputs: string[] = []): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN || length > PASSWORD_MAX || password.trim().toLowerCase() === email)
    throw new AccountError('weak_password');
  strength ??= new ZxcvbnFactory({
    dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEnglish.dictionary },
    graphs: zxcvbnCommon.adjacencyGraphs,
  });
  if (strength.check(password, [email, email.split('@')[0]!, ...userInputs]).score < PASSWORD_MIN_SCORE)
    throw new AccountError('weak_password');
}

export interface AccountDeps {
  db: Db;
  config: Pick<
    Config,
    | 'FEE_BPS'
    | 'FEE_MIN'
    | 'FEE_MAX'
    | 'PUBLIC_BASE_URL'
    | 'TEMPORAL_TASK_QUEUE'
    | 'DASHBOARD_SIGN_UPS_PER_CLIENT_PER_HOUR'
  >;
  mailer: Mailer;
  /** Starts the new merchant's onboarding workflow. */
  temporal?: Client;
}

/** Stores a one-time emailed link's token (only its SHA-256) and answers the token for the link. */
export async function issueEmailToken(
  db: Db,
  userId: string,
  purpose: UserEmailTokensTable['purpose'],
  validHours: number,
): Promise<string> {
  const token = newToken();
  await storeEmailToken(db, token, userId, purpose, validHours);
  return token;
}

/** Stores a token made beforehand (only its SHA-256). */
export async function storeEmailToken(
  db: Db,
  token: string,
  userId: string,
  purpose: UserEmailTokensTable['purpose'],
  validHours: number,
): Promise<void> {
  const now = new Date();
  await insertEmailToken(db, {
    tokenHash: sha256(token),
    userId,
    purpose,
    createdAt: now,
    expiresAt: new Date(now.getTime() + validHours * 3_600_000),
  });
}

/**
 * Uses up an emailed link's token inside `then`'s transaction: a used,
 * expired, unknown or other-purpose token is refused with `invalid_link`, and
 * of two uses at once only one gets through.
 */
export async function useEmailToken<T>(
  db: Db,
  token: string,
  purpose: UserEmailTokensTable['purpose'],
  then: (trx: Db, userId: string, now: Date) => Promise<T>,
): Promise<T> {
  const row = await findEmailToken(db, token, purpose);
  const now = new Date();
  return db.transaction().execute(async (trx) => {
    if (!(await markEmailTokenUsed(trx, row.token_hash, now))) throw new AccountError('invalid_link');
    return then(trx, row.user_id, now);
  });
}

/** A usable (unused, unexpired) emailed token of this purpose, or `invalid_link`. */
export async function findEmailToken(db: Db, token: string, purpose: UserEmailTokensTable['purpose']) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw new AccountError('invalid_link');
  const row = await emailTokenByHash(db, sha256(token), purpose);
  if (row === undefined || row.used_at !== null || row.expires_at <= new Date()) throw new AccountError('invalid_link');
  return row;
}

async function sendConfirmation(deps: AccountDeps, userId: string, email: string, lang: 'fa' | 'en'): Promise<void> {
  const token = await issueEmailToken(deps.db, userId, 'confirm', CONFIRM_LINK_HOURS);
  const link = `${deps.config.PUBLIC_BASE_URL}/dashboard/confirm?token=${token}${lang === 'en' ? '&lang=en' : ''}`;
  await deps.mailer.send({
    to: email,
    subject: lang === 'en' ? 'Confirm your email address for Dargah' : 'تأیید نشانی ایمیل در درگاه',
    text:
      lang === 'en'
        ? `Welcome to Dargah.\n\nOpen this link within ${CONFIRM_LINK_HOURS} hours to confirm your address:\n${link}\n\nIf you did not sign up, ignore this email.\n`
        : `به درگاه خوش آمدید.\n\nبرای تأیید نشانی ایمیل خود، این پیوند را تا ${CONFIRM_LINK_HOURS} ساعت دیگر باز کنید:\n${link}\n\nاگر شما ثبت‌نام نکرده‌اید، این ایمیل را نادیده بگیرید.\n`,
  });
}

/**
 * A new merchant with its first user and a test key, then the confirmation
 * email. An address that already has an account gets a note instead, and the
 * caller sees the same answer either way (no account enumeration).
 */
export async function signUp(
  deps: AccountDeps,
  input: { email: string; password: string; businessName: string; lang: 'fa' | 'en'; address: string },
): Promise<void> {
  const email = normalizeEmail(input.email);
  let name: string;
  try {
    name = merchantName(input.businessName);
  } catch (error) {
    if (error instanceof OnboardingError) throw new AccountError('invalid_name');
    throw error;
  }
  checkPassword(input.password, email, [name]);
  // Counted first, for every address alike: past the limit nothing is done (no hash, merchant, key, workflow or email), and the answer is the same.
  const hourMs = 3_600_000;
  const hour = windowStartOf(Date.now(), hourMs);
  const perClient = deps.config.DASHBOARD_SIGN_UPS_PER_CLIENT_PER_HOUR;
  if (
    perClient > 0 &&
    (await hitCounter(deps.db, `signup-client:${clientBucket(input.address).slice(0, 60)}`, hour)) > perClient
  )
    return;
  if (
    (await hitCounter(deps.db, `signup-email:${sha256(email).toString('hex').slice(0, 40)}`, hour)) >
    SIGN_UPS_PER_EMAIL_PER_HOUR
  )
    return;
  const existing = await userIdByEmail(deps.db, email);
  if (existing !== undefined) {
    // Capped per recipient (src/accounts/owner-mail.ts): anyone can cause this email.
    await mailOwner({ db: deps.db, mailer: deps.mailer, baseUrl: deps.config.PUBLIC_BASE_URL }, email, input.lang, {
      kind: 'sign_up_tried',
    });
    return;
  }
  const passwordHash = await hashPassword(input.password);
  const userId = randomUUID();
  let merchantId: string;
  try {
    merchantId = await deps.db.transaction().execute(async (trx) => {
      const merchant = await insertMerchant(trx, deps.config, name, undefined);
      await insertUser(trx, {
        id: userId,
        merchantId: merchant.merchant_id,
        email,
        passwordHash,
        createdAt: new Date(),
      });
      return merchant.merchant_id;
    });
  } catch (error) {
    // Two sign-ups with one address at once: the unique index keeps one, the other is answered as above.
    if ((error as { code?: string }).code === 'ER_DUP_ENTRY') return;
    throw error;
  }
  await sendConfirmation(deps, userId, email, input.lang);
  if (deps.temporal !== undefined) {
    // Onboarding's workflow (docs/DASHBOARD.md#onboarding). If Temporal is away now, the merchant's first
    // onboarding step starts it from the record (Update-with-Start), so the account is usable either way.
    await startOnboarding(deps.temporal, deps.config, merchantId, 'account_created').catch(() => undefined);
  }
}

/** Confirms the address of an emailed link; a used, expired or unknown link is refused. */
export async function confirmEmail(db: Db, token: string): Promise<void> {
  await useEmailToken(db, token, 'confirm', async (trx, userId, now) => {
    await confirmUserEmail(trx, userId, now);
  });
}

// Verified against when the address is unknown, so that an unknown address takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

const SIGN_IN_WINDOW_MS = SIGN_IN_LIMITS.windowSeconds * 1000;

/**
 * The sign-in throttle's counters, by the client's address (TRUSTED_PROXIES, src/http/client-address.ts):
 * the account from this address and the address (refused at their limits), and the account from
 * every address (its backoff).
 */
const buckets = (email: string, address: string) => {
  // An IPv6 client by its /64 (src/domain/client-bucket.ts): a subscriber's other addresses are no fresh counters.
  const client = clientBucket(address);
  return {
    account: {
      name: `signin-account:${sha256(`${email}\n${client}`).toString('hex').slice(0, 40)}`,
      limit: SIGN_IN_LIMITS.perAccount,
    },
    address: { name: `signin-address:${client.slice(0, 60)}`, limit: SIGN_IN_LIMITS.perAddress },
    anywhere: { name: `signin-account-all:${sha256(email).toString('hex').slice(0, 40)}`, limit: Infinity },
  };
};

/** A sign-in attempt counted as a failure in advance (src/accounts/accounts.ts#reserveSignInFailure). */
export interface SignInAttempt {
  /** The password or code was right: the failure counted in advance is taken back. */
  succeeded(): Promise<void>;
}

/**
 * Counts one attempt of sign-in (a password, or a second-factor code) as a
 * failure against the account and the address, and then decides: answers
 * undefined when either count is past its limit in the current window (the
 * attempt must be refused unheard), otherwise the attempt, whose `succeeded`
 * takes the count back. Counting first, in one atomic statement per counter
 * (src/db/rate-limits.ts), and only then deciding means that parallel
 * attempts cannot all pass one check made before any of them counted.
 */
export async function reserveSignInFailure(db: Db, email: string, address: string): Promise<SignInAttempt | undefined> {
  const start = windowStartOf(Date.now(), SIGN_IN_WINDOW_MS);
  const byName = buckets(email, address);
  const counted = Object.values(byName);
  let within = true;
  let everywhere = 0;
  for (const bucket of counted) {
    const hits = await hitCounter(db, bucket.name, start);
    if (hits > bucket.limit) within = false;
    if (bucket === byName.anywhere) everywhere = hits;
  }
  if (!within) return undefined;
  // The account's failures from every address never refuse (nobody may lock the owner out); they slow it down.
  const backoff = signInBackoffMs(everywhere - 1);
  if (backoff > 0) await setTimeout(backoff);
  return {
    succeeded: async () => {
      for (const bucket of counted) await unhitCounter(db, bucket.name, start);
    },
  };
}

export interface SignedInUser {
  userId: string;
  merchantId: string;
  email: string;
  /** Two-factor sign-in is on for this user. */
  twoFactor: boolean;
  /** When this session last proved a second factor (src/accounts/step-up.ts); absent or null: never. */
  secondFactorAt?: Date | null;
}

/** Whether `password` is the one of this hash; with no hash (an unknown address) as slow as a wrong password, and false. */
async function passwordMatches(passwordHash: string | undefined, input: string): Promise<boolean> {
  const password = input.slice(0, PASSWORD_MAX * 4);
  if (passwordHash !== undefined) return verify(passwordHash, password);
  await verify(await (dummyHash ??= hash(newToken(), ARGON2)), password);
  return false;
}

/**
 * The password of a signed-in user asked again (before a change of two-step
 * sign-in), counted in the same throttle as sign-in: a wrong one, or one past
 * the limits, is `invalid_credentials`.
 */
export async function confirmPassword(
  db: Db,
  user: { userId: string; email: string },
  password: string,
  address: string,
): Promise<void> {
  const row = await userPasswordHash(db, user.userId);
  const attempt = await reserveSignInFailure(db, user.email, address);
  if (attempt === undefined || !(await passwordMatches(row.password_hash, password)))
    throw new AccountError('invalid_credentials');
  await attempt.succeeded();
}

/**
 * Checks an address and password. Unknown address, wrong password and a
 * throttled account or address all fail with `invalid_credentials`; only
 * the right password of an unconfirmed address learns `not_confirmed`.
 */
export async function checkCredentials(
  db: Db,
  input: { email: string; password: string; address: string },
): Promise<SignedInUser> {
  let email: string;
  try {
    email = normalizeEmail(input.email);
  } catch {
    throw new AccountError('invalid_credentials');
  }
  const user = await userByEmail(db, email);
  const subject = user === undefined ? undefined : { userId: user.id, merchantId: user.merchant_id };
  const attempt = await reserveSignInFailure(db, email, input.address);
  if (attempt === undefined) throw new AccountError('invalid_credentials', subject);
  if (!(await passwordMatches(user?.password_hash, input.password)) || user === undefined)
    throw new AccountError('invalid_credentials', subject);
  await attempt.succeeded();
  if (user.email_confirmed_at === null) throw new AccountError('not_confirmed', subject);
  return { userId: user.id, merchantId: user.merchant_id, email: user.email, twoFactor: user.totp_enabled_at !== null };
}
