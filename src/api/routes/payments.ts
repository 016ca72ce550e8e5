import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError } from '../errors.ts';
import { createPaymentRequestSchema, ListPaymentsQuerySchema, VerifyRequestSchema } from '../schemas.ts';
import { bodyValidator, queryValidator } from '../validation.ts';
import { rateCounter, testPaymentQuota } from '../middleware/rate-limit.ts';
import type { AuthState } from '../middleware/auth.ts';
import { createPayment, getPayment, listPayments, verifyPayment, type PaymentServiceDeps } from '../../payments/service.ts';

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/** The Idempotency-Key header, if sent: 1–255 printable ASCII characters. */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  const key = ctx.get('idempotency-key');
  if (key === '') return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ApiError('validation_failed', 'Idempotency-Key must be 1 to 255 printable ASCII characters.', [
      { path: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
  }
  return key;
}

export function paymentRoutes(deps: PaymentServiceDeps): Router {
  const router = new Router();
  const validateCreate = bodyValidator(createPaymentRequestSchema({ min: deps.config.AMOUNT_MIN, max: deps.config.AMOUNT_MAX }));
  const validateVerify = bodyValidator(VerifyRequestSchema);
  const validateList = queryValidator(ListPaymentsQuerySchema);
  const auth = (ctx: Context) => ctx.state.auth as AuthState;

  router.post('/payments', testPaymentQuota(deps.config, rateCounter(deps.config, deps.db)), async (ctx) => {
    const request = validateCreate(ctx.request.body);
    const key = idempotencyKeyOf(ctx);
    const result = await createPayment(deps, auth(ctx), request, key);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = result.status;
    ctx.body = result.body;
  });

  router.get('/payments', async (ctx) => {
    ctx.body = await listPayments(deps.db, auth(ctx), validateList(ctx.query));
  });

  router.get('/payments/:id', async (ctx) => {
    ctx.body = { payment: await getPayment(deps.db, auth(ctx), ctx.params.id!) };
  });

  router.post('/payments/:id/verify', async (ctx) => {
    const { amount } = validateVerify(ctx.request.body);
    ctx.body = { payment: await verifyPayment(deps, auth(ctx), ctx.params.id!, amount) };
  });

  return router;
}
