/**
 * The rows of `merchant_domains`: a merchant's site domains, each with the token that proves it is
 * the merchant's and when that was found (docs/DASHBOARD.md#domain-verification).
 */
import type { Db } from './database.ts';

/** The merchant's domain names, in order. */
export async function merchantDomainNames(db: Db, merchantId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('merchant_domains')
    .select('domain')
    .where('merchant_id', '=', merchantId)
    .orderBy('domain')
    .execute();
  return rows.map((r) => r.domain);
}

/** A new merchant's first domain. */
export async function insertMerchantDomain(db: Db, merchantId: string, domain: string, createdAt: Date): Promise<void> {
  await db.insertInto('merchant_domains').values({ merchant_id: merchantId, domain, created_at: createdAt }).execute();
}

/** A domain of the merchant; one it has already is kept as it is. */
export async function insertMerchantDomainIfNew(
  db: Db,
  merchantId: string,
  domain: string,
  createdAt: Date,
): Promise<void> {
  await db
    .insertInto('merchant_domains')
    .ignore()
    .values({ merchant_id: merchantId, domain, created_at: createdAt })
    .execute();
}

/** Removes one of the merchant's domains (nothing when it has no such domain). */
export async function deleteMerchantDomain(db: Db, merchantId: string, domain: string): Promise<void> {
  await db.deleteFrom('merchant_domains').where('merchant_id', '=', merchantId).where('domain', '=', domain).execute();
}

/** The merchant's domains that have no verification token yet. */
export function merchantDomainsWithoutToken(db: Db, merchantId: string) {
  return db
    .selectFrom('merchant_domains')
    .select('domain')
    .where('merchant_id', '=', merchantId)
    .where('verification_token', 'is', null)
    .execute();
}

/** Gives the domain its verification token, unless it has one already. */
export async function setDomainVerificationToken(
  db: Db,
  merchantId: string,
  domain: string,
  token: string,
): Promise<void> {
  await db
    .updateTable('merchant_domains')
    .set({ verification_token: token })
    .where('merchant_id', '=', merchantId)
    .where('domain', '=', domain)
    .where('verification_token', 'is', null)
    .execute();
}

/** The merchant's domains with their tokens and when each was verified, in order. */
export function merchantDomainVerifications(db: Db, merchantId: string) {
  return db
    .selectFrom('merchant_domains')
    .select(['domain', 'verification_token', 'verified_at'])
    .where('merchant_id', '=', merchantId)
    .orderBy('domain')
    .execute();
}

/** Marks the domain verified now; one verified before keeps its first time. */
export async function markDomainVerified(db: Db, merchantId: string, domain: string, verifiedAt: Date): Promise<void> {
  await db
    .updateTable('merchant_domains')
    .set({ verified_at: verifiedAt })
    .where('merchant_id', '=', merchantId)
    .where('domain', '=', domain)
    .where('verified_at', 'is', null)
    .execute();
}

/** The merchant's verified domains (where its payments' callback_url may lead). */
export async function verifiedMerchantDomains(db: Db, merchantId: string) {
  return db
    .selectFrom('merchant_domains')
    .select('domain')
    .where('merchant_id', '=', merchantId)
    .where('verified_at', 'is not', null)
    .execute();
}
