/**
 * Webhook side effects: one attempt to deliver an event to an endpoint,
 * recorded in MySQL whatever the receiver answers; and disabling an endpoint
 * that answered 410 Gone or failed a whole delivery.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { postToReceiver, type ReceiverAnswer } from '../src/adapters/webhook-request.ts';
import { webhookHeaders } from '../src/adapters/webhook-signing.ts';
import {
  checkWebhookUrl,
  merchantWebhookUrlPolicy,
  WebhookUrlRefused,
  type Resolver,
} from '../src/adapters/webhook-url-policy.ts';
import type { Config } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import { eventBodyById, type StoredEvent } from '../src/db/events.ts';
import { operatorNetworkWebhooksAllowed } from '../src/db/merchants.ts';
import { endpointSucceededSince, insertWebhookAttempt } from '../src/db/webhook-attempts.ts';
import { disableEndpoint, endpointById } from '../src/db/webhook-endpoints.ts';
import {
  MERCHANT_BUSY,
  type DeliveryAttemptInput,
  type DeliveryOutcome,
  type ExhaustedDeliveryInput,
} from '../src/domain/webhook-delivery.ts';
import type { Logger } from '../src/logger.ts';
import { attemptLabel, webhookDeliveries } from '../src/observability/metrics.ts';
import { dispatchEvent, type DeliveryConfig } from '../src/temporal/deliveries.ts';

export interface WebhookActivityDependencies {
  db: Db;
  logger: Logger;
  config: Pick<Config, 'WEBHOOK_ALLOW_LOOPBACK_IN_TEST' | 'WEBHOOK_ALLOWED_PORTS'> &
    Partial<Pick<Config, 'WEBHOOK_ALLOWED_NETWORKS' | 'WEBHOOK_CA_FILE'>> &
    Partial<Pick<Config, 'WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_MERCHANT'>> &
    Partial<DeliveryConfig>;
  /** Starts the deliveries of a `webhook_endpoint.disabled` event; without it that event is recorded but not sent. */
  temporal?: Client;
  /** DNS for the delivery-time URL check; the system resolver unless a test passes its own. */
  resolve?: Resolver;
}

/** How long an attempt waits before it asks again for one of its merchant's slots. */
const BUSY_RETRY_MS = 3_000;

