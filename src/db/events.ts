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
import type { Refund } from '../domain/refund-schemas.ts';
import type { BeneficiaryPayout, Settlement } from '../domain/settlement-schemas.ts';
import type { Event, WebhookEndpoint } from '../domain/webhook-schemas.ts';
import type { Db } from './database.ts';
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
  data: { payment?: Payment; refund?: Refund; webhook_endpoint?: WebhookEndpoint; settlement?: Settlement; beneficiary_payout?: BeneficiaryPayout };
  at: Date;
}

/** `evt_` and 32 hex digits of SHA-256 of the source key. */
export function eventIdFor(sourceKey: string): string {
  return `evt_${createHash('sha256').update(sourceKey).digest('hex').slice(0, 32)}`;
}

/** Inserts the event unless it exists, and answers the stored one either way. */
export async function recordEvent(trx: Db, event: NewEvent): Promise<StoredEvent> {
  const id = eventIdFor(event.sourceKey);
  const body: Event = { id, type: event.type, created_at: event.at.toISOString(), data: event.data };
  const stored = { id, merchant_id: event.owner.merchant.id, mode: event.owner.mode, type: event.type, body: JSON.stringify(body) };
  const inserted = await trx
    .insertInto('events')
    .ignore()
    .values({ ...stored, object_id: event.objectId, created_at: event.at })
    .executeTakeFirst();
  // Inserted now: it is what was just written. Else a retry finds the first write's event.
  if (inserted.numInsertedOrUpdatedRows === 1n) return stored;
  const row = await trx.selectFrom('events').select(['id', 'merchant_id', 'mode', 'type', 'body']).where('id', '=', id).executeTakeFirstOrThrow();
  return { ...row, type: row.type as EventType };
}

/**
 * The enabled endpoints of the event's merchant and mode that subscribe to
 * its type: where a new event is delivered.
 */
export async function subscribedEndpointIds(db: Db, event: Pick<StoredEvent, 'merchant_id' | 'mode' | 'type'>): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where(scopedTo(tenantOf(event.merchant_id, event.mode)))
    .where('status', '=', 'enabled')
    .where('deleted_at', 'is', null)
    .execute();
  return rows.filter((r) => isSubscribed(r.events === null ? null : (JSON.parse(r.events) as string[]), event.type)).map((r) => r.id);
}
