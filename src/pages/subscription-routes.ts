/**
 * The customer's subscription page (docs/PAGES.md#the-subscription-page):
 * `GET /subscriptions/{id}?t=<token>` shows the subscription, and `POST /subscriptions/{id}` (the token
 * in the form) cancels it at the period's end, by the merchant's own cancel through the subscription's
 * workflow (src/direct-debit/customer-page.ts). The token is in the query (and the form), so no log
 * line that names the path holds it. A wrong or missing token answers 404 exactly as an unknown id,
 * so the page tells nobody whether a subscription exists. The same headers, CSP and CSRF rules as the
 * payment page, its own CSRF cookie and purpose; no script. A post is counted with the other public
 * page actions per client address.
 */
import Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { cancelFromCustomerPage, customerSubscription } from '../direct-debit/customer-page.ts';
import type { SubscriptionServiceDeps } from '../direct-debit/subscriptions.ts';
import { configuredCsrfGuard } from '../http/csrf.ts';
import { CONTENT_SECURITY_POLICY } from '../http/page-headers.ts';
import { rateCounter } from '../http/rate-limit.ts';
import type { Logger } from '../logger.ts';
import { countClientAction, PageRefusal, pageWrapper, readForm } from './forms.ts';
import type { Lang } from './i18n.ts';
import { customerMayCancel, subscriptionPage } from './subscription-views.ts';

const SUBSCRIPTION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** An HMAC-SHA256 in base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function subscriptionPageRoutes(deps: SubscriptionServiceDeps & { logger: Logger }): Router {
  const { config, db } = deps;
  const router = new Router();
  const page = pageWrapper(CONTENT_SECURITY_POLICY, deps.logger);
  const csrf = configuredCsrfGuard(config, {
    cookie: 'dargah_subscription_csrf',
    path: '/subscriptions',
    purpose: 'dargah-subscription-csrf',
  });
  const counter = rateCounter(config, db);

  /** The subscription behind the link; 404 for anything that is not one (no hint of which part was wrong). */
  const load = async (id: string, token: string) => {
    const found =
      SUBSCRIPTION_ID.test(id) && TOKEN.test(token) ? await customerSubscription(db, config, id, token) : undefined;
    if (found === undefined) throw new PageRefusal(404, 'not_found');
    return found;
  };
  const address = (id: string, token: string) => `/subscriptions/${id}?t=${token}`;
  const withLang = (href: string, lang: Lang) => (lang === 'en' ? `${href}&lang=en` : href);

  router.get(
    '/subscriptions/:id',
    page(async (ctx: RouterContext, lang, id) => {
      const token = typeof ctx.query.t === 'string' ? ctx.query.t : '';
      const found = await load(id, token);
      ctx.type = 'html';
      ctx.body = subscriptionPage({
        ...found,
        lang,
        address: address(id, token),
        pageToken: token,
        csrfToken: customerMayCancel(found.subscription) ? csrf.issue(ctx) : undefined,
        done: ctx.query.done === '1',
      });
    }),
  );

  router.post(
    '/subscriptions/:id',
    page(async (ctx: RouterContext, lang, id) => {
      // Counted before anything is read: a flood costs one counter update a request.
      await countClientAction(counter, config, ctx);
      const form = await readForm(ctx);
      if (!csrf.accepts(ctx, form)) throw new PageRefusal(403, 'forbidden');
      const token = form.get('t') ?? '';
      await load(id, token);
      if (form.get('action') !== 'cancel_at_period_end') throw new PageRefusal(400, 'bad_request');
      if ((await cancelFromCustomerPage(deps, id, token)) === undefined) throw new PageRefusal(404, 'not_found');
      ctx.redirect(withLang(`${address(id, token)}&done=1`, lang));
      ctx.status = 303;
    }),
  );

  return router;
}
