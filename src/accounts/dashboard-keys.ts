/**
 * API keys made from the dashboard (docs/DASHBOARD.md#api-keys): the merchant
 * services' keys (src/merchants/onboarding.ts), with the dashboard's own rule
 * on top: a live key is made (or rolled) only when the merchant's live mode is
 * active AND the user has two-factor sign-in on AND this session proved a
 * second factor within STEP_UP_SECONDS (src/accounts/step-up.ts). The
 * operator's CLI is not bound by the second and third.
 */
import type { Db } from '../db/database.ts';
import { apiKeyOwner } from '../db/dashboard-keys.ts';
import type { KeyMode } from '../domain/merchant.ts';
import { OnboardingError } from '../merchants/merchants.ts';
import { createMerchantKey, merchantSummary, rollKey, setKeyScope } from '../merchants/onboarding.ts';
import { issueCompatCredentials } from '../merchants/compat-credentials.ts';
import type { SignedInUser } from './accounts.ts';
import { liveActionMissing, StepUpNeeded } from './step-up.ts';

export type LiveKeyRequirement = 'live_mode' | 'two_factor';

/** Refused: what is still missing before this user may make a live key. */
export class LiveKeyRefused extends Error {
  override name = 'LiveKeyRefused';
  readonly missing: LiveKeyRequirement[];
  constructor(missing: LiveKeyRequirement[]) {
    super(`a live key needs: ${missing.join(', ')}`);
    this.missing = missing;
  }
}

/** What is missing before this user may make a live key for their merchant (empty: nothing). */
export async function liveKeyMissing(db: Db, user: SignedInUser): Promise<LiveKeyRequirement[]> {
  const { live_mode } = await merchantSummary(db, user.merchantId);
  return [...(live_mode ? [] : (['live_mode'] as const)), ...(user.twoFactor ? [] : (['two_factor'] as const))];
}

async function allowLiveKey(db: Db, user: SignedInUser, mode: KeyMode): Promise<void> {
  if (mode !== 'live') return;
  const missing = await liveKeyMissing(db, user);
  if (missing.length > 0) throw new LiveKeyRefused(missing);
  // Two-step sign-in on is not enough: this session must have proved it within the last few minutes.
  if (liveActionMissing(user, Date.now()) !== undefined) throw new StepUpNeeded('live_key');
}

export async function createDashboardKey(db: Db, user: SignedInUser, mode: KeyMode, testKeyLimit: number) {
  await allowLiveKey(db, user, mode);
  return createMerchantKey(db, user.merchantId, mode, testKeyLimit);
}

/** Rolls one of the merchant's keys; another merchant's key is not found (OnboardingError). */
export async function rollDashboardKey(
  db: Db,
  user: SignedInUser,
  keyId: string,
  expiresInSeconds: number,
  testKeyLimit: number,
) {
  const key = await apiKeyOwner(db, keyId);
  if (key === undefined || key.merchant_id !== user.merchantId) throw new OnboardingError(`no key ${keyId}`);
  await allowLiveKey(db, user, key.mode);
  return { ...(await rollKey(db, keyId, expiresInSeconds, testKeyLimit)), old_prefix: key.prefix };
}

/** Makes (rolls) the merchant's ZarinPal and Zibal values of a mode; live ones under a live key's rules. */
export async function issueDashboardCompatCredentials(
  db: Db,
  user: SignedInUser,
  mode: KeyMode,
  previousExpiresInSeconds: number,
) {
  await allowLiveKey(db, user, mode);
  return issueCompatCredentials(db, user.merchantId, mode, previousExpiresInSeconds);
}

/**
 * Grants one of the merchant's live keys the `refunds` scope, or withdraws it (docs/API.md#key-scopes).
 * A grant lets the key send the merchant's money out, so it is a live action: two-step sign-in on and
 * proved in this session within STEP_UP_SECONDS (StepUpNeeded otherwise). A withdrawal takes a power
 * away and needs neither. Another merchant's key, a test key, a revoked or expired one: OnboardingError.
 */
export async function setDashboardKeyRefunds(db: Db, user: SignedInUser, keyId: string, grant: boolean) {
  if (grant && liveActionMissing(user, Date.now()) !== undefined) throw new StepUpNeeded('refund_scope');
  return setKeyScope(db, user.merchantId, keyId, 'refunds', grant);
}
