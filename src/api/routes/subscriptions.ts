import Router from '@koa/router';
import { AdvanceClockRequestSchema } from '../../domain/payment-schemas.ts';
import {
  CancelSubscriptionRequestSchema,
  createPlanRequestSchema,
  CreateSubscriptionRequestSchema,
  ListPlansQuerySchema,
  ListSubscriptionsQuerySchema,
} from '../../domain/subscription-schemas.ts';
import {
  advanceSubscriptionClock,
  cancelSubscription,
  createPlan,
  createSubscription,
  getPlan,
  getSubscription,
  listPlans,
  listSubscriptions,
  type SubscriptionServiceDeps,
} from '../../direct-debit/subscriptions.ts';
import { bodyValidator, queryValidator } from '../../http/validation.ts';
import { idempotencyKeyOf } from '../idempotency-key.ts';
import { callerOf } from '../middleware/auth.ts';

/** Plans and subscriptions of direct debit (docs/API.md#plans, docs/API.md#subscriptions). */
export function subscriptionRoutes(deps: SubscriptionServiceDeps): Router {
  const router = new Router();
  const validatePlan = bodyValidator(createPlanRequestSchema({ max: deps.config.AMOUNT_MAX }));
  const validatePlanList = queryValidator(ListPlansQuerySchema);
  const validateCreate = bodyValidator(CreateSubscriptionRequestSchema);
  const validateList = queryValidator(ListSubscriptionsQuerySchema);
  const validateCancel = bodyValidator(CancelSubscriptionRequestSchema);

  router.post('/plans', async (ctx) => {
    const request = validatePlan(ctx.request.body);
    const result = await createPlan(deps, callerOf(ctx), request, idempotencyKeyOf(ctx));
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = result.status;
    ctx.body = result.body;
  });
  router.get('/plans', async (ctx) => {
    ctx.body = await listPlans(deps.db, callerOf(ctx), validatePlanList(ctx.query));
  });
  router.get('/plans/:id', async (ctx) => {
    ctx.body = { plan: await getPlan(deps.db, callerOf(ctx), ctx.params.id!) };
  });

  router.post('/subscriptions', async (ctx) => {
    const request = validateCreate(ctx.request.body);
    const result = await createSubscription(deps, callerOf(ctx), request, idempotencyKeyOf(ctx));
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = result.status;
    ctx.body = result.body;
  });
  router.get('/subscriptions', async (ctx) => {
    ctx.body = await listSubscriptions(deps, callerOf(ctx), validateList(ctx.query));
  });
  router.get('/subscriptions/:id', async (ctx) => {
    ctx.body = { subscription: await getSubscription(deps, callerOf(ctx), ctx.params.id!) };
  });
  router.post('/subscriptions/:id/cancel', async (ctx) => {
    const { at_period_end } = validateCancel(ctx.request.body);
    ctx.body = { subscription: await cancelSubscription(deps, callerOf(ctx), ctx.params.id!, at_period_end) };
  });

  return router;
}

/** The subscription's test clock (test keys only), beside the payment's under /test_helpers. */
export function subscriptionTestHelperRoutes(deps: SubscriptionServiceDeps): Router {
  const router = new Router({ prefix: '/test_helpers' });
  const validateAdvance = bodyValidator(AdvanceClockRequestSchema);
  router.post('/subscriptions/:id/advance', async (ctx) => {
    const { seconds } = validateAdvance(ctx.request.body);
    ctx.body = { subscription: await advanceSubscriptionClock(deps, callerOf(ctx), ctx.params.id!, seconds) };
  });
  return router;
}
