/**
 * Password reset by email (docs/SECURITY.md#password-reset): the "forgot
 * password" form sends a one-time link (valid RESET_LINK_HOURS, only its
 * SHA-256 stored) to an address that has an account, and the form answers
 * the same whatever the address. The new password is checked as at sign-up;
 * setting it ends every session of the user.
 */
import type { Db } from '../db/database.ts';
import { confirmUserEmail, markUserEmailTokensUsed, setUserPassword, userAccountByEmail } from '../db/accounts.ts';
import { userForPasswordReset } from '../db/password-resets.ts';
import { deleteUserSessions } from '../db/sessions.ts';
import { deleteUserSignInChallenges } from '../db/two-factor.ts';
import { sendInBackground } from '../adapters/mailer.ts';
import { hitCounter, windowStartOf } from '../db/rate-limits.ts';
import type { Logger } from '../logger.ts';
import {
  AccountError,
  checkPassword,
  findEmailToken,
  hashPassword,
  newToken,
  normalizeEmail,
  sha256,
  storeEmailToken,
  useEmailToken,
  type AccountDeps,
} from './accounts.ts';

export const RESET_LINK_HOURS = 1;
/** Reset emails one account may be sent per hour; more asks are answered alike and send nothing (no mail bombing). */
export const RESETS_PER_HOUR = 3;

export interface AccountRef {
  userId: string;
  merchantId: string;
}

/** A password reset done: the account, its address, and whether two-step sign-in stays on (the owner is then told). */
export interface ResetDone extends AccountRef {
  email: string;
  twoFactorKept: boolean;
}

/**
 * Sends a reset link when the address has an account. Answers the account for
 * the audit log (undefined otherwise); the caller shows the same page either
 * way. Any address costs the same work before the answer: the normalized
 * address is looked up and counted, and a token is made; only a known
 * address's token is stored, and its mail goes out in the background, so
 * neither the answer nor its time tells whether the address has an account.
 */
export async function requestPasswordReset(
  deps: AccountDeps & { logger: Logger },
  input: { email: string; lang: 'fa' | 'en' },
): Promise<AccountRef | undefined> {
  let email: string | undefined;
  try {
    email = normalizeEmail(input.email);
  } catch {
    email = undefined;
  }
  const user = email === undefined ? undefined : await userAccountByEmail(deps.db, email);
  const hourMs = 3_600_000;
  const counted = sha256(email ?? input.email.slice(0, 254))
    .toString('hex')
    .slice(0, 40);
  const sent = await hitCounter(deps.db, `reset-account:${counted}`, windowStartOf(Date.now(), hourMs));
  const token = newToken();
  if (user === undefined || email === undefined) return undefined;
  const account = { userId: user.id, merchantId: user.merchant_id };
  if (sent > RESETS_PER_HOUR) return account;
  await storeEmailToken(deps.db, token, user.id, 'reset', RESET_LINK_HOURS);
  const link = `${deps.config.PUBLIC_BASE_URL}/dashboard/reset?token=${token}${input.lang === 'en' ? '&lang=en' : ''}`;
  sendInBackground(
    deps.mailer,
    {
      to: email,
      subject: input.lang === 'en' ? 'Reset your Dargah password' : 'بازنشانی گذرواژهٔ درگاه',
      text:
        input.lang === 'en'
          ? `Someone asked to reset the password of your Dargah account.\n\nOpen this link within ${RESET_LINK_HOURS} hour to choose a new password:\n${link}\n\nIf it was not you, ignore this email: your password stays as it is.\n`
          : `درخواستی برای بازنشانی گذرواژهٔ حساب درگاه شما رسید.\n\nبرای گزینش گذرواژهٔ تازه، این پیوند را تا ${RESET_LINK_HOURS} ساعت دیگر باز کنید:\n${link}\n\nاگر شما درخواست نکرده‌اید، این ایمیل را نادیده بگیرید؛ گذرواژهٔ شما تغییری نمی‌کند.\n`,
    },
    deps.logger,
  );
  return account;
}

/** Whether a reset link can still be used (to show its form or say it cannot). */
export async function checkResetLink(db: Db, token: string): Promise<void> {
  await findEmailToken(db, token, 'reset');
}

/**
 * Sets the new password of a reset link's user, uses the link up (and every
 * other reset link of that user), and ends all their sessions and pending
 * sign-ins. A weak password is refused with the link still usable.
 */
export async function resetPassword(db: Db, token: string, password: string): Promise<ResetDone> {
  const link = await findEmailToken(db, token, 'reset');
  const user = await userForPasswordReset(db, link.user_id);
  checkPassword(password, user.email, [user.name]);
  const passwordHash = await hashPassword(password);
  return useEmailToken(db, token, 'reset', async (trx, userId, now) => {
    if (userId !== user.id) throw new AccountError('invalid_link');
    // Whoever opened the link owns the address: it counts as confirmed.
    await setUserPassword(trx, userId, passwordHash);
    await confirmUserEmail(trx, userId, now);
    await markUserEmailTokensUsed(trx, userId, 'reset', now);
    await deleteUserSessions(trx, userId);
    await deleteUserSignInChallenges(trx, userId);
    return { userId, merchantId: user.merchant_id, email: user.email, twoFactorKept: user.totp_enabled_at !== null };
  });
}
