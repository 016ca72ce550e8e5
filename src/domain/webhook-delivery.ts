/**
 * The contract of the webhook delivery workflow (workflows/webhook.ts),
 * shared by the workflow, its activity and whoever starts it.
 */
export interface WebhookDeliveryInput {
  event_id: string;
  endpoint_id: string;
  /** Milliseconds to wait before each attempt; its length is the number of attempts. */
  schedule_ms: number[];
  /** Time the receiver has to answer one attempt. */
  timeout_ms: number;
}

/** What one attempt found; `failed` is the only outcome that leads to another attempt (`endpoint_gone`: deleted, disabled, or it answered 410). */
export type DeliveryOutcome = 'succeeded' | 'failed' | 'endpoint_gone';

export interface DeliveryAttemptInput {
  event_id: string;
  endpoint_id: string;
  delivery_id: string;
  attempt: number;
  timeout_ms: number;
}

/** The first delivery of an event to an endpoint; redeliveries add a suffix. */
export const webhookDeliveryWorkflowId = (eventId: string, endpointId: string) => `webhook-${eventId}-${endpointId}`;

/** A retry schedule setting ("0,5,300,…" seconds) as milliseconds before each attempt. */
export function retryScheduleMs(scheduleSeconds: string): number[] {
  return scheduleSeconds.split(',').map((s) => Number(s) * 1000);
}