export function createWebhookActivities({ db, logger, config, temporal, resolve }: WebhookActivityDependencies) {
  /** Attempts in flight in this process, per merchant. */
  const inFlight = new Map<string, number>();
  const perMerchant = config.WEBHOOK_MAX_CONCURRENT_ATTEMPTS_PER_MERCHANT ?? Number.POSITIVE_INFINITY;

  /** Sends the event to the merchant's other endpoints, when this process can start deliveries. */
  async function dispatch(event: StoredEvent | undefined): Promise<void> {
    if (event === undefined || temporal === undefined || config.TEMPORAL_TASK_QUEUE === undefined) return;
    await dispatchEvent(db, temporal, config as DeliveryConfig, event);
  }

  return {
    /**
     * One HTTP attempt; the receiver's failures are answers (`failed`), never
     * thrown. When the merchant already has its share of this worker's
     * attempts in flight, the attempt is not made: a retryable failure asks
     * Temporal to run it again shortly, so one merchant's slow or dead
     * receiver holds at most that many slots.
     */
    async deliverWebhook({
      event_id,
      endpoint_id,
      delivery_id,
      attempt,
      timeout_ms,
    }: DeliveryAttemptInput): Promise<DeliveryOutcome> {
      const endpoint = await endpointById(db, endpoint_id);
      if (endpoint === undefined || endpoint.deleted_at !== null || endpoint.status !== 'enabled')
        return 'endpoint_gone';
      const merchant = endpoint.merchant_id;
      const busy = inFlight.get(merchant) ?? 0;
      if (busy >= perMerchant) {
        throw ApplicationFailure.create({
          type: MERCHANT_BUSY,
          message: `the merchant already has ${busy} webhook attempts in flight on this worker`,
          nextRetryDelay: BUSY_RETRY_MS + Math.floor(Math.random() * 1000),
        });
      }
      inFlight.set(merchant, busy + 1);
      let answer: ReceiverAnswer;
      let now: Date;
      try {
        const event = await eventBodyById(db, event_id);
        now = new Date();
        const secrets = [endpoint.secret];
        if (
          endpoint.previous_secret !== null &&
          endpoint.previous_secret_expires_at !== null &&
          endpoint.previous_secret_expires_at > now
        ) {
          secrets.push(endpoint.previous_secret);
        }
        const headers = webhookHeaders(secrets, event.id, Math.floor(now.getTime() / 1000), event.body);
        try {
          // Checked again at every attempt: the name may resolve elsewhere now (DNS rebinding).
          const target = await checkWebhookUrl(
            endpoint.url,
            endpoint.mode,
            await merchantWebhookUrlPolicy(config, () => operatorNetworkWebhooksAllowed(db, merchant), resolve),
          );
          answer = await postToReceiver(target, headers, event.body, timeout_ms);
        } catch (error) {
          if (!(error instanceof WebhookUrlRefused)) throw error;
          answer = { failure: 'address_refused', detail: `url ${error.message}`, latencyMs: 0 };
        }
      } finally {
        const left = (inFlight.get(merchant) ?? 1) - 1;
        if (left <= 0) inFlight.delete(merchant);
        else inFlight.set(merchant, left);
      }
      const succeeded = answer.status !== undefined && answer.status >= 200 && answer.status < 300;
      // The merchant sees only the class of a failure; the detail goes to this worker's log.
      const failure = succeeded ? null : (answer.failure ?? 'http_status');
      await insertWebhookAttempt(db, {
        event_id,
        endpoint_id,
        delivery_id,
        attempt,
        attempted_at: now,
        response_status: answer.status ?? null,
        latency_ms: answer.latencyMs,
        error: failure,
        succeeded: succeeded ? 1 : 0,
      });
      logger.info(
        {
          event_id,
          endpoint_id,
          attempt,
          status: answer.status,
          latency_ms: answer.latencyMs,
          failure,
          detail: answer.detail,
        },
        'webhook attempt',
      );
      // Counted once the attempt's row is written, like the row: an activity retried after this point counts again, as it records again.
      webhookDeliveries.inc({
        outcome: succeeded ? 'succeeded' : answer.status === 410 ? 'endpoint_gone' : 'failed',
        attempt: attemptLabel(attempt),
      });

      if (succeeded) return 'succeeded';
      if (answer.status === 410) {
        // 410 Gone: the receiver says it will never want these again (Standard Webhooks).
        const event = await disableEndpoint(
          db,
          endpoint_id,
          'the receiver answered 410 Gone',
          `webhook_endpoint:${endpoint_id}:disabled:${delivery_id}:${attempt}`,
        );
        logger.warn({ endpoint_id }, 'webhook endpoint disabled after 410 Gone');
        await dispatch(event);
        return 'endpoint_gone';
      }
      return 'failed';
    },

    /**
     * A delivery failed every attempt of its schedule (days of them): the
     * endpoint is disabled, with a `webhook_endpoint.disabled` event to the
     * merchant's other endpoints, unless it answered any delivery with 2xx
     * since this one began (one event it refuses does not disable it). The
     * merchant enables it again through the API. Safe to repeat.
     */
    async disableExhaustedEndpoint({
      event_id,
      endpoint_id,
      delivery_id,
      attempts,
      started_at,
    }: ExhaustedDeliveryInput): Promise<boolean> {
      const since = new Date(started_at);
      const reason = `every one of ${attempts} attempts of a delivery failed (event ${event_id})`;
      const event = await disableEndpoint(
        db,
        endpoint_id,
        reason,
        `webhook_endpoint:${endpoint_id}:disabled:${delivery_id}`,
        async (trx) => !(await endpointSucceededSince(trx, endpoint_id, since)),
      );
      if (event === undefined) return false;
      logger.warn(
        { endpoint_id, event_id, delivery_id, attempts },
        'webhook endpoint disabled: a delivery exhausted its retries',
      );
      await dispatch(event);
      return true;
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
