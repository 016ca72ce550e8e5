/**
 * The refund claim page (docs/PAGES.md#refund-claims): `GET /refund-claims/{refund id}?t=<signature>`
 * shows a `payer_card` refund and the form that asks the card that paid; the post matches the card and
 * has the identity provider name its account, then hands that account (never the card) to the refund's
 * workflow. The signature is in the query (and the form), so no log line that names the path holds it.
 * The same headers, CSP and CSRF rules as the payment page; no script. A post is counted with the other
 * public page actions per client address, and wrong cards per refund (src/refunds/claims.ts).
 */
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { configuredCsrfGuard } from '../http/csrf.ts';
import { rateCounter } from '../http/rate-limit.ts';
import {
  claimRefund,
  ClaimRefused,
  claimSubject,
  configuredIdentity,
  IdentityUnavailableError,
  type ClaimSubject,
  type IdentityProviders,
} from '../refunds/claims.ts';
import { countClientAction, PageRefusal, readForm, type PageDependencies, type PageHandler } from './forms.ts';
import type { Lang } from './i18n.ts';
import { claimPage, type ClaimNotice } from './refund-claim-views.ts';

const REFUND_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function refundClaimRoutes(
  router: Router,
  deps: PageDependencies & { identity?: IdentityProviders },
  page: (handler: PageHandler) => (ctx: RouterContext) => Promise<void>,
): void {
  const { config, db, temporal } = deps;
  const identity = deps.identity ?? configuredIdentity(config);
  const csrf = configuredCsrfGuard(config, {
    cookie: 'dargah_claim_csrf',
    path: '/refund-claims',
    purpose: 'dargah-refund-claim-csrf',
  });
  const counter = rateCounter(config, db);

  /** The refund behind the link; 404 for anything that is not a claim link (no hint of which part was wrong). */
  const load = async (refundId: string, token: string): Promise<ClaimSubject> => {
    const subject =
      REFUND_ID.test(refundId) && TOKEN.test(token) ? await claimSubject(db, config, refundId, token) : undefined;
    if (subject === undefined) throw new PageRefusal(404, 'not_found');
    return subject;
  };

  const show = (
    ctx: RouterContext,
    lang: Lang,
    subject: ClaimSubject,
    token: string,
    notice?: ClaimNotice,
    status = 200,
  ) => {
    ctx.status = status;
    ctx.type = 'html';
    ctx.body = claimPage({
      ...subject,
      lang,
      address: `/refund-claims/${subject.refund.id}?t=${token}`,
      claimToken: token,
      csrfToken: subject.refund.status === 'awaiting_payer' ? csrf.issue(ctx) : undefined,
      ...(notice === undefined ? {} : { notice }),
    });
  };

  router.get(
    '/refund-claims/:id',
    page(async (ctx, lang, refundId) => {
      const token = typeof ctx.query.t === 'string' ? ctx.query.t : '';
      show(ctx, lang, await load(refundId, token), token);
    }),
  );

  router.post(
    '/refund-claims/:id',
    page(async (ctx, lang, refundId) => {
      // Counted before anything is read: a flood costs one counter update a request.
      await countClientAction(counter, config, ctx);
      const form = await readForm(ctx);
      if (!csrf.accepts(ctx, form)) throw new PageRefusal(403, 'forbidden');
      const token = form.get('claim_token') ?? '';
      const subject = await load(refundId, token);
      try {
        const refund = await claimRefund({ db, temporal, config, identity }, subject, form.get('card_number') ?? '');
        show(ctx, lang, { ...subject, refund }, token);
      } catch (error) {
        if (error instanceof ClaimRefused) {
          const notice: ClaimNotice =
            error.why === 'wrong_card'
              ? { why: 'wrong_card', attemptsLeft: error.attemptsLeft ?? 0 }
              : error.why === 'not_waiting'
                ? { why: 'locked' }
                : { why: error.why };
          // The refund as it is now (claimed by another tab, locked, failed).
          const now = (await claimSubject(db, config, refundId, token)) ?? subject;
          if (error.why === 'not_waiting') return show(ctx, lang, now, token, undefined, 409);
          return show(ctx, lang, now, token, notice, error.why === 'invalid_card' ? 422 : 403);
        }
        if (error instanceof IdentityUnavailableError) {
          // Nothing recorded, no attempt used: the customer tries again.
          ctx.set('Retry-After', '30');
          return show(ctx, lang, subject, token, { why: 'unavailable' }, 503);
        }
        throw error;
      }
    }),
  );
}
