import Router from '@koa/router';
import { AdvanceClockRequestSchema, BankOutcomeRequestSchema } from '../../domain/payment-schemas.ts';
import { advancePaymentClock, simulateBankOutcome, type PaymentServiceDeps } from '../../payments/service.ts';
import { callerOf } from '../middleware/auth.ts';
import { bodyValidator } from '../../http/validation.ts';

/**
 * Test helpers (test keys only): drive a test payment from a merchant's CI
 * without a browser or a wait (README, "Testing your integration").
 */
export function testHelperRoutes(deps: PaymentServiceDeps): Router {
  const router = new Router({ prefix: '/test_helpers' });
  const validateOutcome = bodyValidator(BankOutcomeRequestSchema);
  const validateAdvance = bodyValidator(AdvanceClockRequestSchema);

  router.post('/payments/:id/bank_outcome', async (ctx) => {
    const { outcome } = validateOutcome(ctx.request.body);
    ctx.body = { payment: await simulateBankOutcome(deps, callerOf(ctx), ctx.params.id!, outcome) };
  });

  router.post('/payments/:id/advance', async (ctx) => {
    const { seconds } = validateAdvance(ctx.request.body);
    ctx.body = { payment: await advancePaymentClock(deps, callerOf(ctx), ctx.params.id!, seconds) };
  });

  return router;
}
