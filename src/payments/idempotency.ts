/**
 * Idempotency-Key handling for creates (docs/API.md#idempotency, after the
 * IETF draft and Stripe): keys are scoped per merchant, mode and operation and kept for
 * IDEMPOTENCY_TTL_SECONDS. The same key with the same body replays the first
 * response; with another body it is 422 `idempotency_key_reused`; while the
 * first request still runs it is 409 `idempotency_key_in_use`. A request that
 * failed half-way leaves its key unlocked with the resource id reserved, so
 * the retry finishes the same resource instead of making a second one.
 */
import { createHash, randomUUID } from 'node:crypto';
import { isDuplicateKey } from '../db/errors.ts';
import type { ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../db/database.ts';
import { scopedTo } from '../db/tenant.ts';
import type { Tenant } from '../domain/merchant.ts';
import { DomainError } from '../errors.ts';

export interface IdempotencyScope {
  /** Keys belong to a merchant in one mode; the same key of another merchant is another key. */
  owner: Tenant;
  operation: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export interface IdempotentResult extends StoredResponse {
  replayed: boolean;
}

/** How long a request may hold a key before another may take it over. */
const LOCK_MS = 30_000;


/** Stable hash of a JSON body: key order does not matter. */
export function requestHash(body: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
    }
    return value;
  };
  return createHash('sha256').update(JSON.stringify(canonical(body) ?? null)).digest('hex');
}

/**
 * Runs `perform` once per key. `perform` receives the resource id reserved
 * for the key and must itself be safe to run again with that id; `fresh` is
 * true when the id was drawn for this request, so no earlier attempt can have
 * written anything under it (the caller may skip looking).
 */
export async function idempotent(
  db: Db,
  scope: IdempotencyScope,
  key: string | undefined,
  body: unknown,
  ttlSeconds: number,
  perform: (resourceId: string, fresh: boolean) => Promise<StoredResponse>,
): Promise<IdempotentResult> {
  if (key === undefined) return { ...(await perform(randomUUID(), true)), replayed: false };

  const hash = requestHash(body);
  /** This key's record: the merchant's and mode's, for this operation. */
  const thisKey = (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
    eb.and([scopedTo(scope.owner)(eb), eb('operation', '=', scope.operation), eb('idempotency_key', '=', key)]);
  const where = db.selectFrom('idempotency_keys').selectAll().where(thisKey);

  let resourceId: string | undefined;
  /** This request made the key's record (rather than taking over an unfinished one). */
  let fresh = false;
  for (let attempt = 0; attempt < 2 && resourceId === undefined; attempt++) {
    const now = new Date();
    const candidate = randomUUID();
    try {
      await db
        .insertInto('idempotency_keys')
        .values({
          merchant_id: scope.owner.merchant.id,
          mode: scope.owner.mode,
          operation: scope.operation,
          idempotency_key: key,
          request_hash: hash,
          resource_id: candidate,
          locked_until: new Date(now.getTime() + LOCK_MS),
          response_status: null,
          response_body: null,
          created_at: now,
          expires_at: new Date(now.getTime() + ttlSeconds * 1000),
        })
        .execute();
      resourceId = candidate;
      fresh = true;
      break;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    const existing = await where.executeTakeFirst();
    if (existing === undefined) continue; // removed meanwhile: insert again
    if (existing.expires_at <= now) {
      // An expired key is forgotten; the next attempt starts afresh.
      await db.deleteFrom('idempotency_keys').where(thisKey).where('expires_at', '<=', now).execute();
      continue;
    }
    if (existing.request_hash !== hash) {
      throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.');
    }
    if (existing.response_status !== null && existing.response_body !== null) {
      return { status: existing.response_status, body: JSON.parse(existing.response_body) as unknown, replayed: true };
    }
    // Unfinished: take it over if its holder released it or died.
    const takeover = await db
      .updateTable('idempotency_keys')
      .set({ locked_until: new Date(now.getTime() + LOCK_MS) })
      .where(thisKey)
      .where('response_status', 'is', null)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .executeTakeFirst();
    if (takeover.numUpdatedRows === 0n) {
      throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress; retry after it finishes.', undefined, {
        'Retry-After': '1',
      });
    }
    resourceId = existing.resource_id;
  }
  if (resourceId === undefined) {
    throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress; retry after it finishes.');
  }

  let response: StoredResponse;
  try {
    response = await perform(resourceId, fresh);
  } catch (error) {
    if (fresh && error instanceof DomainError && error.status < 500) {
      // Refused before anything was made: forget the key, so a refused request leaves no record.
      await db
        .deleteFrom('idempotency_keys')
        .where(thisKey)
        .where('response_status', 'is', null)
        .execute()
        .catch(() => undefined);
    } else {
      // Let a retry take over at once; if MySQL itself is down the lock lapses on its own.
      await db.updateTable('idempotency_keys').set({ locked_until: null }).where(thisKey).execute().catch(() => undefined);
    }
    throw error;
  }
  await db
    .updateTable('idempotency_keys')
    .set({ response_status: response.status, response_body: JSON.stringify(response.body), locked_until: null })
    .where(thisKey)
    .execute();
  return { ...response, replayed: false };
}
