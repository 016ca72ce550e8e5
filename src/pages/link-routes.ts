/**
 * A payment link's pages (docs/PAGES.md#payment-links): the form at
 * `/l/{slug}` that starts a payment and sends the customer on to the
 * payment page, the receipt they return to, and the link's QR code. The
 * same headers, CSP and CSRF rules as the payment page; no script. Starting
 * a payment needs no sign-in, so it is counted (docs/SECURITY.md, "Public
 * pages"): per client address with the other public page actions, per link,
 * and in the merchant's test-payment limit for a test link; past any, 429
 * and nothing started.
 */
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import {
  amountFromText,
  COLLECTED_FIELDS,
  isSlug,
  linkUnavailability,
  type CollectedAnswers,
} from '../domain/payment-link.ts';
import { configuredCsrfGuard } from '../http/csrf.ts';
import { countHit, countPageAction, rateCounter } from '../http/rate-limit.ts';
import { DomainError } from '../errors.ts';
import { linkPaymentOf, paymentLinkBySlug, paymentLinkQrSvg, startLinkPayment } from '../payments/links.ts';
import { PageRefusal, readForm, type PageDependencies, type PageHandler } from './forms.ts';
import { langQuery, type Lang } from './i18n.ts';
import { linkNotFoundPage, linkPage, linkReceiptPage, linkUnavailablePage, type LinkFormState } from './link-views.ts';

/** A link's form: a few short fields, a note of up to 255 characters (Persian is six bytes a letter, encoded). */
const LINK_FORM_LIMIT_BYTES = 8_192;
const PAYMENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Answers a page of its own (not the generic message page) for a link that cannot be paid or found. */
class LinkPageAnswer extends Error {
  readonly status: number;
  readonly html: string;
  constructor(status: number, html: string) {
    super('link page');
    this.status = status;
    this.html = html;
  }
}

