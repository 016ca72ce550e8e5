import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Db } from '../../db/database.ts';
import { pingDatabase } from '../../db/health.ts';
import { withTimeout } from '../../errors.ts';

const CHECK_MS = 2_000;

async function check(what: string, probe: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  try {
    await withTimeout(what, CHECK_MS, probe());
    return { ok: true };
  } catch {
    return { ok: false, error: `${what} is unreachable` };
  }
}

/** /healthz: the process answers. /readyz: it can serve, because MySQL and Temporal answer. */
export function healthRoutes(db: Db, temporal: Client): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const [mysql, temporalCheck] = await Promise.all([
      check('MySQL', () => pingDatabase(db)),
      check('Temporal', () =>
        temporal.connection.withDeadline(Date.now() + CHECK_MS, () => temporal.workflowService.getSystemInfo({})),
      ),
    ]);
    const ready = mysql.ok && temporalCheck.ok;
    ctx.status = ready ? 200 : 503;
    if (!ready) ctx.set('Retry-After', '5');
    const checks = { mysql, temporal: temporalCheck };
    ctx.body = ready
      ? { status: 'ready', checks }
      : {
          code: 'service_unavailable',
          message: 'A dependency is unreachable.',
          request_id: ctx.state.requestId as string,
          checks,
        };
  });
  return router;
}
