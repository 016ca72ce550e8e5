import Router from '@koa/router';
import {
  createPaymentRequestSchema,
  feePreviewQuerySchema,
  ListPaymentsQuerySchema,
  UpdatePaymentRequestSchema,
  VerifyRequestSchema,
} from '../../domain/payment-schemas.ts';
import {
  cancelPayment,
  createPayment,
  getPayment,
  listPayments,
  previewFee,
  reversePayment,
  updatePayment,
  verifyPayment,
  type PaymentServiceDeps,
} from '../../payments/service.ts';
import { withSplits } from '../../payments/splits.ts';
import { idempotencyKeyOf } from '../idempotency-key.ts';
import { callerOf } from '../middleware/auth.ts';
import { rateCounter, testPaymentQuota } from '../middleware/rate-limit.ts';
import { bodyValidator, queryValidator } from '../../http/validation.ts';

export function paymentRoutes(deps: PaymentServiceDeps): Router {
  const router = new Router();
  const validateCreate = bodyValidator(
    createPaymentRequestSchema({ min: deps.config.AMOUNT_MIN, max: deps.config.AMOUNT_MAX }),
  );
  const validateVerify = bodyValidator(VerifyRequestSchema);
  const validateUpdate = bodyValidator(UpdatePaymentRequestSchema);
  const validateList = queryValidator(ListPaymentsQuerySchema);
  const validateFeePreview = queryValidator(
    feePreviewQuerySchema({ min: deps.config.AMOUNT_MIN, max: deps.config.AMOUNT_MAX }),
  );

  router.post('/payments', testPaymentQuota(deps.config, rateCounter(deps.config, deps.db)), async (ctx) => {
    const request = validateCreate(ctx.request.body);
    const key = idempotencyKeyOf(ctx);
    const result = await createPayment(deps, callerOf(ctx), request, key);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = result.status;
    ctx.body = result.body;
  });

  router.get('/payments', async (ctx) => {
    ctx.body = await listPayments(deps.db, callerOf(ctx), validateList(ctx.query));
  });

  router.get('/payments/:id', async (ctx) => {
    ctx.body = { payment: await withSplits(deps.db, await getPayment(deps.db, callerOf(ctx), ctx.params.id!)) };
  });

  router.post('/payments/:id', async (ctx) => {
    const request = validateUpdate(ctx.request.body);
    ctx.body = { payment: await updatePayment(deps.db, callerOf(ctx), ctx.params.id!, request) };
  });

  router.post('/payments/:id/cancel', async (ctx) => {
    ctx.body = { payment: await cancelPayment(deps, callerOf(ctx), ctx.params.id!) };
  });

  router.post('/payments/:id/reverse', async (ctx) => {
    ctx.body = { payment: await reversePayment(deps, callerOf(ctx), ctx.params.id!) };
  });

  router.post('/payments/:id/verify', async (ctx) => {
    const { amount } = validateVerify(ctx.request.body);
    ctx.body = { payment: await verifyPayment(deps, callerOf(ctx), ctx.params.id!, amount) };
  });

  router.get('/fees', (ctx) => {
    ctx.body = previewFee(callerOf(ctx), validateFeePreview(ctx.query), deps.config);
  });

  return router;
}
