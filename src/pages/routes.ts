/**
 * Hosted pages for the customer (docs/PAGES.md): the payment page
 * with the test bank, the bank's form post, and the result page that leads
 * back to the merchant's callback_url. Server-rendered, Persian by default,
 * English with `?lang=en`, no script at all.
 */
import Router from '@koa/router';
import { hostedPayment, type HostedPayment } from '../payments/hosted-page.ts';
import {
  bankCallbackFrom,
  isLateReturn,
  isReturnSignature,
  requestBankPage,
  startLateReturn,
  submitBankCallback,
  type BankPage,
} from '../payments/service.ts';
import { configuredCsrfGuard } from '../http/csrf.ts';
import { countPageAction, rateCounter } from '../http/rate-limit.ts';
import { linkPaymentMayProceed } from '../payments/links.ts';
import { contentSecurityPolicy, setSecurityHeaders } from '../http/page-headers.ts';
import { linkRoutes } from './link-routes.ts';
import { refundClaimRoutes } from './refund-claim-routes.ts';
import { PageRefusal, pageWrapper, readForm, type PageDependencies } from './forms.ts';

import { livePspConfigured, pspPageOrigins } from '../config.ts';
import { DomainError } from '../errors.ts';
import { langQuery } from './i18n.ts';
import { ASSETS, bankRedirectPage, paymentPage, statusPage } from './views.ts';

export type { PageDependencies };

const PAYMENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function pageRoutes({ config, db, temporal, logger }: PageDependencies): Router {
  const router = new Router();
  if (config.PAGES_CSRF_SECRET === '') {
    logger.warn(
      'PAGES_CSRF_SECRET is not set: using a random secret, valid only in this process (set it when running several API processes)',
    );
  }
  // The PSPs' pages the Pay button leads to (by a redirect or a form post): every registered PSP's configured addresses.
  const policy = contentSecurityPolicy(pspPageOrigins(config));
  /** A live payment can be paid only when a live PSP is configured. */
  const bankFor = (mode: 'test' | 'live') => mode === 'test' || livePspConfigured(config);
  const csrf = configuredCsrfGuard(config, { cookie: 'dargah_csrf', path: '/pay', purpose: 'dargah-pay-csrf' });
  const counter = rateCounter(config, db);

  const load = async (id: string): Promise<HostedPayment> => {
    const found = PAYMENT_ID.test(id) ? await hostedPayment(db, id) : undefined;
    if (found === undefined) throw new PageRefusal(404, 'not_found');
    return found;
  };

  const page = pageWrapper(policy, logger);

  for (const asset of Object.values(ASSETS)) {
    router.get(asset.path, (ctx) => {
      setSecurityHeaders(ctx, policy);
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.type = asset.type;
      ctx.body = asset.content;
    });
  }

  router.get(
    '/pay/:id',
    page(async (ctx, lang, paymentId) => {
      const subject = await load(paymentId);
      const { payment } = subject;
      ctx.type = 'html';
      const context = { lang, path: `/pay/${payment.id}` };
      if (payment.status === 'created' && Date.now() < Date.parse(payment.expires_at)) {
        // A live payment with no live bank configured gets no form and no token.
        const token = bankFor(payment.mode) ? csrf.issue(ctx) : undefined;
        ctx.body = paymentPage(subject, context, token, bankFor(payment.mode));
        return;
      }
      ctx.body = statusPage(subject, context, 'payment', Date.now());
    }),
  );

  router.post(
    '/pay/:id',
    page(async (ctx, lang, paymentId) => {
      // The Pay button asks a PSP for a token (and a failing PSP opens the breaker every merchant
      // shares): counted per client address with the other public page actions, before anything.
      const refused = await countPageAction(counter, config, ctx.ip);
      if (refused !== undefined) {
        ctx.set(refused.headers);
        throw new PageRefusal(429, 'too_many');
      }
      const form = await readForm(ctx);
      if (!csrf.accepts(ctx, form)) throw new PageRefusal(403, 'forbidden');
      const { payment, merchantId } = await load(paymentId);
      if (!bankFor(payment.mode)) throw new PageRefusal(403, 'live_unavailable');
      // A live link payment whose merchant lost live mode since it started goes to no bank: the
      // gateway would verify it itself (docs/PAYMENTS.md#payment-links).
      if (!(await linkPaymentMayProceed(db, payment, merchantId))) throw new PageRefusal(403, 'merchant_not_live');
      if (form.get('action') !== 'pay') throw new PageRefusal(400, 'bad_request');
      // Off to the bank's page with the payment's token; a payment no longer payable shows its state instead.
      if (payment.status === 'created' && Date.now() < Date.parse(payment.expires_at)) {
        let bankPage: BankPage | undefined;
        try {
          bankPage = await requestBankPage({ temporal, config }, payment.id);
        } catch (error) {
          // No bank of the payment's route answered: a page that says so, and the payment stays payable.
          if (error instanceof DomainError && error.code === 'service_unavailable') {
            ctx.set('Retry-After', '5');
            throw new PageRefusal(503, 'bank_unavailable');
          }
          if (!(error instanceof DomainError && error.code === 'payment_not_payable')) throw error;
        }
        if (bankPage?.method === 'POST') {
          // A bank whose page takes a form post (Mellat's RefId): a page with the form and its button.
          ctx.type = 'html';
          ctx.body = bankRedirectPage(bankPage, { lang }, payment.mode === 'test');
          return;
        }
        if (bankPage !== undefined) {
          ctx.redirect(lang === 'en' ? `${bankPage.url}&lang=en` : bankPage.url);
          ctx.status = 303;
          return;
        }
      }
      ctx.redirect(`/pay/${payment.id}/result${langQuery(lang)}`);
      ctx.status = 303;
    }),
  );

  // The bank sends the customer back here (docs/BANK.md): another site's form post, so no CSRF token,
  // but nothing in it is trusted: the workflow confirms with the bank before anything is paid. SEP's
  // guide puts Token and RefNum on the return address's query instead, by a GET (docs/psps/sep.md#the-return):
  // the query's fields are read too, and a post's form fields win over them. The address given to the PSP
  // with the payment's bank session is signed (`/pay/{id}/return/{signature}`, return-signature.ts): only
  // a return that carries the signature (or the session's PSP token) may end the payment; the bare address
  // stays for bank sessions begun before it, and anyone can reach it, so it ends nothing.
  const bankReturn = page(async (ctx, lang, paymentId) => {
    const fields = new URLSearchParams(ctx.querystring);
    if (ctx.method === 'POST') for (const [name, value] of await readForm(ctx)) fields.set(name, value);
    const { payment, psp } = await load(paymentId);
    const given = ctx.params.signature;
    const signed = isReturnSignature(config, payment.id, given);
    if (given !== undefined && !signed)
      logger.warn(
        { request_id: ctx.state.requestId, payment_id: payment.id },
        'a bank return with a wrong signature: taken as unsigned',
      );
    const callback = bankCallbackFrom(payment.id, fields, psp, signed);
    if (callback === undefined) {
      logger.warn({ request_id: ctx.state.requestId, payment_id: payment.id }, 'a malformed bank callback was refused');
      throw new PageRefusal(400, 'bad_request');
    }
    if (payment.status === 'created') await submitBankCallback(temporal, payment.id, callback, false);
    // Paid at the PSP after the payment ended: the sale is confirmed and given back (docs/BANK.md#a-paid-return-for-an-ended-payment).
    else if (isLateReturn(payment, callback)) await startLateReturn(temporal, config, payment, callback);
    ctx.redirect(`/pay/${payment.id}/result${langQuery(lang)}`);
    ctx.status = 303;
  });
  router.post('/pay/:id/return', bankReturn);
  router.get('/pay/:id/return', bankReturn);
  router.post('/pay/:id/return/:signature', bankReturn);
  router.get('/pay/:id/return/:signature', bankReturn);

  router.get(
    '/pay/:id/result',
    page(async (ctx, lang, paymentId) => {
      const subject = await load(paymentId);
      ctx.type = 'html';
      ctx.body = statusPage(subject, { lang, path: `/pay/${subject.payment.id}/result` }, 'result', Date.now());
    }),
  );

  linkRoutes(router, { config, db, temporal, logger }, page);
  refundClaimRoutes(router, { config, db, temporal, logger }, page);
  return router;
}
