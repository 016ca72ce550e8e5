import Router from '@koa/router';
import type { Context } from 'koa';
import { createRefundRequestSchema, ListRefundsQuerySchema } from '../refund-schemas.ts';
import { bodyValidator, queryValidator } from '../validation.ts';
import type { AuthState } from '../middleware/auth.ts';
import { idempotencyKeyOf } from './payments.ts';
import { createRefund, getRefund, listRefunds } from '../../refunds/service.ts';
import type { PaymentServiceDeps } from '../../payments/service.ts';

export function refundRoutes(deps: PaymentServiceDeps): Router {
  const router = new Router();
  const validateCreate = bodyValidator(createRefundRequestSchema({ min: 1, max: deps.config.AMOUNT_MAX }));
  const validateList = queryValidator(ListRefundsQuerySchema);
  const auth = (ctx: Context) => ctx.state.auth as AuthState;

  router.post('/payments/:id/refunds', async (ctx) => {
    // No body at all asks for a full refund.
    const request = validateCreate(ctx.request.body ?? {});
    const key = idempotencyKeyOf(ctx);
    const result = await createRefund(deps, auth(ctx), ctx.params.id!, request, key);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = result.status;
    ctx.body = result.body;
  });

  router.get('/payments/:id/refunds', async (ctx) => {
    ctx.body = await listRefunds(deps.db, auth(ctx), ctx.params.id!, validateList(ctx.query));
  });

  router.get('/refunds/:id', async (ctx) => {
    ctx.body = { refund: await getRefund(deps.db, auth(ctx), ctx.params.id!) };
  });

  return router;
}
