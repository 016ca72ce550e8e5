/**
 * Onboarding's steps after sign-up or `merchants create` (docs/DASHBOARD.md#onboarding),
 * in their order: domain → business documents (src/merchants/documents.ts) → gateway
 * request → the operator's review → live mode → live keys. Test keys need none of it.
 * Each step is an Update of the merchant's onboarding workflow, whose validators are
 * the only judge of order: a step out of order is refused with an OnboardingRefused
 * that says what must come first. The dashboard and the operator CLI both call these.
 */
import type { Client } from '@temporalio/client';
import {
  apiKeyById,
  merchantApiKeys,
  revokeApiKey,
  setApiKeyExpiry,
  setApiKeyRefundsScope,
  workingTestKeyCount,
} from '../db/api-keys.ts';
import { isKeyScope, KEY_SCOPES, keyScopes } from '../domain/key-scopes.ts';
import type { Db } from '../db/database.ts';
import { deleteMerchantDomain, merchantDomainNames } from '../db/merchant-domains.ts';
import { lockMerchantRow, merchantById, merchantsInOnboardingStatus, setMerchantFeePlan } from '../db/merchants.ts';
import type { FeePlan } from '../domain/payment.ts';
import {
  gatewayStatusOf,
  isOnboardingStatus,
  ONBOARDING_STATUSES,
  OnboardingRefused,
  rejectionReason,
} from '../domain/onboarding.ts';
import {
  activateLiveUpdate,
  addDomainUpdate,
  decideGatewayUpdate,
  requestGatewayUpdate,
  type OnboardingView,
} from '../domain/onboarding-workflow.ts';
import { onboardingUpdate, type OnboardingClientConfig } from '../temporal/onboarding.ts';
import { createKey } from './keys.ts';
import { normalizeDomain, OnboardingError } from './merchants.ts';

export async function merchantOf(db: Db, merchantId: string) {
  const merchant = await merchantById(db, merchantId);
  if (merchant === undefined) throw new OnboardingError(`no merchant ${merchantId}`);
  return merchant;
}

export interface OnboardingDeps {
  db: Db;
  temporal: Client;
  config: OnboardingClientConfig;
}

/**
 * A site domain: the first one is onboarding's "domain added" step. The
 * onboarding workflow records it (the one place its steps are taken).
 */
export async function addDomain(deps: OnboardingDeps, merchantId: string, input: string) {
  await merchantOf(deps.db, merchantId);
  const domain = normalizeDomain(input);
  await onboardingUpdate(deps.db, deps.temporal, deps.config, merchantId, addDomainUpdate, { domain });
  return { merchant_id: merchantId, domains: await merchantDomainNames(deps.db, merchantId) };
}

/** Removes a site domain; removing one the merchant does not have changes nothing. Not an onboarding step. */
export async function removeDomain(db: Db, merchantId: string, input: string) {
  await merchantOf(db, merchantId);
  const domain = normalizeDomain(input);
  await deleteMerchantDomain(db, merchantId, domain);
  return { merchant_id: merchantId, domains: await merchantDomainNames(db, merchantId) };
}

/** What the merchant's account shows: name, onboarding and gateway status, live mode and its domains. */
export async function merchantSummary(db: Db, merchantId: string) {
  const merchant = await merchantOf(db, merchantId);
  return {
    merchant_id: merchant.id,
    name: merchant.name,
    onboarding_status: merchant.onboarding_status,
    gateway_status: merchant.gateway_status,
    rejection_reason: merchant.rejection_reason,
    live_mode: Boolean(merchant.live_mode),
    domains: await merchantDomainNames(db, merchantId),
  };
}

const gatewayAnswer = (view: OnboardingView) => ({
  merchant_id: view.merchant_id,
  gateway_status: gatewayStatusOf(view.status),
  onboarding_status: view.status,
});

/** The merchant asks for a gateway (after the domain and the documents); asking again, or after approval, changes nothing. */
export async function requestGateway(deps: OnboardingDeps, merchantId: string) {
  await merchantOf(deps.db, merchantId);
  return gatewayAnswer(await onboardingUpdate(deps.db, deps.temporal, deps.config, merchantId, requestGatewayUpdate));
}

/** The operator approves the merchant's documents; only a request under review can be approved (approving again changes nothing). */
export async function approveGateway(deps: OnboardingDeps, merchantId: string) {
  await merchantOf(deps.db, merchantId);
  return gatewayAnswer(
    await onboardingUpdate(deps.db, deps.temporal, deps.config, merchantId, decideGatewayUpdate, {
      decision: 'approve',
    }),
  );
}

