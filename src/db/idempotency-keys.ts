/**
 * The rows of `idempotency_keys` (docs/API.md#idempotency): one per merchant, mode, operation and
 * key, holding the request's hash, the resource id reserved for it, a lock while a request holds it
 * and, once answered, the response. The rules of when a key replays, is reused or is in use are the
 * service's (src/payments/idempotency.ts); this module only reads and writes the rows.
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database, Db } from './database.ts';
import { isDuplicateKey } from './errors.ts';
import { scopedTo } from './tenant.ts';
import type { Tenant } from '../domain/merchant.ts';

/** Which key: the merchant's and mode's (owner), for one operation. */
export interface IdempotencyKeyId {
  owner: Tenant;
  operation: string;
  key: string;
}

const thisKey =
  ({ owner, operation, key }: IdempotencyKeyId) =>
  (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
    eb.and([scopedTo(owner)(eb), eb('operation', '=', operation), eb('idempotency_key', '=', key)]);

/** Makes the key's row, locked until `lockedUntil`, reserving `resourceId`; false when the key already has one. */
export async function insertIdempotencyKey(
  db: Db,
  id: IdempotencyKeyId,
  row: { requestHash: string; resourceId: string; lockedUntil: Date; createdAt: Date; expiresAt: Date },
): Promise<boolean> {
  try {
    await db
      .insertInto('idempotency_keys')
      .values({
        merchant_id: id.owner.merchant.id,
        mode: id.owner.mode,
        operation: id.operation,
        idempotency_key: id.key,
        request_hash: row.requestHash,
        resource_id: row.resourceId,
        locked_until: row.lockedUntil,
        response_status: null,
        response_body: null,
        created_at: row.createdAt,
        expires_at: row.expiresAt,
      })
      .execute();
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

export function findIdempotencyKey(db: Db, id: IdempotencyKeyId) {
  return db.selectFrom('idempotency_keys').selectAll().where(thisKey(id)).executeTakeFirst();
}

/** Forgets the key if it expired by `now`. */
export async function deleteExpiredIdempotencyKey(db: Db, id: IdempotencyKeyId, now: Date): Promise<void> {
  await db.deleteFrom('idempotency_keys').where(thisKey(id)).where('expires_at', '<=', now).execute();
}

/** Locks an unanswered key until `lockedUntil` if its holder released it or its lock lapsed by `now`; false when another holds it. */
export async function takeOverIdempotencyKey(
  db: Db,
  id: IdempotencyKeyId,
  now: Date,
  lockedUntil: Date,
): Promise<boolean> {
  const taken = await db
    .updateTable('idempotency_keys')
    .set({ locked_until: lockedUntil })
    .where(thisKey(id))
    .where('response_status', 'is', null)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .executeTakeFirst();
  return taken.numUpdatedRows > 0n;
}

/** Forgets an unanswered key (a request refused before it made anything). */
export async function deleteUnansweredIdempotencyKey(db: Db, id: IdempotencyKeyId): Promise<void> {
  await db.deleteFrom('idempotency_keys').where(thisKey(id)).where('response_status', 'is', null).execute();
}

/** Unlocks the key, so a retry may take it over at once. */
export async function releaseIdempotencyKey(db: Db, id: IdempotencyKeyId): Promise<void> {
  await db.updateTable('idempotency_keys').set({ locked_until: null }).where(thisKey(id)).execute();
}

/** Stores the key's response (and unlocks it): later requests with it replay this. */
export async function storeIdempotentResponse(
  db: Db,
  id: IdempotencyKeyId,
  response: { status: number; body: unknown },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ response_status: response.status, response_body: JSON.stringify(response.body), locked_until: null })
    .where(thisKey(id))
    .execute();
}
