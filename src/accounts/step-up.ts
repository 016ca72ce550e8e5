/**
 * Step-up (docs/SECURITY.md#live-actions-need-a-recent-second-factor): what
 * moves live money or decides where it goes needs a second factor proved in
 * this session within the last STEP_UP_SECONDS: a TOTP or recovery code at
 * sign-in, at the step-up page, or the first code of a new authenticator. A
 * session that proved only the password gets nothing live; a user without
 * two-step sign-in must turn it on first (with the password and an emailed
 * confirmation, src/accounts/two-factor-changes.ts).
 */
import type { SignedInUser } from './accounts.ts';
import type { LiveAction } from './owner-mail.ts';
import { throttledCodeCheck, useSecondFactor, type TwoFactorDeps } from './two-factor.ts';

/** How long a proved second factor covers live actions in its session. */
export const STEP_UP_SECONDS = 5 * 60;

export type { LiveAction } from './owner-mail.ts';

/**
 * What this session lacks before a live action: `two_factor` (the user has no
 * two-step sign-in: refused until it is on), `step_up` (no second factor in
 * the last STEP_UP_SECONDS: ask for a code), or undefined (allowed). Pure: `now` in ms.
 */
export function liveActionMissing(user: SignedInUser, now: number): 'two_factor' | 'step_up' | undefined {
  if (!user.twoFactor) return 'two_factor';
  const at = user.secondFactorAt;
  if (at === undefined || at === null || now - at.getTime() >= STEP_UP_SECONDS * 1000 || at.getTime() > now + 60_000)
    return 'step_up';
  return undefined;
}

/** Refused: this session needs a step-up before `action` (the dashboard asks for a code and comes back). */
export class StepUpNeeded extends Error {
  override name = 'StepUpNeeded';
  readonly action: LiveAction;
  constructor(action: LiveAction) {
    super(`${action} needs a recent second factor`);
    this.action = action;
  }
}

/**
 * The step-up itself: a TOTP or recovery code of the signed-in user, counted
 * in the sign-in throttle; answers which it was (`invalid_code` otherwise).
 * The caller then records it on the session (recordSecondFactor).
 */
export async function passStepUp(
  deps: TwoFactorDeps,
  user: SignedInUser,
  code: string,
  address: string,
): Promise<'totp' | 'recovery_code'> {
  return throttledCodeCheck(deps.db, user, address, () => useSecondFactor(deps, user.userId, code));
}
