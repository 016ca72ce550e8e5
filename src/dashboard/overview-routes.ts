/** The dashboard's home: today's and the last 30 days' successful payments in one mode, and their daily chart. */
import { dailyTotals } from '../payments/overview.ts';
import { modeOf, tenantOfUser, type DashboardKit } from './kit.ts';
import { overviewPage } from './overview-views.ts';

export function overviewPages({ router, deps, signedIn, html }: DashboardKit): void {
  router.get(
    '/dashboard/overview',
    signedIn(async (request) => {
      const mode = modeOf(request.ctx.query.mode);
      const days = await dailyTotals(deps.db, tenantOfUser(request.user, mode), new Date());
      html(request.ctx, overviewPage(request.view('overview'), { mode, days }));
    }),
  );
}
