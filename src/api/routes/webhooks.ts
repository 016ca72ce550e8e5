import Router from '@koa/router';
import type { Context } from 'koa';
import {
  CreateWebhookEndpointRequestSchema,
  ListEventsQuerySchema,
  ListWebhookEndpointsQuerySchema,
  RedeliverRequestSchema,
  RotateSecretRequestSchema,
} from '../../domain/webhook-schemas.ts';
import { callerOf } from '../middleware/auth.ts';
import { rateCounter, redeliverQuota } from '../middleware/rate-limit.ts';
import { bodyValidator, queryValidator } from '../../http/validation.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  getEvent,
  listEvents,
  listWebhookEndpoints,
  redeliver,
  rotateWebhookSecret,
  type WebhookServiceDeps,
} from '../../webhooks/service.ts';

/** Webhook endpoints and the events sent to them (docs/WEBHOOKS.md). */
export function webhookRoutes(deps: WebhookServiceDeps): Router {
  const router = new Router();
  const validateCreate = bodyValidator(CreateWebhookEndpointRequestSchema);
  const validateRotate = bodyValidator(RotateSecretRequestSchema);
  const validateRedeliver = bodyValidator(RedeliverRequestSchema);
  const validateListEndpoints = queryValidator(ListWebhookEndpointsQuerySchema);
  const validateListEvents = queryValidator(ListEventsQuerySchema);
  // Both bodies are optional: no body means no options.
  const optionalBody = (ctx: Context) => ctx.request.body ?? {};

  router.post('/webhook_endpoints', async (ctx) => {
    const request = validateCreate(ctx.request.body);
    ctx.status = 201;
    ctx.body = await createWebhookEndpoint(deps, callerOf(ctx), request);
  });

  router.get('/webhook_endpoints', async (ctx) => {
    ctx.body = await listWebhookEndpoints(deps.db, callerOf(ctx), validateListEndpoints(ctx.query));
  });

  router.delete('/webhook_endpoints/:id', async (ctx) => {
    ctx.body = await deleteWebhookEndpoint(deps.db, callerOf(ctx), ctx.params.id!);
  });

  router.post('/webhook_endpoints/:id/enable', async (ctx) => {
    ctx.body = await enableWebhookEndpoint(deps.db, callerOf(ctx), ctx.params.id!);
  });

  router.post('/webhook_endpoints/:id/rotate_secret', async (ctx) => {
    const { previous_secret_expires_in } = validateRotate(optionalBody(ctx));
    ctx.body = await rotateWebhookSecret(deps, callerOf(ctx), ctx.params.id!, previous_secret_expires_in);
  });

  router.get('/events', async (ctx) => {
    ctx.body = await listEvents(deps.db, callerOf(ctx), validateListEvents(ctx.query));
  });

  router.get('/events/:id', async (ctx) => {
    ctx.body = await getEvent(deps.db, callerOf(ctx), ctx.params.id!);
  });

  // Each redelivery is a new delivery workflow: a merchant may start only so many a minute.
  router.post('/events/:id/redeliver', redeliverQuota(deps.config, rateCounter(deps.config, deps.db)), async (ctx) => {
    const { endpoint_id } = validateRedeliver(optionalBody(ctx));
    ctx.status = 202;
    ctx.body = await redeliver(deps, callerOf(ctx), ctx.params.id!, endpoint_id);
  });

  return router;
}