export function linkRoutes(
  router: Router,
  { config, db, temporal }: PageDependencies,
  page: (handler: PageHandler) => (ctx: RouterContext) => Promise<void>,
): void {
  const csrf = configuredCsrfGuard(config, { cookie: 'dargah_link_csrf', path: '/l', purpose: 'dargah-link-csrf' });
  const counter = rateCounter(config, db);

  /** 429 (with Retry-After) and nothing done past a limit. */
  const refuse = (ctx: RouterContext, refusal: DomainError | undefined) => {
    if (refusal === undefined) return;
    ctx.set(refusal.headers);
    throw new PageRefusal(429, 'too_many');
  };
  /** One start counted per link, and for a test link in its merchant's test-payment limit (the API's bucket: a link is no way round it). */
  const countStart = async (ctx: RouterContext, linkId: string, mode: 'test' | 'live', merchantId: string) => {
    const perLink = config.LINK_PAYMENTS_PER_LINK_PER_MINUTE;
    if (perLink > 0) {
      refuse(
        ctx,
        (
          await countHit(counter, {
            name: `link_payments:${linkId}`,
            limit: perLink,
            windowSeconds: 60,
            message: 'Too many payments on this link.',
          })
        ).refusal,
      );
    }
    const testQuota = config.TEST_PAYMENTS_PER_MINUTE;
    if (mode === 'test' && testQuota > 0) {
      refuse(
        ctx,
        (
          await countHit(counter, {
            name: `test_payments:${merchantId}`,
            limit: testQuota,
            windowSeconds: 60,
            message: 'Too many test payments.',
          })
        ).refusal,
      );
    }
  };

  const load = async (slug: string, lang: Lang) => {
    const found = isSlug(slug) ? await paymentLinkBySlug(db, config, slug) : undefined;
    if (found === undefined) throw new LinkPageAnswer(404, linkNotFoundPage({ lang, path: `/l/${slug}` }));
    return found;
  };

  /** Link pages answer their own refusals; anything else is the pages' wrapper's. */
  const linkPageOf =
    (handler: (ctx: RouterContext, lang: Lang, slug: string) => Promise<void>): PageHandler =>
    async (ctx, lang) => {
      try {
        await handler(ctx, lang, ctx.params.slug ?? '');
      } catch (error) {
        if (!(error instanceof LinkPageAnswer)) throw error;
        ctx.remove('Set-Cookie');
        ctx.status = error.status;
        ctx.type = 'html';
        ctx.body = error.html;
      }
    };

  router.get(
    '/l/:slug',
    page(
      linkPageOf(async (ctx, lang, slug) => {
        const { link, merchantName } = await load(slug, lang);
        const context = { lang, path: `/l/${link.slug}` };
        const unavailable = linkUnavailability(link, Date.now());
        if (unavailable !== undefined) throw new LinkPageAnswer(410, linkUnavailablePage(unavailable, link, context));
        ctx.type = 'html';
        ctx.body = linkPage(link, merchantName, context, csrf.issue(ctx));
      }),
    ),
  );

  router.post(
    '/l/:slug',
    page(
      linkPageOf(async (ctx, lang, slug) => {
        // Counted before anything is read: a flood costs one counter update a request.
        refuse(ctx, await countPageAction(counter, config, ctx.ip));
        const form = await readForm(ctx, LINK_FORM_LIMIT_BYTES);
        if (!csrf.accepts(ctx, form)) throw new PageRefusal(403, 'forbidden');
        const { link, merchantId, merchantName } = await load(slug, lang);
        await countStart(ctx, link.id, link.mode, merchantId);
        const context = { lang, path: `/l/${link.slug}` };
        const answers: CollectedAnswers = {};
        for (const field of COLLECTED_FIELDS) {
          const value = form.get(field);
          if (value !== null) answers[field] = value;
        }
        const amountText = form.get('amount') ?? '';
        const amount = amountFromText(amountText);
        try {
          const payment = await startLinkPayment({ db, temporal, config }, link.slug, { amount, answers, lang });
          ctx.redirect(`/pay/${payment.id}${langQuery(lang)}`);
          ctx.status = 303;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          if (error.code === 'validation_failed') {
            // The form again, with what the customer typed and what to fix; nothing was written.
            const state: LinkFormState = { values: { ...answers, amount: amountText }, problems: error.details ?? [] };
            throw new LinkPageAnswer(422, linkPage(link, merchantName, context, csrf.issue(ctx), state));
          }
          if (
            error.code === 'payment_link_inactive' ||
            error.code === 'payment_link_expired' ||
            error.code === 'payment_link_used_up'
          ) {
            throw new LinkPageAnswer(410, linkUnavailablePage(error.code, link, context));
          }
          // The link's open payments are at their bound (LINK_OPEN_PAYMENTS_MAX).
          if (error.code === 'rate_limited') refuse(ctx, error);
          if (error.code === 'live_mode_not_enabled') throw new PageRefusal(403, 'merchant_not_live');
          throw error;
        }
      }),
    ),
  );

  router.get(
    '/l/:slug/receipt/:paymentId',
    page(
      linkPageOf(async (ctx, lang, slug) => {
        const { link, merchantName } = await load(slug, lang);
        const paymentId = ctx.params.paymentId ?? '';
        const payment = PAYMENT_ID.test(paymentId) ? await linkPaymentOf(db, link.id, paymentId) : undefined;
        if (payment === undefined) throw new PageRefusal(404, 'not_found');
        ctx.type = 'html';
        ctx.body = linkReceiptPage(payment, link, merchantName, {
          lang,
          path: `/l/${link.slug}/receipt/${paymentId}`,
        });
      }),
    ),
  );

  router.get(
    '/l/:slug/qr.svg',
    page(
      linkPageOf(async (ctx, lang, slug) => {
        const { link } = await load(slug, lang);
        ctx.type = 'image/svg+xml';
        // The link's address never changes; a deactivated link's code leads to the page that says so.
        ctx.set('Cache-Control', 'public, max-age=86400');
        ctx.body = await paymentLinkQrSvg(link);
      }),
    ),
  );
}
