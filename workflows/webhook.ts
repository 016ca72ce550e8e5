/**
 * One delivery of one event to one endpoint (docs/WEBHOOKS.md#deliveries):
 * attempts on a schedule of durable sleeps (about immediately, 5 s, 5 min,
 * 30 min, 2 h, 5 h, then 10 h steps by default, about three days in all),
 * each a single HTTP request made by an activity, every attempt carrying the
 * event id as `webhook-id`. It runs beside the payment's workflow, never
 * inside it.
 */
import { ActivityFailure, log, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks.ts';
import type { DeliveryOutcome, WebhookDeliveryInput } from '../src/domain/webhook-delivery.ts';

export type WebhookDeliveryResult = DeliveryOutcome | 'exhausted';

export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  // The receiver's own failures are answers, not activity failures; the activity is retried only
  // when the worker could not record the attempt (MySQL briefly away).
  const webhooks = proxyActivities<WebhookActivities>({
    startToCloseTimeout: input.timeout_ms + 15_000,
    retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: 5 },
  });
  const deliveryId = workflowInfo().workflowId;
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
      continue;
    }
    if (outcome !== 'failed') return outcome;
  }
  return 'exhausted';
}
