/**
 * Webhook endpoint records: how the API shows them, the tenant's reads and
 * writes of its endpoints, the row a delivery attempt reads, and disabling
 * one, which emits a `webhook_endpoint.disabled` event in the same
 * transaction (so the merchant's other endpoints hear about it).
 */
import { randomInt } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { EventType } from '../domain/events.ts';
import { tenantOf, type Tenant } from '../domain/merchant.ts';
import type { WebhookEndpoint } from '../domain/webhook-schemas.ts';
import type { Db, WebhookEndpointsTable } from './database.ts';
import { isDeadlock, isDuplicateKey } from './errors.ts';
import { recordEvent, type StoredEvent } from './events.ts';
import { keyedPage, type PageQuery } from './pagination.ts';
import { scopedTo } from './tenant.ts';

export interface EndpointRow {
  id: string;
  url: string;
  events: string | null;
  mode: 'test' | 'live';
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
}

export const ENDPOINT_COLUMNS = [
  'id',
  'url',
  'events',
  'mode',
  'status',
  'disabled_reason',
  'previous_secret_expires_at',
  'created_at',
] as const;

export function endpointFromRow(row: EndpointRow, now = new Date()): WebhookEndpoint {
  const rotating = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now;
  return {
    id: row.id,
    url: row.url,
    events: row.events === null ? null : (JSON.parse(row.events) as EventType[]),
    mode: row.mode,
    status: row.status,
    disabled_reason: row.disabled_reason,
    previous_secret_expires_at: rotating ? row.previous_secret_expires_at!.toISOString() : null,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * Disables an enabled, undeleted endpoint and records its
 * `webhook_endpoint.disabled` event (one per `sourceKey`, however often this
 * runs); answers the event, or undefined when the endpoint was not enabled.
 * `stillFailing` (in the same transaction, the endpoint's row locked) may
 * decide against it.
 */
export async function disableEndpoint(
  db: Db,
  endpointId: string,
  reason: string,
  sourceKey: string,
  stillFailing: (trx: Db) => Promise<boolean> = async () => true,
): Promise<StoredEvent | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('webhook_endpoints')
      .select([...ENDPOINT_COLUMNS, 'merchant_id'])
      .where('id', '=', endpointId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (row === undefined || row.status !== 'enabled' || !(await stillFailing(trx))) return undefined;
    const at = new Date();
    await trx
      .updateTable('webhook_endpoints')
      .set({ status: 'disabled', disabled_reason: reason })
      .where('id', '=', endpointId)
      .execute();
    const endpoint = endpointFromRow({ ...row, status: 'disabled', disabled_reason: reason }, at);
    return recordEvent(trx, {
      sourceKey,
      owner: tenantOf(row.merchant_id, row.mode),
      type: 'webhook_endpoint.disabled',
      objectId: endpointId,
      data: { webhook_endpoint: endpoint },
      at,
    });
  });
}

/** The tenant's endpoints that are not deleted. */
function liveEndpoints(db: Db, tenant: Tenant) {
  return db.selectFrom('webhook_endpoints').where(scopedTo(tenant)).where('deleted_at', 'is', null);
}

/** How many endpoints the tenant has (deleted ones not counted). */
export async function liveEndpointCount(db: Db, tenant: Tenant): Promise<number> {
  const count = await liveEndpoints(db, tenant)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

/**
 * Inserts the endpoint into a free one of its tenant's `places` (1..places, the bound on endpoints per
 * merchant and mode); false when none is free. The unique key (merchant_id, mode, place) decides
 * between requests at the same instant: one that loses a place to another (a duplicate, or InnoDB's
 * deadlock between two inserts of one value, which rolls one back) looks again, and gives up only
 * once every place is held, so the bound holds however many create at once. A free place is drawn at
 * random, so requests at once seldom want the same one.
 */
export async function insertWebhookEndpointInPlace(
  db: Db,
  row: Omit<Insertable<WebhookEndpointsTable>, 'place'>,
  places: number,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const held = await db
      .selectFrom('webhook_endpoints')
      .select('place')
      .where('merchant_id', '=', row.merchant_id)
      .where('mode', '=', row.mode)
      .where('place', 'is not', null)
      .execute();
    const taken = new Set(held.map((r) => r.place));
    const free = Array.from({ length: places }, (_, i) => i + 1).filter((place) => !taken.has(place));
    if (free.length === 0) return false;
    try {
      await db
        .insertInto('webhook_endpoints')
        .values({ ...row, place: free[randomInt(free.length)]! })
        .execute();
      return true;
    } catch (error) {
      // Bounded: requests at once take the places in a few rounds; past that something else is wrong.
      if (!(isDuplicateKey(error) || isDeadlock(error)) || attempt >= 4 * places) throw error;
    }
  }
}

/** The tenant's endpoint as the API shows it; undefined when it has none of that id, or it was deleted. */
export async function liveEndpointById(db: Db, tenant: Tenant, id: string) {
  return liveEndpoints(db, tenant).select(ENDPOINT_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** One page of the tenant's undeleted endpoints, newest first. */
export async function liveEndpointsPage<Item>(
  db: Db,
  tenant: Tenant,
  page: PageQuery,
  toItem: (row: EndpointRow) => Item,
) {
  return keyedPage(liveEndpoints(db, tenant).select(ENDPOINT_COLUMNS), page, toItem);
}

/** Marks the endpoint deleted now (if it is not already), giving its place back. */
export async function markEndpointDeleted(db: Db, id: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    // Its place is free again for the tenant's next endpoint.
    .set({ deleted_at: new Date(), place: null })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Enables the tenant's undeleted endpoint, its disabled reason cleared. */
export async function enableTenantEndpoint(db: Db, tenant: Tenant, id: string): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ status: 'enabled', disabled_reason: null })
    .where(scopedTo(tenant))
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/** The tenant's undeleted endpoint's secret, its row locked (FOR UPDATE) for the rotation; undefined when there is none. */
export async function lockEndpointSecret(trx: Db, tenant: Tenant, id: string) {
  return liveEndpoints(trx, tenant).select(['secret']).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Writes the endpoint's new secret, and the one it replaces with when that stops signing. */
export async function rotateEndpointSecret(
  trx: Db,
  id: string,
  rotation: { secret: string; previous_secret: string; previous_secret_expires_at: Date },
): Promise<void> {
  await trx.updateTable('webhook_endpoints').set(rotation).where('id', '=', id).execute();
}

/** The endpoint's whole row, whoever's it is and deleted or not (a delivery attempt checks it is still enabled). */
export async function endpointById(db: Db, id: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}
