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

/**
 * Why an attempt failed, as the merchant sees it: a class, never the
 * connection error's text (which would tell a key holder what answers on the
 * worker's network). The detail stays in the worker's log.
 * `http_status`: the receiver answered outside 2xx (its status is shown);
 * `address_refused`: the URL resolves to an address the gateway refuses.
 */
export const WEBHOOK_ATTEMPT_ERRORS = [
  'timeout',
  'connection_failed',
  'tls_error',
  'http_status',
  'address_refused',
] as const;
export type WebhookAttemptError = (typeof WEBHOOK_ATTEMPT_ERRORS)[number];

const isAttemptError = (value: string): value is WebhookAttemptError =>
  (WEBHOOK_ATTEMPT_ERRORS as readonly string[]).includes(value);

/**
 * The class of a stored attempt's failure; null when it succeeded. Attempts
 * recorded before classes existed kept the error's text: they are classed
 * here, so no text ever reaches the API.
 */
export function attemptErrorOf(
  stored: string | null,
  responseStatus: number | null,
  succeeded: boolean,
): WebhookAttemptError | null {
  if (succeeded) return null;
  if (stored !== null && isAttemptError(stored)) return stored;
  if (stored === null) return responseStatus === null ? 'connection_failed' : 'http_status';
  if (/^no answer within/.test(stored)) return 'timeout';
  if (/^address refused/.test(stored)) return 'address_refused';
  if (/TLS|SSL|CERT|EPROTO/i.test(stored)) return 'tls_error';
  return 'connection_failed';
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

/**
 * The task queue of webhook deliveries: their own, so a slow or dead receiver
 * takes worker slots from other deliveries at most, never from payments.
 */
export const webhookTaskQueue = (paymentTaskQueue: string) => `${paymentTaskQueue}-webhooks`;

/** The type of the retryable failure of an attempt that waits for one of its merchant's slots. */
export const MERCHANT_BUSY = 'merchant_deliveries_busy';

/** Input of the activity that disables an endpoint whose delivery exhausted its retries. */
export interface ExhaustedDeliveryInput {
  event_id: string;
  endpoint_id: string;
  delivery_id: string;
  attempts: number;
  /** When the delivery began (ISO 8601): a success of the endpoint since then keeps it enabled. */
  started_at: string;
}

/** The first delivery of an event to an endpoint; redeliveries add a suffix. */
export const webhookDeliveryWorkflowId = (eventId: string, endpointId: string) => `webhook-${eventId}-${endpointId}`;

/** A retry schedule setting ("0,5,300,…" seconds) as milliseconds before each attempt. */
export function retryScheduleMs(scheduleSeconds: string): number[] {
  return scheduleSeconds.split(',').map((s) => Number(s) * 1000);
}

/**
 * When the delivery's attempt after a failed attempt `attempt` (1-based)
 * is due, about (the wait starts when the failed attempt ends), or null
 * when that was the schedule's last attempt. `scheduleMs[n]` is the wait
 * before attempt n + 1.
 */
export function nextAttemptAt(attempt: number, attemptedAt: Date, scheduleMs: readonly number[]): Date | null {
  const wait = scheduleMs[attempt];
  return wait === undefined ? null : new Date(attemptedAt.getTime() + wait);
}
