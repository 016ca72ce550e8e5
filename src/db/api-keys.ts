/**
 * The rows of `api_keys` (docs/API.md#authentication-and-keys): only a key's SHA-256 and its
 * visible prefix are stored. What a key may do and when is the service's (src/merchants/keys.ts,
 * src/merchants/onboarding.ts); this module only reads and writes the rows.
 */
import type { Db } from './database.ts';
import type { KeyMode } from '../domain/merchant.ts';
import { CALLER_COLUMNS } from './merchants.ts';

/** A new key's row. */
export async function insertApiKey(
  db: Db,
  row: {
    id: string;
    merchantId: string;
    mode: KeyMode;
    prefix: string;
    hash: Buffer;
    createdAt: Date;
    /** When the `refunds` scope was granted (a live key made or rolled with it); null or absent: not granted. */
    refundsGrantedAt?: Date | null;
  },
): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({
      id: row.id,
      merchant_id: row.merchantId,
      mode: row.mode,
      prefix: row.prefix,
      key_hash: row.hash,
      created_at: row.createdAt,
      refunds_granted_at: row.refundsGrantedAt ?? null,
    })
    .execute();
}

/** The key with this visible prefix, with its merchant's caller columns; undefined when there is none. */
export function apiKeyCallerByPrefix(db: Db, prefix: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('merchants', 'merchants.id', 'api_keys.merchant_id')
    .select([
      'api_keys.id as key_id',
      'api_keys.mode',
      'api_keys.key_hash',
      'api_keys.revoked_at',
      'api_keys.expires_at',
      'api_keys.last_used_at',
      'api_keys.refunds_granted_at',
      ...CALLER_COLUMNS,
    ])
    .where('api_keys.prefix', '=', prefix)
    .executeTakeFirst();
}

/** Records that the key was used at `now`. */
export async function touchApiKeyLastUsed(db: Db, keyId: string, now: Date): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', keyId).execute();
}

/** How many of the merchant's test keys work at `now` (unrevoked, unexpired), not counting `exceptKeyId`. */
export async function workingTestKeyCount(
  db: Db,
  merchantId: string,
  now: Date,
  exceptKeyId?: string,
): Promise<number> {
  let working = db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('merchant_id', '=', merchantId)
    .where('mode', '=', 'test')
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  if (exceptKeyId !== undefined) working = working.where('id', '<>', exceptKeyId);
  const { n } = await working.executeTakeFirstOrThrow();
  return Number(n);
}

/** The key's owner, mode and whether it still works; undefined for an unknown key. */
export function apiKeyById(db: Db, keyId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'merchant_id', 'mode', 'prefix', 'revoked_at', 'expires_at', 'refunds_granted_at'])
    .where('id', '=', keyId)
    .executeTakeFirst();
}

/** The merchant's keys, newest first: never the keys themselves, only their visible prefixes. */
export function merchantApiKeys(db: Db, merchantId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'mode', 'prefix', 'created_at', 'revoked_at', 'expires_at', 'last_used_at', 'refunds_granted_at'])
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes the key at `revokedAt`, unless it is revoked already. */
export async function revokeApiKey(db: Db, keyId: string, revokedAt: Date): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: revokedAt })
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Sets when the key stops working. */
export async function setApiKeyExpiry(db: Db, keyId: string, expiresAt: Date): Promise<void> {
  await db.updateTable('api_keys').set({ expires_at: expiresAt }).where('id', '=', keyId).execute();
}

/** The unrevoked key of that prefix, if any (whether a key the launcher kept still works). */
export function unrevokedApiKeyByPrefix(db: Db, prefix: string) {
  return db
    .selectFrom('api_keys')
    .select('id')
    .where('prefix', '=', prefix)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Grants the live key the `refunds` scope at `now`, or withdraws it (`now` null): only a live key of
 * this merchant that still works (unrevoked, unexpired at `at`). Answers whether such a key was there;
 * the update's own WHERE decides, never a read before it (a key revoked at the same instant gets nothing).
 */
export async function setApiKeyRefundsScope(
  db: Db,
  merchantId: string,
  keyId: string,
  grantedAt: Date | null,
  at: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ refunds_granted_at: grantedAt })
    .where('id', '=', keyId)
    .where('merchant_id', '=', merchantId)
    .where('mode', '=', 'live')
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .executeTakeFirst();
  // mysql2 connects with FOUND_ROWS: a matched row counts even unchanged (a withdrawal of a scope never granted).
  return Number(result.numUpdatedRows) > 0;
}