/** The operator rejects a request under review, with the reason the merchant is shown and emailed. */
export async function rejectGateway(deps: OnboardingDeps, merchantId: string, reason: string | undefined) {
  await merchantOf(deps.db, merchantId);
  const why = rejectionReason(reason);
  if (why === undefined) throw new OnboardingRefused('reason_required');
  const view = await onboardingUpdate(deps.db, deps.temporal, deps.config, merchantId, decideGatewayUpdate, {
    decision: 'reject',
    reason: why,
  });
  return { ...gatewayAnswer(view), rejection_reason: view.rejection_reason };
}

/** The merchant turns live mode on once the gateway is approved. */
export async function activateLiveMode(deps: OnboardingDeps, merchantId: string) {
  await merchantOf(deps.db, merchantId);
  const view = await onboardingUpdate(deps.db, deps.temporal, deps.config, merchantId, activateLiveUpdate);
  return { merchant_id: merchantId, live_mode: view.status === 'live', onboarding_status: view.status };
}

/** Merchants by onboarding status, longest waiting first (the operator's review queue: `merchants list --status under_review`). */
export async function listMerchantsByStatus(db: Db, status: string) {
  if (!isOnboardingStatus(status))
    throw new OnboardingError(`--status must be one of ${ONBOARDING_STATUSES.join(', ')}`);
  const rows = await merchantsInOnboardingStatus(db, status);
  return {
    status,
    merchants: rows.map((r) => ({
      merchant_id: r.id,
      name: r.name,
      onboarding_status: r.onboarding_status,
      gateway_status: r.gateway_status,
      live_mode: Boolean(r.live_mode),
      rejection_reason: r.rejection_reason,
      since: r.onboarding_updated_at?.toISOString() ?? null,
    })),
  };
}

/** Test keys at any time, even before the gateway is approved; live keys only once live mode is active. */
/** Refused: the merchant already holds as many working test keys as it may (TEST_KEYS_PER_MERCHANT). */
export class TestKeyLimitReached extends OnboardingError {
  override name = 'TestKeyLimitReached';
  readonly limit: number;
  constructor(limit: number) {
    super(`the merchant already has ${limit} test keys that work: revoke one first (TEST_KEYS_PER_MERCHANT)`);
    this.limit = limit;
  }
}

/**
 * Test keys cost nothing to make, so a free sign-up could otherwise make them
 * without end: at most `limit` unrevoked, unexpired ones (the one being rolled
 * not counted), checked with the merchant's row locked so two requests at once
 * cannot both take the last place. Live keys wait for live mode instead.
 */
async function takeTestKeyPlace(trx: Db, merchantId: string, limit: number, rolledKeyId?: string): Promise<void> {
  await lockMerchantRow(trx, merchantId);
  const now = new Date();
  if ((await workingTestKeyCount(trx, merchantId, now, rolledKeyId)) >= limit) throw new TestKeyLimitReached(limit);
}

/**
 * Makes a key of the mode. `scopes` (the operator's `--scope refunds`) grants a live key those scopes
 * from its start; a test key holds every scope without (docs/API.md#key-scopes).
 */
export async function createMerchantKey(
  db: Db,
  merchantId: string,
  mode: string,
  testKeyLimit: number,
  scopes: readonly string[] = [],
) {
  if (mode !== 'test' && mode !== 'live') throw new OnboardingError('--mode must be test or live');
  const unknown = scopes.filter((s) => !isKeyScope(s));
  if (unknown.length > 0) throw new OnboardingError(`--scope must be one of ${KEY_SCOPES.join(', ')}`);
  if (mode === 'test' && scopes.length > 0)
    throw new OnboardingError('test keys hold every scope already; --scope is for live keys');
  const merchant = await merchantOf(db, merchantId);
  if (mode === 'live' && !merchant.live_mode)
    throw new OnboardingError('live mode is not active for this merchant (live activate)');
  const now = new Date();
  const refundsGrantedAt = scopes.includes('refunds') ? now : null;
  const key = await db.transaction().execute(async (trx) => {
    if (mode === 'test') await takeTestKeyPlace(trx, merchantId, testKeyLimit);
    return createKey(trx, merchantId, mode, { now, refundsGrantedAt });
  });
  return { key_id: key.id, key: key.key, mode, scopes: keyScopes(mode, { refunds_granted_at: refundsGrantedAt }) };
}

