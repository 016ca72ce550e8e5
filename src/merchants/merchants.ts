import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { createKey } from './keys.ts';

const DOMAIN_PATTERN = /^(localhost|(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})$/;

export class OnboardingError extends Error {
  override name = 'OnboardingError';
}

/** A merchant's site domain, lower-cased; refuses anything that is not a host name. */
export function normalizeDomain(input: string): string {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  if (!DOMAIN_PATTERN.test(domain)) throw new OnboardingError(`"${input}" is not a domain name (for example shop.example.com)`);
  return domain;
}

/** Onboarding's first step: the merchant, its site's domain and a test key at once (test keys need no approval). */
export async function createMerchant(
  db: Db,
  config: Pick<Config, 'FEE_BPS' | 'FEE_MIN' | 'FEE_MAX'>,
  input: { name: string; domain: string },
) {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 200) throw new OnboardingError('the merchant name must be 1 to 200 characters');
  const domain = normalizeDomain(input.domain);
  const merchantId = randomUUID();
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    await trx
      .insertInto('merchants')
      .values({ id: merchantId, name, fee_bps: config.FEE_BPS, fee_min: config.FEE_MIN, fee_max: config.FEE_MAX, created_at: now })
      .execute();
    await trx.insertInto('merchant_domains').values({ merchant_id: merchantId, domain, created_at: now }).execute();
    const key = await createKey(trx, merchantId, 'test', { now });
    return { merchant_id: merchantId, test_key: key.key, test_key_id: key.id };
  });
}
