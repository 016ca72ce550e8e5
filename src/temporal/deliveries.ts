/**
 * Hands events to their delivery workflows: one workflow per (event,
 * endpoint), started outside the payment's workflow so that a slow or dead
 * receiver never delays a payment (docs/WEBHOOKS.md#deliveries).
 */
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { subscribedEndpointIds, type StoredEvent } from '../db/events.ts';
import {
  retryScheduleMs,
  webhookDeliveryWorkflowId,
  webhookTaskQueue,
  type WebhookDeliveryInput,
} from '../domain/webhook-delivery.ts';
import { startWorkflowOnce } from './client.ts';

export type DeliveryConfig = Pick<
  Config,
  'TEMPORAL_TASK_QUEUE' | 'WEBHOOK_RETRY_SCHEDULE_SECONDS' | 'WEBHOOK_TIMEOUT_MS'
>;

/** The workflow type of workflows/webhook.ts, as registered by the worker. */
const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';

/** Starts one delivery; a delivery with the same id that exists or existed is left alone. */
export async function startDelivery(
  temporal: Client,
  config: DeliveryConfig,
  eventId: string,
  endpointId: string,
  deliveryId: string,
): Promise<void> {
  const input: WebhookDeliveryInput = {
    event_id: eventId,
    endpoint_id: endpointId,
    schedule_ms: retryScheduleMs(config.WEBHOOK_RETRY_SCHEDULE_SECONDS),
    timeout_ms: config.WEBHOOK_TIMEOUT_MS,
  };
  // A retried activity finds the delivery it started before; a finished one is never sent again by accident.
  await startWorkflowOnce(temporal, WEBHOOK_DELIVERY_WORKFLOW, {
    // Their own task queue and worker slots: a dead receiver never delays a payment.
    taskQueue: webhookTaskQueue(config.TEMPORAL_TASK_QUEUE),
    workflowId: deliveryId,
    args: [input],
  });
}

/** Starts the first delivery of an event to every subscribed endpoint; safe to call again. */
export async function dispatchEvent(
  db: Db,
  temporal: Client,
  config: DeliveryConfig,
  event: StoredEvent,
): Promise<void> {
  const endpointIds = await subscribedEndpointIds(db, event);
  await Promise.all(
    endpointIds.map((endpointId) =>
      startDelivery(temporal, config, event.id, endpointId, webhookDeliveryWorkflowId(event.id, endpointId)),
    ),
  );
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
