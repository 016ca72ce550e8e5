/**
 * One delivery of one event to one endpoint (docs/WEBHOOKS.md#deliveries):
 * attempts on a schedule of durable sleeps (about immediately, 5 s, 5 min,
 * 30 min, 2 h, 5 h, then 10 h steps by default, about three days in all),
 * each a single HTTP request made by an activity, every attempt carrying the
 * event id as `webhook-id`. It runs beside the payment's workflow, never
 * inside it, on the webhook task queue (src/temporal/deliveries.ts).
 */
import {
  ActivityFailure,
  log,
  patched,
  proxyActivities,
  sleep,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks.ts';
import type { DeliveryOutcome, WebhookDeliveryInput } from '../src/domain/webhook-delivery.ts';
import { DISABLE_EXHAUSTED_PATCH } from './patches.ts';

export type WebhookDeliveryResult = DeliveryOutcome | 'exhausted';

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const current = patched(DISABLE_EXHAUSTED_PATCH);
  // The receiver's own failures are answers, not activity failures; the activity is retried only
  // when the worker could not record the attempt (MySQL briefly away) or, since the patch, when the
  // merchant's share of the worker's slots is taken (the activity then asks to run again in a few
  // seconds): up to 20 tries, then this attempt is skipped for the next scheduled one.
  const options: ActivityOptions = current
    ? {
        startToCloseTimeout: input.timeout_ms + 15_000,
        retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 20 },
      }
    : {
        startToCloseTimeout: input.timeout_ms + 15_000,
        retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
      };
  const webhooks = proxyActivities<WebhookActivities>(options);
  const deliveryId = workflowInfo().workflowId;
  /** Whether the last scheduled attempt reached the receiver (and failed), rather than not running at all. */
  let lastAttemptFailed = false;
  for (const [index, waitMs] of input.schedule_ms.entries()) {
    if (waitMs > 0) await sleep(waitMs);
    let outcome: DeliveryOutcome;
    try {
      outcome = await webhooks.deliverWebhook({
        event_id: input.event_id,
        endpoint_id: input.endpoint_id,
        delivery_id: deliveryId,
        attempt: index + 1,
        timeout_ms: input.timeout_ms,
      });
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      log.warn('webhook attempt could not run; trying at the next scheduled time', { attempt: index + 1 });
      lastAttemptFailed = false;
      continue;
    }
    if (outcome !== 'failed') return outcome;
    lastAttemptFailed = true;
  }
  // Every attempt failed: the endpoint is disabled (webhook_endpoint.disabled) unless it answered
  // another delivery meanwhile. Not when our side could not even make the last attempt.
  if (current && lastAttemptFailed) {
    try {
      await webhooks.disableExhaustedEndpoint({
        event_id: input.event_id,
        endpoint_id: input.endpoint_id,
        delivery_id: deliveryId,
        attempts: input.schedule_ms.length,
        started_at: workflowInfo().startTime.toISOString(),
      });
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      log.warn('the endpoint could not be disabled; it stays enabled', { endpoint_id: input.endpoint_id });
    }
  }
  return 'exhausted';
}
