import Router from '@koa/router';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { ListSettlementsQuerySchema } from '../../domain/settlement-schemas.ts';
import { sendCsv } from '../../http/csv.ts';
import type { Logger } from '../../logger.ts';
import { getBalance, getSettlement, listSettlements, settlementLinesCsv } from '../../settlements/service.ts';
import { callerOf } from '../middleware/auth.ts';
import { queryValidator } from '../../http/validation.ts';

/** The merchant's balance and settlements (docs/LEDGER.md#settlement). */
export function settlementRoutes(deps: {
  db: Db;
  logger: Logger;
  config: Pick<Config, 'SETTLEMENT_HOLD_HOURS'>;
}): Router {
  const router = new Router();
  const validateList = queryValidator(ListSettlementsQuerySchema);

  router.get('/balance', async (ctx) => {
    ctx.body = { balance: await getBalance(deps.db, callerOf(ctx), deps.config) };
  });

  router.get('/settlements', async (ctx) => {
    ctx.body = await listSettlements(deps.db, callerOf(ctx), validateList(ctx.query));
  });

  router.get('/settlements/:id', async (ctx) => {
    ctx.body = await getSettlement(deps.db, callerOf(ctx), ctx.params.id!);
  });

  router.get('/settlements/:id/lines.csv', async (ctx) => {
    // An unknown id is refused here, as JSON, before the first byte.
    sendCsv(
      ctx,
      { ...(await settlementLinesCsv(deps.db, callerOf(ctx), ctx.params.id!)), what: 'settlement lines' },
      deps.logger,
    );
  });

  return router;
}
