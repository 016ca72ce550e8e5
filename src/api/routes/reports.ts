import Router from '@koa/router';
import type { Db } from '../../db/database.ts';
import { PaymentsReportQuerySchema } from '../../domain/report-schemas.ts';
import { isDependencyFailure } from '../../http/dependencies.ts';
import type { Logger } from '../../logger.ts';
import { paymentsReport } from '../../payments/report.ts';
import { callerOf } from '../middleware/auth.ts';
import { queryValidator } from '../../http/validation.ts';

/** Reconciliation reports: files streamed to the merchant (docs: README "Reconciliation"). */
export function reportRoutes(deps: { db: Db; logger: Logger }): Router {
  const router = new Router();
  const validateQuery = queryValidator(PaymentsReportQuerySchema);

  router.get('/reports/payments.csv', async (ctx) => {
    // Everything that can be refused is refused here, as JSON, before the first byte.
    const report = await paymentsReport(deps.db, callerOf(ctx), validateQuery(ctx.query));
    const requestId = String(ctx.state.requestId);
    report.body.once('error', (err) => {
      // The status line has gone out: all that is left is to cut the response short (no final chunk), and say why.
      const fields = { request_id: requestId, path: ctx.path, err: isDependencyFailure(err) ? err.message : err };
      deps.logger[isDependencyFailure(err) ? 'warn' : 'error'](fields, 'payments report cut short');
    });
    ctx.set('Content-Disposition', `attachment; filename="${report.filename}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = report.body;
  });

  return router;
}
