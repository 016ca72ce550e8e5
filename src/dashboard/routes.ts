/**
 * The merchant dashboard under /dashboard (docs/DASHBOARD.md): sign-up,
 * email confirmation, sign-in and sign-out, payments, payment links, direct debit, API keys and the
 * gateway request, site domains. Server-rendered like the hosted pages:
 * Persian by default, English with `?lang=en` (kept in a cookie), no script
 * at all, the same strict CSP, and a CSRF token on every form. Every change
 * goes through the same services the CLI and the API use, and every action
 * is recorded in the merchant's audit log (src/accounts/audit.ts).
 *
 * Each area registers its routes in its own module, all built with one kit
 * (kit.ts), so every page follows the same rules.
 */
import Router from '@koa/router';
import { setSecurityHeaders } from '../http/page-headers.ts';
import { accountPages } from './account-routes.ts';
import { developerPages } from './developer-routes.ts';
import { directDebitPages } from './direct-debit-routes.ts';
import { dashboardKit, type DashboardDependencies } from './kit.ts';
import { linkPages } from './link-routes.ts';
import { onboardingPages } from './onboarding-routes.ts';
import { overviewPages } from './overview-routes.ts';
import { paymentPages } from './payment-routes.ts';
import { securityPages } from './security-routes.ts';
import { settingsPages } from './settings-routes.ts';
import { settlementPages } from './settlement-routes.ts';
import { DASHBOARD_CSS } from './views.ts';
import { webhookPages } from './webhook-routes.ts';

export type { DashboardDependencies };

export function dashboardRoutes(deps: DashboardDependencies): Router {
  const router = new Router();

  router.get(DASHBOARD_CSS.path, (ctx) => {
    setSecurityHeaders(ctx);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.type = DASHBOARD_CSS.type;
    ctx.body = DASHBOARD_CSS.content;
  });

  const kit = dashboardKit(router, deps);
  accountPages(kit);
  overviewPages(kit);
  paymentPages(kit);
  linkPages(kit);
  directDebitPages(kit);
  developerPages(kit);
  onboardingPages(kit);
  settingsPages(kit);
  securityPages(kit);
  settlementPages(kit);
  webhookPages(kit);

  return router;
}
