/**
 * Webhook endpoint records: how the API shows them, and disabling one, which
 * emits a `webhook_endpoint.disabled` event in the same transaction (so the
 * merchant's other endpoints hear about it).
 */
import type { EventType } from '../domain/events.ts';
import { tenantOf } from '../domain/merchant.ts';
import type { WebhookEndpoint } from '../domain/webhook-schemas.ts';
import type { Db } from './database.ts';
import { recordEvent, type StoredEvent } from './events.ts';

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

export const ENDPOINT_COLUMNS = ['id', 'url', 'events', 'mode', 'status', 'disabled_reason', 'previous_secret_expires_at', 'created_at'] as const;

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
    await trx.updateTable('webhook_endpoints').set({ status: 'disabled', disabled_reason: reason }).where('id', '=', endpointId).execute();
    const endpoint = endpointFromRow({ ...row, status: 'disabled', disabled_reason: reason }, at);
    return recordEvent(trx, { sourceKey, owner: tenantOf(row.merchant_id, row.mode), type: 'webhook_endpoint.disabled', objectId: endpointId, data: { webhook_endpoint: endpoint }, at });
  });
}