async function keyOf(db: Db, keyId: string) {
  const key = await apiKeyById(db, keyId);
  if (key === undefined) throw new OnboardingError(`no key ${keyId}`);
  return key;
}

/** A merchant's keys, newest first: never the keys themselves, only their visible prefixes, with each key's scopes. */
export async function listMerchantKeys(db: Db, merchantId: string) {
  return (await merchantApiKeys(db, merchantId)).map((k) => ({ ...k, scopes: keyScopes(k.mode, k) }));
}

/**
 * Grants a live key of the merchant a scope, or withdraws it (docs/API.md#key-scopes); another
 * merchant's key, a test key (it holds every scope already), a revoked or expired key: OnboardingError.
 * The dashboard asks a recent second factor before a grant (src/accounts/dashboard-keys.ts).
 */
export async function setKeyScope(
  db: Db,
  merchantId: string | undefined,
  keyId: string,
  scope: string,
  grant: boolean,
) {
  if (!isKeyScope(scope)) throw new OnboardingError(`--scope must be one of ${KEY_SCOPES.join(', ')}`);
  const key = await keyOf(db, keyId);
  if (merchantId !== undefined && key.merchant_id !== merchantId) throw new OnboardingError(`no key ${keyId}`);
  if (key.mode === 'test') throw new OnboardingError('test keys hold every scope already; scopes are for live keys');
  const now = new Date();
  if (!(await setApiKeyRefundsScope(db, key.merchant_id, keyId, grant ? now : null, now)))
    throw new OnboardingError(`key ${keyId} is revoked or has expired`);
  return {
    key_id: keyId,
    merchant_id: key.merchant_id,
    prefix: key.prefix,
    scopes: keyScopes(key.mode, { refunds_granted_at: grant ? now : null }),
  };
}

/** Revokes a key on behalf of its merchant: another merchant's key is simply not found. */
export async function revokeMerchantKey(db: Db, merchantId: string, keyId: string) {
  const key = await keyOf(db, keyId);
  if (key.merchant_id !== merchantId) throw new OnboardingError(`no key ${keyId}`);
  return revokeKey(db, keyId);
}

/** Stops a key at once; revoking it again keeps the first time. */
export async function revokeKey(db: Db, keyId: string) {
  const key = await keyOf(db, keyId);
  const revokedAt = key.revoked_at ?? new Date();
  await revokeApiKey(db, keyId, revokedAt);
  return { key_id: keyId, revoked_at: revokedAt.toISOString() };
}

/**
 * Replaces a key: a new key of the same merchant and mode works at once, the
 * old one keeps working for `expiresInSeconds` (never longer than it already would).
 */
export async function rollKey(db: Db, keyId: string, expiresInSeconds: number, testKeyLimit: number) {
  const old = await keyOf(db, keyId);
  const now = new Date();
  if (old.revoked_at !== null) throw new OnboardingError(`key ${keyId} is revoked; create a new key instead`);
  if (old.expires_at !== null && old.expires_at <= now)
    throw new OnboardingError(`key ${keyId} has expired; create a new key instead`);
  const requested = new Date(now.getTime() + expiresInSeconds * 1000);
  const oldExpiresAt = old.expires_at !== null && old.expires_at < requested ? old.expires_at : requested;
  return db.transaction().execute(async (trx) => {
    if (old.mode === 'test') await takeTestKeyPlace(trx, old.merchant_id, testKeyLimit, keyId);
    // The new key holds what the old one was granted: a roll replaces a key, it does not change what it may do.
    const key = await createKey(trx, old.merchant_id, old.mode, { now, refundsGrantedAt: old.refunds_granted_at });
    await setApiKeyExpiry(trx, keyId, oldExpiresAt);
    return { key_id: key.id, key: key.key, old_key_expires_at: oldExpiresAt.toISOString() };
  });
}

/** The fee plan applies to payments created from now on; each payment keeps the plan it was created with. */
export async function setFees(db: Db, merchantId: string, plan: FeePlan) {
  await merchantOf(db, merchantId);
  if (plan.bps > 10_000) throw new OnboardingError('--bps must be at most 10000 (100%)');
  if (plan.min > plan.max) throw new OnboardingError('--min must not be greater than --max');
  await setMerchantFeePlan(db, merchantId, plan);
  return { merchant_id: merchantId, fee_plan: plan };
}
