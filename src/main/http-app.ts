import { randomUUID } from 'node:crypto';
/**
 * The gateway's HTTP application: the JSON API under /api/v1, the hosted
 * pages, the merchant dashboard, the served OpenAPI document and the health probes, composed here
 * (an entry point) because none of those parts may import another.
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import { errorHandler } from '../api/middleware/errors.ts';
import { jsonBody } from '../api/middleware/body.ts';
import { authenticate } from '../api/middleware/auth.ts';
import { keyRateLimit, rateCounter } from '../api/middleware/rate-limit.ts';
import { healthRoutes } from '../api/routes/health.ts';
import { paymentRoutes } from '../api/routes/payments.ts';
import { refundRoutes } from '../api/routes/refunds.ts';
import { paymentLinkRoutes } from '../api/routes/payment-links.ts';
import { reportRoutes } from '../api/routes/reports.ts';
import { settlementRoutes } from '../api/routes/settlements.ts';
import { beneficiaryRoutes } from '../api/routes/beneficiaries.ts';
import { testHelperRoutes } from '../api/routes/test-helpers.ts';
import { webhookRoutes } from '../api/routes/webhooks.ts';
import { mandateRoutes } from '../api/routes/mandates.ts';
import { subscriptionRoutes, subscriptionTestHelperRoutes } from '../api/routes/subscriptions.ts';
import { directDebitProviders, type DirectDebitProviders } from '../direct-debit/providers/registry.ts';
import { mandatePageRoutes } from '../pages/mandate-routes.ts';
import { subscriptionPageRoutes } from '../pages/subscription-routes.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Logger } from '../logger.ts';
import { securityHeaders } from '../http/security-headers.ts';
import { observeRequests } from '../http/observe.ts';
import { clientAddressMiddleware } from '../http/client-address.ts';
import { pageRoutes } from '../pages/routes.ts';
import { zarinpalRoutes } from '../compat/zarinpal-routes.ts';
import { zibalRoutes } from '../compat/zibal-routes.ts';
import { dashboardRoutes } from '../dashboard/routes.ts';
import { createMailer, type Mailer } from '../adapters/mailer.ts';
import { docsRoutes } from '../../openapi/routes.ts';

export interface AppDependencies {
  config: Config;
  db: Db;
  temporal: Client;
  logger: Logger;
  /** The dashboard's email; by default SMTP_URL's server (or standard output without one). */
  mailer?: Mailer;
  /** Each mode's direct debit provider; by default the configuration's. */
  directDebit?: DirectDebitProviders;
}

/** Builds the HTTP application from its dependencies; no global state, so tests build their own. */
export function createApp(deps: AppDependencies): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by errorHandler, with the request id

  // Without `throw`, the router answers an empty 405 with its Allow header; errorHandler fills in the body.
  const allowed = {};

  const api = new Router({ prefix: '/api/v1' });
  // The key first, its rate limit next, the body last: an unauthenticated or throttled request is
  // refused before a byte of its body is read. (The OpenAPI document needs no key: docs routes come first.)
  api.use(authenticate(deps.db));
  api.use(keyRateLimit(deps.config, rateCounter(deps.config, deps.db)));
  api.use(jsonBody(deps.config.BODY_LIMIT_BYTES));
  const payments = paymentRoutes(deps);
  api.use(payments.routes(), payments.allowedMethods(allowed));
  const webhooks = webhookRoutes(deps);
  api.use(webhooks.routes(), webhooks.allowedMethods(allowed));
  const refunds = refundRoutes(deps);
  api.use(refunds.routes(), refunds.allowedMethods(allowed));
  const paymentLinks = paymentLinkRoutes(deps);
  api.use(paymentLinks.routes(), paymentLinks.allowedMethods(allowed));
  const testHelpers = testHelperRoutes(deps);
  api.use(testHelpers.routes(), testHelpers.allowedMethods(allowed));
  const reports = reportRoutes(deps);
  api.use(reports.routes(), reports.allowedMethods(allowed));
  const settlements = settlementRoutes(deps);
  api.use(settlements.routes(), settlements.allowedMethods(allowed));
  const beneficiaries = beneficiaryRoutes(deps);
  api.use(beneficiaries.routes(), beneficiaries.allowedMethods(allowed));
  const mandateDeps = { ...deps, providers: deps.directDebit ?? directDebitProviders(deps.config) };
  const mandates = mandateRoutes(mandateDeps);
  api.use(mandates.routes(), mandates.allowedMethods(allowed));
  const subscriptions = subscriptionRoutes(deps);
  api.use(subscriptions.routes(), subscriptions.allowedMethods(allowed));
  const subscriptionHelpers = subscriptionTestHelperRoutes(deps);
  api.use(subscriptionHelpers.routes(), subscriptionHelpers.allowedMethods(allowed));

  const health = healthRoutes(deps.db, deps.temporal);
  const zarinpal = zarinpalRoutes(deps);
  const zibal = zibalRoutes(deps);
  const pages = pageRoutes(deps);
  const mandatePages = mandatePageRoutes(mandateDeps);
  const subscriptionPages = subscriptionPageRoutes(deps);
  const docs = docsRoutes(deps.config);
  const dashboard = dashboardRoutes({ ...deps, mailer: deps.mailer ?? createMailer(deps.config) });

  // First of all: every address used after it (throttles, audit, logs) is the client's, not a proxy's.
  app.use(clientAddressMiddleware(deps.config.TRUSTED_PROXIES));
  // Outermost otherwise: it counts and times every answer, the error handler's included.
  app.use(observeRequests());
  app.use(securityHeaders(deps.config));
  app.use(errorHandler(deps.logger, () => `req_${randomUUID().replace(/-/g, '')}`));
  app.use(health.routes()).use(health.allowedMethods(allowed));
  app.use(pages.routes()).use(pages.allowedMethods(allowed));
  app.use(mandatePages.routes()).use(mandatePages.allowedMethods(allowed));
  app.use(subscriptionPages.routes()).use(subscriptionPages.allowedMethods(allowed));
  app.use(dashboard.routes()).use(dashboard.allowedMethods(allowed));
  app.use(docs.routes()).use(docs.allowedMethods(allowed));
  app.use(api.routes()).use(api.allowedMethods(allowed));
  app.use(zarinpal.routes()).use(zarinpal.allowedMethods(allowed));
  app.use(zibal.routes()).use(zibal.allowedMethods(allowed));
  return app;
}
