/**
 * The rows of `compat_credentials` (docs/COMPAT.md#credentials): a merchant's ZarinPal-style and
 * Zibal credentials, only their SHA-256 and last four characters stored. When a pair is issued,
 * rolled or revoked is the service's (src/merchants/compat-credentials.ts); this module only reads
 * and writes the rows.
 */
import type { Db } from './database.ts';
import type { CompatProtocol } from '../domain/compat-protocols.ts';
import type { KeyMode } from '../domain/merchant.ts';
import { CALLER_COLUMNS } from './merchants.ts';

/** The merchant's credentials of a mode that work at `now` (unrevoked, unexpired), with when each was issued. */
export function workingCompatCredentials(db: Db, merchantId: string, mode: KeyMode, now: Date) {
  return db
    .selectFrom('compat_credentials')
    .select(['id', 'created_at'])
    .where('merchant_id', '=', merchantId)
    .where('mode', '=', mode)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
}

/** Ends these credentials at `at`. */
export async function expireCompatCredentials(db: Db, ids: string[], at: Date): Promise<void> {
  await db.updateTable('compat_credentials').set({ expires_at: at }).where('id', 'in', ids).execute();
}

/** Ends these credentials at `expireAt`, or earlier where they would end earlier already. */
export async function expireCompatCredentialsBy(db: Db, ids: string[], expireAt: Date): Promise<void> {
  await db
    .updateTable('compat_credentials')
    .set({ expires_at: expireAt })
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', expireAt)]))
    .execute();
}

/** A new credential's row. */
export async function insertCompatCredential(
  db: Db,
  row: {
    id: string;
    merchantId: string;
    mode: KeyMode;
    protocol: CompatProtocol;
    valueHash: Buffer;
    hint: string;
    createdAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('compat_credentials')
    .values({
      id: row.id,
      merchant_id: row.merchantId,
      mode: row.mode,
      protocol: row.protocol,
      value_hash: row.valueHash,
      hint: row.hint,
      created_at: row.createdAt,
    })
    .execute();
}

/** Revokes every unrevoked credential of the merchant's mode at `revokedAt`; how many it revoked. */
export async function revokeCompatCredentialsOfMode(
  db: Db,
  merchantId: string,
  mode: KeyMode,
  revokedAt: Date,
): Promise<number> {
  const result = await db
    .updateTable('compat_credentials')
    .set({ revoked_at: revokedAt })
    .where('merchant_id', '=', merchantId)
    .where('mode', '=', mode)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The merchant's credentials, newest first: never the values, only their last four characters. */
export function merchantCompatCredentials(db: Db, merchantId: string) {
  return db
    .selectFrom('compat_credentials')
    .select(['id', 'mode', 'protocol', 'hint', 'created_at', 'revoked_at', 'expires_at', 'last_used_at'])
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at', 'desc')
    .orderBy('protocol')
    .execute();
}

/** The credential with this hash, with its merchant's caller columns; undefined when there is none. */
export function compatCredentialCallerByHash(db: Db, valueHash: Buffer) {
  return db
    .selectFrom('compat_credentials')
    .innerJoin('merchants', 'merchants.id', 'compat_credentials.merchant_id')
    .select([
      'compat_credentials.id as key_id',
      'compat_credentials.mode',
      'compat_credentials.protocol',
      'compat_credentials.revoked_at',
      'compat_credentials.expires_at',
      'compat_credentials.last_used_at',
      ...CALLER_COLUMNS,
    ])
    .where('compat_credentials.value_hash', '=', valueHash)
    .executeTakeFirst();
}

/** Records that the credential was used at `now`. */
export async function touchCompatCredentialLastUsed(db: Db, credentialId: string, now: Date): Promise<void> {
  await db.updateTable('compat_credentials').set({ last_used_at: now }).where('id', '=', credentialId).execute();
}
