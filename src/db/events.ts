/**
 * Events: what happened to a merchant's objects, stored in MySQL (the outbox
 * the deliveries read from) and listed by the API. `recordEvent` is the one
 * way to emit an event; call it in the same transaction that writes the
 * change, so an event exists exactly when its change does.
 */
import { createHash } from 'node:crypto';
import { isSubscribed, type EventType } from '../domain/events.ts';
import { tenantOf, type KeyMode, type Tenant } from '../domain/merchant.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import type { Mandate } from '../domain/mandate-schemas.ts';
import type { Subscription } from '../domain/subscription-schemas.ts';
import type { Refund } from '../domain/refund-schemas.ts';
import type { BeneficiaryPayout, Settlement } from '../domain/settlement-schemas.ts';
import type { Event, ListEventsQuery, WebhookEndpoint } from '../domain/webhook-schemas.ts';
import type { Db } from './database.ts';
import { keyedPage } from './pagination.ts';
import { scopedTo } from './tenant.ts';

export interface StoredEvent {
  id: string;
  merchant_id: string;
  mode: KeyMode;
  type: EventType;
  /** The JSON body every delivery sends, byte for byte. */
  body: string;
}

export interface NewEvent {
  /**
   * What makes this event unique, e.g. `payment:<id>:<version>`: the event id
   * is derived from it, so an activity that runs twice records one event.
   */
  sourceKey: string;
  owner: Tenant;
  type: EventType;
  objectId: string;
  data: {
    payment?: Payment;
    refund?: Refund;
    webhook_endpoint?: WebhookEndpoint;
    settlement?: Settlement;
    beneficiary_payout?: BeneficiaryPayout;
    mandate?: Mandate;
    subscription?: Subscription;
    /** subscription.charged and subscription.past_due: the charge's payment. */
    payment_id?: string;
  };
  at: Date;
}

/** `evt_` and 32 hex digits of SHA-256 of the source key. */
export function eventIdFor(sourceKey: string): string {
  return `evt_${createHash('sha256').update(sourceKey).digest('hex').slice(0, 32)}`;
}

/** The stored event of that id, if any: an activity that recorded it but died before dispatching finds it. */
export async function storedEvent(db: Db, id: string): Promise<StoredEvent | undefined> {
  const row = await db
    .selectFrom('events')
    .select(['id', 'merchant_id', 'mode', 'type', 'body'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : { ...row, type: row.type as EventType };
}

/** Inserts the event unless it exists, and answers the stored one either way. */
export async function recordEvent(trx: Db, event: NewEvent): Promise<StoredEvent> {
  const id = eventIdFor(event.sourceKey);
  const body: Event = { id, type: event.type, created_at: event.at.toISOString(), data: event.data };
  const stored = {
    id,
    merchant_id: event.owner.merchant.id,
    mode: event.owner.mode,
    type: event.type,
    body: JSON.stringify(body),
  };
  const inserted = await trx
    .insertInto('events')
    .ignore()
    .values({ ...stored, object_id: event.objectId, created_at: event.at })
    .executeTakeFirst();
  // Inserted now: it is what was just written. Else a retry finds the first write's event.
  if (inserted.numInsertedOrUpdatedRows === 1n) return stored;
  const row = await trx
    .selectFrom('events')
    .select(['id', 'merchant_id', 'mode', 'type', 'body'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { ...row, type: row.type as EventType };
}

/**
 * The enabled endpoints of the event's merchant and mode that subscribe to
 * its type: where a new event is delivered.
 */
export async function subscribedEndpointIds(
  db: Db,
  event: Pick<StoredEvent, 'merchant_id' | 'mode' | 'type'>,
): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where(scopedTo(tenantOf(event.merchant_id, event.mode)))
    .where('status', '=', 'enabled')
    .where('deleted_at', 'is', null)
    .execute();
  return rows
    .filter((r) => isSubscribed(r.events === null ? null : (JSON.parse(r.events) as string[]), event.type))
    .map((r) => r.id);
}

function eventsOf(db: Db, tenant: Tenant) {
  return db.selectFrom('events').where(scopedTo(tenant));
}

/** One page of the tenant's events, newest first, of one type when the query names it. */
export async function tenantEventsPage<Item>(
  db: Db,
  tenant: Tenant,
  query: ListEventsQuery,
  toItem: (row: { id: string; body: string; created_at: Date }) => Item,
) {
  let q = eventsOf(db, tenant).select(['id', 'body', 'created_at']);
  if (query.type !== undefined) q = q.where('type', '=', query.type);
  return keyedPage(q, query, toItem);
}

/** The tenant's event; undefined when it has none of that id. */
export async function tenantEventById(db: Db, tenant: Tenant, id: string) {
  return eventsOf(db, tenant)
    .select(['id', 'merchant_id', 'mode', 'type', 'body'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The tenant's first `limit` events about these objects, oldest first (index events_by_object). */
export async function tenantEventsAbout(db: Db, tenant: Tenant, objectIds: readonly string[], limit: number) {
  return eventsOf(db, tenant)
    .select(['id', 'body'])
    .where('object_id', 'in', objectIds)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The event's id and body, whoever's it is; throws when there is none. */
export async function eventBodyById(db: Db, id: string) {
  return db.selectFrom('events').select(['id', 'body']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** Every event about these objects, whoever's they are, oldest first: what `cli payments show` lists. */
export async function eventSummariesAbout(db: Db, objectIds: readonly string[]) {
  return db
    .selectFrom('events')
    .select(['id', 'type', 'created_at'])
    .where('object_id', 'in', objectIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
