import Router from '@koa/router';
import type { Db } from '../../db/database.ts';
import { CreateBeneficiaryRequestSchema } from '../../domain/split-schemas.ts';
import { listBeneficiaries, registerBeneficiary } from '../../payments/splits.ts';
import { callerOf } from '../middleware/auth.ts';
import { bodyValidator } from '../../http/validation.ts';

/** The merchant's beneficiaries for split settlement (docs/PAYMENTS.md#split-settlement): registered here, approved by the operator. */
export function beneficiaryRoutes(deps: { db: Db }): Router {
  const router = new Router();
  const validateCreate = bodyValidator(CreateBeneficiaryRequestSchema);

  router.post('/beneficiaries', async (ctx) => {
    const { beneficiary, created } = await registerBeneficiary(
      deps.db,
      callerOf(ctx),
      validateCreate(ctx.request.body),
    );
    ctx.status = created ? 201 : 200;
    ctx.body = { beneficiary };
  });

  router.get('/beneficiaries', async (ctx) => {
    ctx.body = await listBeneficiaries(deps.db, callerOf(ctx));
  });

  return router;
}
