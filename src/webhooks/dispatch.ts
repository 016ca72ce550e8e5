/**
 * Hands events to their delivery workflows: one workflow per (event,
 * endpoint), started outside the payment's workflow so that a slow or dead
 * receiver never delays a payment.
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { startWorkflowOnce } from '../temporal/client.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { isSubscribed } from '../domain/events.ts';
import { webhookDeliveryWorkflowId, type WebhookDeliveryInput } from '../../workflows/webhook-definitions.ts';
import type { webhookDeliveryWorkflow } from '../../workflows/webhook.ts';
import type { StoredEvent } from './events.ts';

export type DeliveryConfig = Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'WEBHOOK_RETRY_SCHEDULE_SECONDS' | 'WEBHOOK_TIMEOUT_MS'>;

/** WEBHOOK_RETRY_SCHEDULE_SECONDS as milliseconds before each attempt. */
export function retryScheduleMs(config: Pick<Config, 'WEBHOOK_RETRY_SCHEDULE_SECONDS'>): number[] {
  return config.WEBHOOK_RETRY_SCHEDULE_SECONDS.split(',').map((s) => Number(s) * 1000);
}

/** Starts one delivery; a delivery with the same id that exists or existed is left alone. */
export async function startDelivery(temporal: Client, config: DeliveryConfig, eventId: string, endpointId: string, deliveryId: string): Promise<void> {
  const input: WebhookDeliveryInput = {
    event_id: eventId,
    endpoint_id: endpointId,
    schedule_ms: retryScheduleMs(config),
    timeout_ms: config.WEBHOOK_TIMEOUT_MS,
  };
  // A retried activity finds the delivery it started before; a finished one is never sent again by accident.
  await startWorkflowOnce<typeof webhookDeliveryWorkflow>(temporal, 'webhookDeliveryWorkflow', {
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    workflowId: deliveryId,
    args: [input],
  });
}

/** The enabled endpoints of the event's merchant and mode that subscribe to its type. */
export async function subscribedEndpointIds(db: Db, event: Pick<StoredEvent, 'merchant_id' | 'mode' | 'type'>): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('merchant_id', '=', event.merchant_id)
    .where('mode', '=', event.mode)
    .where('status', '=', 'enabled')
    .where('deleted_at', 'is', null)
    .execute();
  return rows.filter((r) => isSubscribed(r.events === null ? null : (JSON.parse(r.events) as string[]), event.type)).map((r) => r.id);
}

/** Starts the first delivery of an event to every subscribed endpoint; safe to call again. */
export async function dispatchEvent(db: Db, temporal: Client, config: DeliveryConfig, event: StoredEvent): Promise<void> {
  const endpointIds = await subscribedEndpointIds(db, event);
  await Promise.all(endpointIds.map((endpointId) => startDelivery(temporal, config, event.id, endpointId, webhookDeliveryWorkflowId(event.id, endpointId))));
}

/** A new delivery of an event to endpoints, asked for by the merchant. */
export async function redeliverEvent(temporal: Client, config: DeliveryConfig, eventId: string, endpointIds: string[]) {
  return Promise.all(
    endpointIds.map(async (endpointId) => {
      const deliveryId = `${webhookDeliveryWorkflowId(eventId, endpointId)}-redelivery-${randomUUID()}`;
      await startDelivery(temporal, config, eventId, endpointId, deliveryId);
      return { endpoint_id: endpointId, delivery_id: deliveryId };
    }),
  );
}
