import Router from '@koa/router';
import {
  createDebitRequestSchema,
  createMandateRequestSchema,
  ListMandatesQuerySchema,
} from '../../domain/mandate-schemas.ts';
import { createDebit } from '../../direct-debit/debit-service.ts';
import {
  cancelMandate,
  createMandate,
  getMandate,
  listMandates,
  type MandateServiceDeps,
} from '../../direct-debit/mandates.ts';
import { bodyValidator, queryValidator } from '../../http/validation.ts';
import { idempotencyKeyOf } from '../idempotency-key.ts';
import { callerOf } from '../middleware/auth.ts';

/** Mandates of direct debit (docs/API.md#mandates). */
export function mandateRoutes(deps: MandateServiceDeps): Router {
  const router = new Router();
  const validateCreate = bodyValidator(createMandateRequestSchema({ max: deps.config.AMOUNT_MAX }));
  const validateList = queryValidator(ListMandatesQuerySchema);
  const validateDebit = bodyValidator(createDebitRequestSchema({ max: deps.config.AMOUNT_MAX }));

  router.post('/mandates', async (ctx) => {
    const request = validateCreate(ctx.request.body);
    const key = idempotencyKeyOf(ctx);
    const result = await createMandate(deps, callerOf(ctx), request, key);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = result.status;
    ctx.body = result.body;
  });

  router.get('/mandates', async (ctx) => {
    ctx.body = await listMandates(deps.db, callerOf(ctx), validateList(ctx.query));
  });

  router.get('/mandates/:id', async (ctx) => {
    ctx.body = { mandate: await getMandate(deps.db, callerOf(ctx), ctx.params.id!) };
  });

  router.post('/mandates/:id/cancel', async (ctx) => {
    ctx.body = { mandate: await cancelMandate(deps, callerOf(ctx), ctx.params.id!) };
  });

  // A debit (docs/API.md#debits): the body and the key are checked before anything is written.
  router.post('/mandates/:id/debits', async (ctx) => {
    const request = validateDebit(ctx.request.body);
    const key = idempotencyKeyOf(ctx);
    const result = await createDebit(deps, callerOf(ctx), ctx.params.id!, request, key);
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = result.status;
    ctx.body = result.body;
  });

  return router;
}
