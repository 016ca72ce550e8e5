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
import type { Db } from '../db/database.ts';
import {
  deleteExpiredIdempotencyKey,
  deleteUnansweredIdempotencyKey,
  findIdempotencyKey,
  insertIdempotencyKey,
  releaseIdempotencyKey,
  storeIdempotentResponse,
  takeOverIdempotencyKey,
  type IdempotencyKeyId,
} from '../db/idempotency-keys.ts';
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
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(body) ?? null))
    .digest('hex');
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
  const id: IdempotencyKeyId = { owner: scope.owner, operation: scope.operation, key };
  const claim = await claimKey(db, id, requestHash(body), ttlSeconds);
  if ('replay' in claim) return { ...claim.replay, replayed: true };
  const response = await performUnderKey(db, id, claim, perform);
  await storeIdempotentResponse(db, id, response);
  return { ...response, replayed: false };
}

const inUse = (headers?: Record<string, string>) =>
  new DomainError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still in progress; retry after it finishes.',
    undefined,
    headers,
  );

/**
 * The key for this request: a new record reserving a fresh resource id, or an unfinished one whose
 * holder released it or died (its reserved id), or the stored response to replay. Refuses another
 * body (`idempotency_key_reused`) and a key another request holds (`idempotency_key_in_use`).
 */
async function claimKey(
  db: Db,
  id: IdempotencyKeyId,
  hash: string,
  ttlSeconds: number,
): Promise<{ resourceId: string; fresh: boolean } | { replay: StoredResponse }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = new Date();
    const candidate = randomUUID();
    const lockedUntil = new Date(now.getTime() + LOCK_MS);
    if (
      await insertIdempotencyKey(db, id, {
        requestHash: hash,
        resourceId: candidate,
        lockedUntil,
        createdAt: now,
        expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
      })
    ) {
      return { resourceId: candidate, fresh: true };
    }
    const existing = await findIdempotencyKey(db, id);
    if (existing === undefined) continue; // removed meanwhile: insert again
    if (existing.expires_at <= now) {
      // An expired key is forgotten; the next attempt starts afresh.
      await deleteExpiredIdempotencyKey(db, id, now);
      continue;
    }
    if (existing.request_hash !== hash)
      throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.');
    if (existing.response_status !== null && existing.response_body !== null) {
      return { replay: { status: existing.response_status, body: JSON.parse(existing.response_body) as unknown } };
    }
    // Unfinished: take it over if its holder released it or died.
    if (!(await takeOverIdempotencyKey(db, id, now, lockedUntil))) throw inUse({ 'Retry-After': '1' });
    return { resourceId: existing.resource_id, fresh: false };
  }
  throw inUse();
}

/**
 * `perform` under the claimed key. Should it fail, a fresh key refused before anything was made is
 * forgotten (a refused request leaves no record); any other is released for a retry to take over at
 * once (if MySQL itself is down, its lock lapses on its own).
 */
async function performUnderKey(
  db: Db,
  id: IdempotencyKeyId,
  { resourceId, fresh }: { resourceId: string; fresh: boolean },
  perform: (resourceId: string, fresh: boolean) => Promise<StoredResponse>,
): Promise<StoredResponse> {
  try {
    return await perform(resourceId, fresh);
  } catch (error) {
    const refusedBeforeAnything = fresh && error instanceof DomainError && error.status < 500;
    await (refusedBeforeAnything ? deleteUnansweredIdempotencyKey(db, id) : releaseIdempotencyKey(db, id)).catch(
      () => undefined,
    );
    throw error;
  }
}
