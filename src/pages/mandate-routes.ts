/**
 * The customer's pages of a mandate (docs/SUBSCRIPTIONS.md#mandates, docs/PAGES.md#the-mandate-pages):
 * the bank page, where the customer reads the mandate's limits and picks the bank to sign at (the
 * provider's banks, each a link to the provider's signing page), and the return from the bank, which
 * hands the outcome to the mandate's workflow and sends the customer on to the merchant's return_url.
 * Rendered by mandate-views.ts like every hosted page; the same headers, CSP and `Cache-Control:
 * no-store`, errors as pages. Persian (right to left) unless `?lang=en`. The page has links only, no
 * form: nothing to forge a request with, so no CSRF token is needed. Each bank's link goes through
 * `/mandates/{id}/bank/{code}`, which records the bank chosen on the pending mandate (the provider never
 * says which bank signed) and redirects to the provider's signing page: a forged visit can at most name
 * another bank of the list until the customer chooses, and nothing after.
 */
import Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { bankChoices, chooseBank, mandateReturn, type MandateServiceDeps } from '../direct-debit/mandates.ts';
import { CONTENT_SECURITY_POLICY } from '../http/page-headers.ts';
import type { Logger } from '../logger.ts';
import { pageWrapper } from './forms.ts';
import type { Lang } from './i18n.ts';
import { bankPagePath, mandatePage, type MandatePageState } from './mandate-views.ts';

const ID = /^[0-9a-f-]{36}$/;
/** A provider's bank code: letters, digits, '_' and '-' (src/direct-debit/providers/zarinpal/mapping.ts). */
const BANK_CODE = /^[A-Za-z0-9_-]{1,32}$/;

export function mandatePageRoutes(deps: MandateServiceDeps & { logger: Logger }): Router {
  const router = new Router();
  const page = pageWrapper(CONTENT_SECURITY_POLICY, deps.logger);

  const show = (
    ctx: RouterContext,
    lang: Lang,
    state: MandatePageState,
    status: number,
    options?: { path?: string; refreshTo?: string },
  ) => {
    ctx.status = status;
    ctx.type = 'html';
    ctx.body = mandatePage(state, lang, options);
  };

  router.get(
    '/mandates/:id/bank',
    page(async (ctx, lang, id) => {
      const choice = ID.test(id) ? await bankChoices(deps, id) : { kind: 'not_found' as const };
      const path = `/mandates/${id}/bank`;
      if (choice.kind === 'not_found') return show(ctx, lang, choice, 404, { path });
      if (choice.kind === 'ended') return show(ctx, lang, choice, 409, { path });
      // The workflow has not registered the mandate at the provider yet (a second, usually): the page reloads.
      show(ctx, lang, choice, 200, { path });
    }),
  );

  // A bank chosen: recorded on the pending mandate, then on to the provider's signing page at that bank.
  router.get(
    '/mandates/:id/bank/:code',
    page(async (ctx, lang, id) => {
      const code = ctx.params.code!;
      const chosen =
        ID.test(id) && BANK_CODE.test(code) ? await chooseBank(deps, id, code) : { kind: 'not_found' as const };
      if (chosen.kind === 'sign') {
        ctx.status = 303;
        ctx.redirect(chosen.url);
        return;
      }
      // Not ready yet: back to the bank page, which waits for the mandate and offers the banks again.
      if (chosen.kind === 'preparing') return show(ctx, lang, chosen, 200, { refreshTo: bankPagePath(id, lang) });
      const path = `/mandates/${id}/bank`;
      if (chosen.kind === 'ended') return show(ctx, lang, chosen, 409, { path });
      show(ctx, lang, chosen, 404, { path });
    }),
  );

  // The provider sends the customer back here by a redirect (GET) with its query.
  router.get(
    '/mandates/:id/return',
    page(async (ctx, lang, id) => {
      const query = Object.fromEntries(
        Object.entries(ctx.query).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
      );
      const next = ID.test(id) ? await mandateReturn(deps, id, query) : undefined;
      if (next === undefined) return show(ctx, lang, { kind: 'not_found' }, 404);
      // A page that goes on by itself, not a redirect: the customer arrives here from the provider's form,
      // and a browser holds a redirect after a form post to that page's CSP form-action, which does not
      // name the merchant's site. A meta refresh is no form navigation (src/http/page-headers.ts).
      show(ctx, lang, { kind: 'return', next }, 200);
    }),
  );

  return router;
}
