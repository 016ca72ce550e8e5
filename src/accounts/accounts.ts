/**
 * Dashboard accounts (docs/DASHBOARD.md): sign-up creates the merchant
 * through the merchants service (with its test key, as the CLI does) and
 * its first user; the address is confirmed by an emailed one-time link;
 * sign-in checks an argon2id hash and is throttled per account and per
 * address, with one generic error for every refusal that could tell an
 * attacker something.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import * as zxcvbnEnglish from '@zxcvbn-ts/language-en';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Mailer } from '../adapters/mailer.ts';
import { counterHits, hitCounter, windowStartOf } from '../db/rate-limits.ts';
import type { UserEmailTokensTable } from '../db/database.ts';
import type { Client } from '@temporalio/client';
import { insertMerchant, merchantName, OnboardingError } from '../merchants/merchants.ts';
import { startOnboarding } from '../temporal/onboarding.ts';

export type AccountErrorCode = 'invalid_email' | 'weak_password' | 'invalid_name' | 'invalid_credentials' | 'not_confirmed' | 'invalid_link' | 'invalid_code';

/**
 * A refusal the dashboard shows in the user's language; the code picks the
 * words. `subject` names the account concerned, when known, for the audit
 * log only: it is never shown.
 */
export class AccountError extends Error {
  override name = 'AccountError';
  constructor(
    readonly code: AccountErrorCode,
    readonly subject?: { userId: string; merchantId: string },
  ) {
    super(code);
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

/** Sign-in failures allowed per window, per account and per address; past them every attempt gets the generic error. */
export const SIGN_IN_LIMITS = { perAccount: 5, perAddress: 20, windowSeconds: 15 * 60 } as const;

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
  if (length < PASSWORD_MIN || length > PASSWORD_MAX || password.trim().toLowerCase() === email) throw new AccountError('weak_password');
  strength ??= new ZxcvbnFactory({ dictionary: { ...zxcvbnCommon.dictionary, ...zxcvbnEnglish.dictionary }, graphs: zxcvbnCommon.adjacencyGraphs });
  if (strength.check(password, [email, email.split('@')[0]!, ...userInputs]).score < PASSWORD_MIN_SCORE) throw new AccountError('weak_password');
}

export interface AccountDeps {
  db: Db;
  config: Pick<Config, 'FEE_BPS' | 'FEE_MIN' | 'FEE_MAX' | 'PUBLIC_BASE_URL' | 'TEMPORAL_TASK_QUEUE'>;
  mailer: Mailer;
  /** Starts the new merchant's onboarding workflow. */
  temporal?: Client;
}

/** Stores a one-time emailed link's token (only its SHA-256) and answers the token for the link. */
export async function issueEmailToken(db: Db, userId: string, purpose: UserEmailTokensTable['purpose'], validHours: number): Promise<string> {
  const token = newToken();
  const now = new Date();
  await db
    .insertInto('user_email_tokens')
    .values({ token_hash: sha256(token), user_id: userId, purpose, created_at: now, expires_at: new Date(now.getTime() + validHours * 3_600_000) })
    .execute();
  return token;
}

/**
 * Uses up an emailed link's token inside `then`'s transaction: a used,
 * expired, unknown or other-purpose token is refused with `invalid_link`, and
 * of two uses at once only one gets through.
 */
export async function useEmailToken<T>(db: Db, token: string, purpose: UserEmailTokensTable['purpose'], then: (trx: Db, userId: string, now: Date) => Promise<T>): Promise<T> {
  const row = await findEmailToken(db, token, purpose);
  const now = new Date();
  return db.transaction().execute(async (trx) => {
    const used = await trx.updateTable('user_email_tokens').set({ used_at: now }).where('token_hash', '=', row.token_hash).where('used_at', 'is', null).executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new AccountError('invalid_link');
    return then(trx, row.user_id, now);
  });
}

/** A usable (unused, unexpired) emailed token of this purpose, or `invalid_link`. */
export async function findEmailToken(db: Db, token: string, purpose: UserEmailTokensTable['purpose']) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw new AccountError('invalid_link');
  const row = await db.selectFrom('user_email_tokens').selectAll().where('token_hash', '=', sha256(token)).where('purpose', '=', purpose).executeTakeFirst();
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
export async function signUp(deps: AccountDeps, input: { email: string; password: string; businessName: string; lang: 'fa' | 'en' }): Promise<void> {
  const email = normalizeEmail(input.email);
  let name: string;
  try {
    name = merchantName(input.businessName);
  } catch (error) {
    if (error instanceof OnboardingError) throw new AccountError('invalid_name');
    throw error;
  }
  checkPassword(input.password, email, [name]);
  const existing = await deps.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (existing !== undefined) {
    await deps.mailer.send({
      to: email,
      subject: input.lang === 'en' ? 'Someone tried to sign up with your address' : 'تلاش برای ثبت‌نام با نشانی شما',
      text:
        input.lang === 'en'
          ? `This address already has a Dargah account. Sign in at ${deps.config.PUBLIC_BASE_URL}/dashboard/sign-in?lang=en\n`
          : `این نشانی از قبل حساب درگاه دارد. از این پیوند وارد شوید: ${deps.config.PUBLIC_BASE_URL}/dashboard/sign-in\n`,
    });
    return;
  }
  const passwordHash = await hashPassword(input.password);
  const userId = randomUUID();
  let merchantId: string;
  try {
    merchantId = await deps.db.transaction().execute(async (trx) => {
      const merchant = await insertMerchant(trx, deps.config, name, undefined);
      await trx
        .insertInto('users')
        .values({ id: userId, merchant_id: merchant.merchant_id, email, password_hash: passwordHash, created_at: new Date() })
        .execute();
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
    await trx.updateTable('users').set({ email_confirmed_at: now }).where('id', '=', userId).where('email_confirmed_at', 'is', null).execute();
  });
}

// Verified against when the address is unknown, so that an unknown address takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

const SIGN_IN_WINDOW_MS = SIGN_IN_LIMITS.windowSeconds * 1000;

/** The sign-in throttle's counters: one per account (by address hash) and one per client address. */
const buckets = (email: string, address: string) => ({
  account: { name: `signin-account:${sha256(email).toString('hex').slice(0, 40)}`, limit: SIGN_IN_LIMITS.perAccount },
  address: { name: `signin-address:${address.slice(0, 60)}`, limit: SIGN_IN_LIMITS.perAddress },
});

/**
 * Whether sign-in for this account or from this address is at its limit in the
 * current window (the shared counter of src/db/rate-limits.ts, the API's too).
 * The second step of a two-factor sign-in is throttled by the same counters.
 */
export async function signInThrottled(db: Db, email: string, address: string): Promise<boolean> {
  const { account, address: addr } = buckets(email, address);
  const hits = await counterHits(db, [account.name, addr.name], windowStartOf(Date.now(), SIGN_IN_WINDOW_MS));
  return (hits.get(account.name) ?? 0) >= account.limit || (hits.get(addr.name) ?? 0) >= addr.limit;
}

/** Counts one failed sign-in (a wrong password, or a wrong second-factor code) against the account and the address. */
export async function countSignInFailure(db: Db, email: string, address: string): Promise<void> {
  const start = windowStartOf(Date.now(), SIGN_IN_WINDOW_MS);
  for (const bucket of Object.values(buckets(email, address))) await hitCounter(db, bucket.name, start, SIGN_IN_WINDOW_MS);
}

export interface SignedInUser {
  userId: string;
  merchantId: string;
  email: string;
  /** Two-factor sign-in is on for this user. */
  twoFactor: boolean;
}

/**
 * Checks an address and password. Unknown address, wrong password and a
 * throttled account or address all fail with `invalid_credentials`; only
 * the right password of an unconfirmed address learns `not_confirmed`.
 */
export async function checkCredentials(db: Db, input: { email: string; password: string; address: string }): Promise<SignedInUser> {
  let email: string;
  try {
    email = normalizeEmail(input.email);
  } catch {
    throw new AccountError('invalid_credentials');
  }
  const user = await db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  const subject = user === undefined ? undefined : { userId: user.id, merchantId: user.merchant_id };
  if (await signInThrottled(db, email, input.address)) throw new AccountError('invalid_credentials', subject);
  const password = input.password.slice(0, PASSWORD_MAX * 4);
  const ok = user !== undefined ? await verify(user.password_hash, password) : await verify(await (dummyHash ??= hash(newToken(), ARGON2)), password).then(() => false);
  if (!ok || user === undefined) {
    await countSignInFailure(db, email, input.address);
    throw new AccountError('invalid_credentials', subject);
  }
  if (user.email_confirmed_at === null) throw new AccountError('not_confirmed', subject);
  return { userId: user.id, merchantId: user.merchant_id, email: user.email, twoFactor: user.totp_enabled_at !== null };
}
