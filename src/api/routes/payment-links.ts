import Router from '@koa/router';
import { createPaymentLinkRequestSchema, ListPaymentLinksQuerySchema } from '../../domain/payment-link.ts';
import { createPaymentLink, deactivatePaymentLink, getPaymentLink, listPaymentLinks } from '../../payments/links.ts';
import type { PaymentServiceDeps } from '../../payments/service.ts';
import { idempotencyKeyOf } from '../idempotency-key.ts';
import { callerOf } from '../middleware/auth.ts';
import { bodyValidator, queryValidator } from '../../http/validation.ts';

/** Payment links (docs/API.md#payment-links): create, list, read, deactivate. */
export function paymentLinkRoutes(deps: PaymentServiceDeps): Router {
  const router = new Router();
  const validateCreate = bodyValidator(
    createPaymentLinkRequestSchema({ min: deps.config.AMOUNT_MIN, max: deps.config.AMOUNT_MAX }),
  );
  const validateList = queryValidator(ListPaymentLinksQuerySchema);

  router.post('/payment_links', async (ctx) => {
    const request = validateCreate(ctx.request.body);
    const result = await createPaymentLink(deps, callerOf(ctx), request, idempotencyKeyOf(ctx));
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = result.status;
    ctx.body = result.body;
  });

  router.get('/payment_links', async (ctx) => {
    ctx.body = await listPaymentLinks(deps.db, deps.config, callerOf(ctx), validateList(ctx.query));
  });

  router.get('/payment_links/:id', async (ctx) => {
    ctx.body = { payment_link: await getPaymentLink(deps.db, deps.config, callerOf(ctx), ctx.params.id!) };
  });

  router.post('/payment_links/:id/deactivate', async (ctx) => {
    ctx.body = { payment_link: await deactivatePaymentLink(deps.db, deps.config, callerOf(ctx), ctx.params.id!) };
  });

  return router;
}
