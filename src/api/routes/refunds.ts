import Router from '@koa/router';
import {
  createRefundRequestSchema,
  ListAllRefundsQuerySchema,
  ListRefundsQuerySchema,
} from '../../domain/refund-schemas.ts';
import type { PaymentServiceDeps } from '../../payments/service.ts';
import { createRefund, getRefund, listAllRefunds, listRefunds } from '../../refunds/service.ts';
import { idempotencyKeyOf } from '../idempotency-key.ts';
import { callerOf } from '../middleware/auth.ts';
import { requireScope } from '../../merchants/keys.ts';
import { bodyValidator, queryValidator } from '../../http/validation.ts';

export function refundRoutes(deps: PaymentServiceDeps): Router {
  const router = new Router();
  const validateCreate = bodyValidator(createRefundRequestSchema({ min: 1, max: deps.config.AMOUNT_MAX }));
  const validateList = queryValidator(ListRefundsQuerySchema);
  const validateListAll = queryValidator(ListAllRefundsQuerySchema);

  router.post('/payments/:id/refunds', async (ctx) => {
    requireScope(callerOf(ctx), 'refunds'); // a live key the merchant did not grant refunds: 403, nothing read or written
    // No body at all asks for a full refund.
    const request = validateCreate(ctx.request.body ?? {});
    const key = idempotencyKeyOf(ctx);
    const result = await createRefund(deps, callerOf(ctx), ctx.params.id!, request, key);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = result.status;
    ctx.body = result.body;
  });

  router.get('/payments/:id/refunds', async (ctx) => {
    ctx.body = await listRefunds(deps.db, callerOf(ctx), ctx.params.id!, validateList(ctx.query), deps.config);
  });

  router.get('/refunds', async (ctx) => {
    ctx.body = await listAllRefunds(deps.db, callerOf(ctx), validateListAll(ctx.query), deps.config);
  });

  router.get('/refunds/:id', async (ctx) => {
    ctx.body = { refund: await getRefund(deps.db, callerOf(ctx), ctx.params.id!, deps.config) };
  });

  return router;
}
