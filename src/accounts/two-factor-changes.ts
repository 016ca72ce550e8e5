/**
 * Changing two-step sign-in (docs/SECURITY.md#live-actions-need-a-recent-second-factor):
 * turning it on or off, or new recovery codes, needs the password again AND
 * the link mailed to the account's address, opened in the same user's
 * session; then the code (the new authenticator's first one, or a current
 * one). A stolen password alone therefore cannot put the thief's authenticator
 * on the account, nor take the owner's off. Every change mails the owner.
 */
import type { TwoFactorChange } from '../db/database.ts';
import { markEmailTokenUsed } from '../db/accounts.ts';
import {
  AccountError,
  confirmPassword,
  findEmailToken,
  issueEmailToken,
  sha256,
  type AccountDeps,
  type SignedInUser,
} from './accounts.ts';
import { mailOwner } from './owner-mail.ts';
import {
  disableTwoFactor,
  enableTwoFactor,
  renewRecoveryCodes,
  throttledCodeCheck,
  type TwoFactorDeps,
} from './two-factor.ts';

export type { TwoFactorChange };

/** How long the emailed confirmation of a change works. */
export const CHANGE_LINK_HOURS = 1;

/** The dashboard page each change's link opens (and whose form completes it). */
export const CHANGE_PATHS: Record<TwoFactorChange, string> = {
  two_factor_on: '/dashboard/security/two-factor',
  two_factor_off: '/dashboard/security/two-factor/disable',
  recovery_codes: '/dashboard/security/recovery-codes',
};

/** Whether the change fits the user's state: on only while off; off and new codes only while on. */
const fits = (change: TwoFactorChange, user: SignedInUser) =>
  change === 'two_factor_on' ? !user.twoFactor : user.twoFactor;

type ChangeDeps = Pick<AccountDeps, 'db' | 'config' | 'mailer'>;

/**
 * Asks for a change: the password again (counted in the sign-in throttle;
 * wrong: `invalid_credentials`), then the confirmation link to the account's
 * address. A change that does not fit the user's state is `invalid_link`.
 */
export async function requestTwoFactorChange(
  deps: ChangeDeps,
  user: SignedInUser,
  change: TwoFactorChange,
  input: { password: string; address: string; lang: 'fa' | 'en' },
): Promise<void> {
  if (!fits(change, user)) throw new AccountError('invalid_link');
  await confirmPassword(deps.db, user, input.password, input.address);
  const token = await issueEmailToken(deps.db, user.userId, change, CHANGE_LINK_HOURS);
  const link = `${deps.config.PUBLIC_BASE_URL}${CHANGE_PATHS[change]}?token=${token}${input.lang === 'en' ? '&lang=en' : ''}`;
  await mailOwner({ db: deps.db, mailer: deps.mailer, baseUrl: deps.config.PUBLIC_BASE_URL }, user.email, input.lang, {
    kind: 'two_factor_change_requested',
    change,
    link,
  });
}

/** The change's link still stands and is this user's (another user's, a used or expired one: `invalid_link`). */
export async function checkTwoFactorChange(
  deps: Pick<AccountDeps, 'db'>,
  user: SignedInUser,
  change: TwoFactorChange,
  token: string,
): Promise<void> {
  const row = await findEmailToken(deps.db, token, change);
  if (row.user_id !== user.userId || !fits(change, user)) throw new AccountError('invalid_link');
}

export interface ChangeMade {
  /** New recovery codes to show once (turning on, or new codes). */
  codes?: string[];
  /** The code given was a recovery code (for the audit log). */
  usedRecoveryCode: boolean;
}

/**
 * Completes a change whose link this user opened, once the code is right
 * (`invalid_code` otherwise, the link still usable); the link is then used
 * up and the owner told.
 */
export async function completeTwoFactorChange(
  deps: ChangeDeps & TwoFactorDeps,
  user: SignedInUser,
  change: TwoFactorChange,
  input: { token: string; code: string; lang: 'fa' | 'en'; address: string },
): Promise<ChangeMade> {
  await checkTwoFactorChange(deps, user, change, input.token);
  // Turning on checks the first code of the secret the page itself shows: nothing there to guess, so no throttle.
  // Off and new codes check the current authenticator, as sign-in does: counted in the sign-in throttle.
  const made =
    change === 'two_factor_on'
      ? await makeChange(deps, user, change, input.code)
      : await throttledCodeCheck(deps.db, user, input.address, () => makeChange(deps, user, change, input.code));
  // Used up once the change is made; of two uses at once, the change itself (conditional in the service) happens once.
  await markEmailTokenUsed(deps.db, sha256(input.token), new Date());
  await mailOwner({ db: deps.db, mailer: deps.mailer, baseUrl: deps.config.PUBLIC_BASE_URL }, user.email, input.lang, {
    kind: 'two_factor_changed',
    change,
  });
  return made;
}

async function makeChange(
  deps: TwoFactorDeps,
  user: SignedInUser,
  change: TwoFactorChange,
  code: string,
): Promise<ChangeMade> {
  let made: ChangeMade;
  if (change === 'two_factor_on')
    made = { codes: await enableTwoFactor(deps, user.userId, code), usedRecoveryCode: false };
  else if (change === 'two_factor_off')
    made = { usedRecoveryCode: (await disableTwoFactor(deps, user.userId, code)) === 'recovery_code' };
  else {
    const renewed = await renewRecoveryCodes(deps, user.userId, code);
    made = { codes: renewed.codes, usedRecoveryCode: renewed.used === 'recovery_code' };
  }
  return made;
}
