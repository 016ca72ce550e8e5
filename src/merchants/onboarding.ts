/**
 * The operator's onboarding steps after `merchants create` (docs/API.md#operator-cli-onboarding-keys-and-fees),
 * in their order: domain → gateway request → approval → live
 * mode → live keys. Test keys need none of it. A step taken out of order is
 * refused with an OnboardingError that says what must come first.
 */
import type { Db } from '../db/database.ts';
import type { FeePlan } from '../domain/payment.ts';
import { createKey } from './keys.ts';
import { normalizeDomain, OnboardingError } from './merchants.ts';

async function merchantOf(db: Db, merchantId: string) {
  const merchant = await db.selectFrom('merchants').selectAll().where('id', '=', merchantId).executeTakeFirst();
  if (merchant === undefined) throw new OnboardingError(`no merchant ${merchantId}`);
  return merchant;
}

async function domainsOf(db: Db, merchantId: string): Promise<string[]> {
  const rows = await db.selectFrom('merchant_domains').select('domain').where('merchant_id', '=', merchantId).orderBy('domain').execute();
  return rows.map((r) => r.domain);
}

export async function addDomain(db: Db, merchantId: string, input: string) {
  await merchantOf(db, merchantId);
  const domain = normalizeDomain(input);
  await db.insertInto('merchant_domains').ignore().values({ merchant_id: merchantId, domain, created_at: new Date() }).execute();
  return { merchant_id: merchantId, domains: await domainsOf(db, merchantId) };
}

/** Removes a site domain; removing one the merchant does not have changes nothing. */
export async function removeDomain(db: Db, merchantId: string, input: string) {
  await merchantOf(db, merchantId);
  const domain = normalizeDomain(input);
  await db.deleteFrom('merchant_domains').where('merchant_id', '=', merchantId).where('domain', '=', domain).execute();
  return { merchant_id: merchantId, domains: await domainsOf(db, merchantId) };
}

/** What the merchant's account shows: name, gateway status, live mode and its domains. */
export async function merchantSummary(db: Db, merchantId: string) {
  const merchant = await merchantOf(db, merchantId);
  return {
    merchant_id: merchant.id,
    name: merchant.name,
    gateway_status: merchant.gateway_status,
    live_mode: Boolean(merchant.live_mode),
    domains: await domainsOf(db, merchantId),
  };
}

/** Asking for a gateway needs a site domain; asking again, or after approval, changes nothing. */
export async function requestGateway(db: Db, merchantId: string) {
  const merchant = await merchantOf(db, merchantId);
  if ((await domainsOf(db, merchantId)).length === 0) throw new OnboardingError('add the site domain first (domains add)');
  await db.updateTable('merchants').set({ gateway_status: 'requested' }).where('id', '=', merchantId).where('gateway_status', '=', 'none').execute();
  const status = merchant.gateway_status === 'none' ? 'requested' : merchant.gateway_status;
  return { merchant_id: merchantId, gateway_status: status };
}

/** The operator approves the merchant's documents; only a requested gateway can be approved. */
export async function approveGateway(db: Db, merchantId: string) {
  const merchant = await merchantOf(db, merchantId);
  if (merchant.gateway_status === 'none') throw new OnboardingError('the merchant has not requested a gateway (gateways request)');
  await db.updateTable('merchants').set({ gateway_status: 'approved' }).where('id', '=', merchantId).execute();
  return { merchant_id: merchantId, gateway_status: 'approved' as const };
}

export async function activateLiveMode(db: Db, merchantId: string) {
  const merchant = await merchantOf(db, merchantId);
  if (merchant.gateway_status !== 'approved') {
    throw new OnboardingError(`the gateway is ${merchant.gateway_status === 'none' ? 'not requested' : 'not approved'} yet; live mode needs an approved gateway (gateways approve)`);
  }
  await db.updateTable('merchants').set({ live_mode: 1 }).where('id', '=', merchantId).execute();
  return { merchant_id: merchantId, live_mode: true };
}

/** Test keys at any time, even before the gateway is approved; live keys only once live mode is active. */
export async function createMerchantKey(db: Db, merchantId: string, mode: string) {
  if (mode !== 'test' && mode !== 'live') throw new OnboardingError('--mode must be test or live');
  const merchant = await merchantOf(db, merchantId);
  if (mode === 'live' && !merchant.live_mode) throw new OnboardingError('live mode is not active for this merchant (live activate)');
  const key = await createKey(db, merchantId, mode);
  return { key_id: key.id, key: key.key, mode };
}

async function keyOf(db: Db, keyId: string) {
  const key = await db.selectFrom('api_keys').select(['id', 'merchant_id', 'mode', 'revoked_at', 'expires_at']).where('id', '=', keyId).executeTakeFirst();
  if (key === undefined) throw new OnboardingError(`no key ${keyId}`);
  return key;
}

/** A merchant's keys, newest first: never the keys themselves, only their visible prefixes. */
export async function listMerchantKeys(db: Db, merchantId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'mode', 'prefix', 'created_at', 'revoked_at', 'expires_at', 'last_used_at'])
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
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
  await db.updateTable('api_keys').set({ revoked_at: revokedAt }).where('id', '=', keyId).where('revoked_at', 'is', null).execute();
  return { key_id: keyId, revoked_at: revokedAt.toISOString() };
}

/**
 * Replaces a key: a new key of the same merchant and mode works at once, the
 * old one keeps working for `expiresInSeconds` (never longer than it already would).
 */
export async function rollKey(db: Db, keyId: string, expiresInSeconds: number) {
  const old = await keyOf(db, keyId);
  const now = new Date();
  if (old.revoked_at !== null) throw new OnboardingError(`key ${keyId} is revoked; create a new key instead`);
  if (old.expires_at !== null && old.expires_at <= now) throw new OnboardingError(`key ${keyId} has expired; create a new key instead`);
  const requested = new Date(now.getTime() + expiresInSeconds * 1000);
  const oldExpiresAt = old.expires_at !== null && old.expires_at < requested ? old.expires_at : requested;
  return db.transaction().execute(async (trx) => {
    const key = await createKey(trx, old.merchant_id, old.mode, { now });
    await trx.updateTable('api_keys').set({ expires_at: oldExpiresAt }).where('id', '=', keyId).execute();
    return { key_id: key.id, key: key.key, old_key_expires_at: oldExpiresAt.toISOString() };
  });
}

/** The fee plan applies to payments created from now on; each payment keeps the plan it was created with. */
export async function setFees(db: Db, merchantId: string, plan: FeePlan) {
  await merchantOf(db, merchantId);
  if (plan.bps > 10_000) throw new OnboardingError('--bps must be at most 10000 (100%)');
  if (plan.min > plan.max) throw new OnboardingError('--min must not be greater than --max');
  await db.updateTable('merchants').set({ fee_bps: plan.bps, fee_min: plan.min, fee_max: plan.max }).where('id', '=', merchantId).execute();
  return { merchant_id: merchantId, fee_plan: plan };
}
