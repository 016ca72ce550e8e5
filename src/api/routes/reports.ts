import Router from '@koa/router';
import type { Db } from '../../db/database.ts';
import { PaymentsReportQuerySchema } from '../../domain/report-schemas.ts';
import { sendCsv } from '../../http/csv.ts';
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
    sendCsv(ctx, { ...report, what: 'payments report' }, deps.logger);
  });

  return router;
}
