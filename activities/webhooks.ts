/**
 * Webhook side effects: one attempt to deliver an event to an endpoint,
 * recorded in MySQL whatever the receiver answers.
 */
import { postToReceiver, type ReceiverAnswer } from '../src/adapters/webhook-request.ts';
import { webhookHeaders } from '../src/adapters/webhook-signing.ts';
import { checkWebhookUrl, webhookUrlPolicy, WebhookUrlRefused, type Resolver } from '../src/adapters/webhook-url-policy.ts';
import type { Config } from '../src/config.ts';
import type { Db } from '../src/db/database.ts';
import type { DeliveryAttemptInput, DeliveryOutcome } from '../src/domain/webhook-delivery.ts';
import type { Logger } from '../src/logger.ts';

export interface WebhookActivityDependencies {
  db: Db;
  logger: Logger;
  config: Pick<Config, 'WEBHOOK_ALLOW_LOOPBACK_IN_TEST' | 'WEBHOOK_ALLOWED_PORTS'>;
  /** DNS for the delivery-time URL check; the system resolver unless a test passes its own. */
  resolve?: Resolver;
}

export function createWebhookActivities({ db, logger, config, resolve }: WebhookActivityDependencies) {
  return {
    /** One HTTP attempt; the receiver's failures are answers (`failed`), never thrown. */
    async deliverWebhook({ event_id, endpoint_id, delivery_id, attempt, timeout_ms }: DeliveryAttemptInput): Promise<DeliveryOutcome> {
      const endpoint = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint_id).executeTakeFirst();
      if (endpoint === undefined || endpoint.deleted_at !== null || endpoint.status !== 'enabled') return 'endpoint_gone';
      const event = await db.selectFrom('events').select(['id', 'body']).where('id', '=', event_id).executeTakeFirstOrThrow();

      const now = new Date();
      const secrets = [endpoint.secret];
      if (endpoint.previous_secret !== null && endpoint.previous_secret_expires_at !== null && endpoint.previous_secret_expires_at > now) {
        secrets.push(endpoint.previous_secret);
      }
      const headers = webhookHeaders(secrets, event.id, Math.floor(now.getTime() / 1000), event.body);

      let answer: ReceiverAnswer;
      try {
        // Checked again at every attempt: the name may resolve elsewhere now (DNS rebinding).
        const target = await checkWebhookUrl(endpoint.url, endpoint.mode, webhookUrlPolicy(config, resolve));
        answer = await postToReceiver(target, headers, event.body, timeout_ms);
      } catch (error) {
        if (!(error instanceof WebhookUrlRefused)) throw error;
        answer = { failure: 'address_refused', detail: `url ${error.message}`, latencyMs: 0 };
      }
      const succeeded = answer.status !== undefined && answer.status >= 200 && answer.status < 300;
      // The merchant sees only the class of a failure; the detail goes to this worker's log.
      const failure = succeeded ? null : (answer.failure ?? 'http_status');
      await db
        .insertInto('webhook_attempts')
        .values({
          event_id,
          endpoint_id,
          delivery_id,
          attempt,
          attempted_at: now,
          response_status: answer.status ?? null,
          latency_ms: answer.latencyMs,
          error: failure,
          succeeded: succeeded ? 1 : 0,
        })
        .execute();
      logger.info({ event_id, endpoint_id, attempt, status: answer.status, latency_ms: answer.latencyMs, failure, detail: answer.detail }, 'webhook attempt');

      if (succeeded) return 'succeeded';
      if (answer.status === 410) {
        // 410 Gone: the receiver says it will never want these again (Standard Webhooks).
        await db
          .updateTable('webhook_endpoints')
          .set({ status: 'disabled', disabled_reason: 'the receiver answered 410 Gone' })
          .where('id', '=', endpoint_id)
          .execute();
        logger.warn({ endpoint_id }, 'webhook endpoint disabled after 410 Gone');
        return 'endpoint_gone';
      }
      return 'failed';
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
