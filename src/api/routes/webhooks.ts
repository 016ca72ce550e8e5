import Router from '@koa/router';
import type { Context } from 'koa';
import type { AuthState } from '../middleware/auth.ts';
import { bodyValidator, queryValidator } from '../validation.ts';
import {
  CreateWebhookEndpointRequestSchema,
  ListEventsQuerySchema,
  ListWebhookEndpointsQuerySchema,
  RedeliverRequestSchema,
  RotateSecretRequestSchema,
} from '../webhook-schemas.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getEvent,
  listEvents,
  listWebhookEndpoints,
  redeliver,
  rotateWebhookSecret,
  type WebhookServiceDeps,
} from '../../webhooks/service.ts';

/** Webhook endpoints and the events sent to them (DESIGN §4, §6). */
export function webhookRoutes(deps: WebhookServiceDeps): Router {
  const router = new Router();
  const validateCreate = bodyValidator(CreateWebhookEndpointRequestSchema);
  const validateRotate = bodyValidator(RotateSecretRequestSchema);
  const validateRedeliver = bodyValidator(RedeliverRequestSchema);
  const validateListEndpoints = queryValidator(ListWebhookEndpointsQuerySchema);
  const validateListEvents = queryValidator(ListEventsQuerySchema);
  const auth = (ctx: Context) => ctx.state.auth as AuthState;
  // Both bodies are optional: no body means no options.
  const optionalBody = (ctx: Context) => ctx.request.body ?? {};

  router.post('/webhook_endpoints', async (ctx) => {
    const request = validateCreate(ctx.request.body);
    ctx.status = 201;
    ctx.body = await createWebhookEndpoint(deps, auth(ctx), request);
  });

  router.get('/webhook_endpoints', async (ctx) => {
    ctx.body = await listWebhookEndpoints(deps.db, auth(ctx), validateListEndpoints(ctx.query));
  });

  router.delete('/webhook_endpoints/:id', async (ctx) => {
    ctx.body = await deleteWebhookEndpoint(deps.db, auth(ctx), ctx.params.id!);
  });

  router.post('/webhook_endpoints/:id/rotate_secret', async (ctx) => {
    const { previous_secret_expires_in } = validateRotate(optionalBody(ctx));
    ctx.body = await rotateWebhookSecret(deps, auth(ctx), ctx.params.id!, previous_secret_expires_in);
  });

  router.get('/events', async (ctx) => {
    ctx.body = await listEvents(deps.db, auth(ctx), validateListEvents(ctx.query));
  });

  router.get('/events/:id', async (ctx) => {
    ctx.body = await getEvent(deps.db, auth(ctx), ctx.params.id!);
  });

  router.post('/events/:id/redeliver', async (ctx) => {
    const { endpoint_id } = validateRedeliver(optionalBody(ctx));
    ctx.status = 202;
    ctx.body = await redeliver(deps, auth(ctx), ctx.params.id!, endpoint_id);
  });

  return router;
}
