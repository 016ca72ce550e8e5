import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { ListSettlementsQuerySchema } from '../../domain/settlement-schemas.ts';
import { isDependencyFailure } from '../../http/dependencies.ts';
import type { Logger } from '../../logger.ts';
import { getBalance, getSettlement, listSettlements, settlementLinesCsv } from '../../settlements/service.ts';
import { callerOf } from '../middleware/auth.ts';
import { queryValidator } from '../../http/validation.ts';

/** The merchant's balance and settlements (docs/LEDGER.md#settlement). */
export function settlementRoutes(deps: { db: Db; logger: Logger; config: Pick<Config, 'SETTLEMENT_HOLD_HOURS'> }): Router {
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
    const id = ctx.params.id!;
    const body = Readable.from(await settlementLinesCsv(deps.db, callerOf(ctx), id));
    const requestId = String(ctx.state.requestId);
    body.once('error', (err) => {
      // The status line has gone out: the response is cut short (no final chunk).
      deps.logger[isDependencyFailure(err) ? 'warn' : 'error']({ request_id: requestId, path: ctx.path, err: isDependencyFailure(err) ? err.message : err }, 'settlement lines cut short');
    });
    ctx.set('Content-Disposition', `attachment; filename="settlement-${id}.csv"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = body;
  });

  return router;
}
