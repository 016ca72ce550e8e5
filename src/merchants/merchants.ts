import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/database.ts';
import { insertMerchantDomain } from '../db/merchant-domains.ts';
import { insertMerchantRow } from '../db/merchants.ts';
import { startOnboarding, type OnboardingClientConfig } from '../temporal/onboarding.ts';
import { createKey } from './keys.ts';

const DOMAIN_PATTERN = /^(localhost|(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})$/;

export class OnboardingError extends Error {
  override name = 'OnboardingError';
}

/** A merchant's site domain, lower-cased; refuses anything that is not a host name. */
export function normalizeDomain(input: string): string {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  if (!DOMAIN_PATTERN.test(domain))
    throw new OnboardingError(`"${input}" is not a domain name (for example shop.example.com)`);
  return domain;
}

/** A merchant's (business) name, trimmed; 1 to 200 characters. */
export function merchantName(input: string): string {
  const name = input.trim();
  if (name.length === 0 || name.length > 200)
    throw new OnboardingError('the merchant name must be 1 to 200 characters');
  return name;
}

/**
 * Onboarding's first step: the merchant, its site's domain and a test key at once (test keys need no approval).
 * The domain may come later (a dashboard sign-up adds it in its settings).
 */
export async function createMerchant(
  db: Db,
  config: Pick<Config, 'FEE_BPS' | 'FEE_MIN' | 'FEE_MAX'>,
  input: { name: string; domain?: string },
) {
  const name = merchantName(input.name);
  const domain = input.domain === undefined ? undefined : normalizeDomain(input.domain);
  return db.transaction().execute((trx) => insertMerchant(trx, config, name, domain));
}

/** `merchants create`: the merchant as above, then its onboarding workflow (docs/DASHBOARD.md#onboarding). */
export async function createOnboardedMerchant(
  deps: { db: Db; temporal: Client; config: Pick<Config, 'FEE_BPS' | 'FEE_MIN' | 'FEE_MAX'> & OnboardingClientConfig },
  input: { name: string; domain?: string },
) {
  const merchant = await createMerchant(deps.db, deps.config, input);
  await startOnboarding(
    deps.temporal,
    deps.config,
    merchant.merchant_id,
    input.domain === undefined ? 'account_created' : 'domain_added',
  );
  return merchant;
}

/** The rows of a new merchant inside the caller's transaction (a dashboard sign-up adds its user in the same one). */
export async function insertMerchant(
  trx: Db,
  config: Pick<Config, 'FEE_BPS' | 'FEE_MIN' | 'FEE_MAX'>,
  name: string,
  domain: string | undefined,
) {
  const merchantId = randomUUID();
  const now = new Date();
  await insertMerchantRow(trx, {
    id: merchantId,
    name,
    feePlan: { bps: config.FEE_BPS, min: config.FEE_MIN, max: config.FEE_MAX },
    createdAt: now,
    // A merchant created with its domain has taken onboarding's first step already.
    onboardingStatus: domain === undefined ? 'account_created' : 'domain_added',
  });
  if (domain !== undefined) await insertMerchantDomain(trx, merchantId, domain, now);
  const key = await createKey(trx, merchantId, 'test', { now });
  return { merchant_id: merchantId, test_key: key.key, test_key_id: key.id };
}
