/**
 * The customer's pages of a mandate (docs/SUBSCRIPTIONS.md#mandates): the bank page, where the
 * customer picks the bank to sign at (the provider's banks, each a link to the provider's signing
 * page), and the return from the bank, which hands the outcome to the mandate's workflow and sends
 * the customer on to the merchant's return_url. Persian (right to left) unless `?lang=en`. The page
 * has links only, no form: nothing to forge a request with, so no CSRF token is needed. Each bank's
 * link goes through `/mandates/{id}/bank/{code}`, which records the bank chosen on the pending mandate
 * (the provider never says which bank signed) and redirects to the provider's signing page: a forged
 * visit can at most name another bank of the list until the customer chooses, and nothing after.
 */
import Router from '@koa/router';
import type { Context } from 'koa';
import { bankChoices, chooseBank, mandateReturn, type MandateServiceDeps } from '../direct-debit/mandates.ts';
import { setSecurityHeaders } from '../http/page-headers.ts';

const ID = /^[0-9a-f-]{36}$/;
/** A provider's bank code: letters, digits, '_' and '-' (src/direct-debit/providers/zarinpal/mapping.ts). */
const BANK_CODE = /^[A-Za-z0-9_-]{1,32}$/;

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const WORDS = {
  fa: {
    title: 'امضای پرداخت مستقیم',
    choose: 'بانک خود را برای امضای قرارداد پرداخت مستقیم انتخاب کنید.',
    limits: (amount: string, daily: number, monthly: number) =>
      `سقف هر برداشت ${amount} ریال، ${daily} بار در روز، ${monthly} بار در ماه.`,
    preparing: 'در حال آماده‌سازی قرارداد… این صفحه خودکار به‌روز می‌شود.',
    ended: 'این قرارداد دیگر در انتظار امضا نیست.',
    back: 'بازگشت به فروشگاه',
    notFound: 'چنین قراردادی نیست.',
  },
  en: {
    title: 'Sign a direct debit mandate',
    choose: 'Choose your bank to sign the direct debit mandate.',
    limits: (amount: string, daily: number, monthly: number) =>
      `Up to ${amount} rials a debit, ${daily} a day, ${monthly} a month.`,
    preparing: 'Preparing the mandate… this page refreshes by itself.',
    ended: 'This mandate is no longer waiting to be signed.',
    back: 'Back to the shop',
    notFound: 'No such mandate.',
  },
};

/** `refresh`: true reloads this page in a second; a URL goes there at once. */
function page(ctx: Context, lang: 'fa' | 'en', body: string, refresh: boolean | string = false): void {
  setSecurityHeaders(ctx);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html>
<html lang="${lang}" dir="${lang === 'fa' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">${
    refresh === true
      ? '<meta http-equiv="refresh" content="1">'
      : typeof refresh === 'string'
        ? `<meta http-equiv="refresh" content="0;url=${escape(refresh)}">`
        : ''
  }
<title>${escape(WORDS[lang].title)}</title></head>
<body><main><h1>${escape(WORDS[lang].title)}</h1>${body}</main></body></html>`;
}

export function mandatePageRoutes(deps: MandateServiceDeps): Router {
  const router = new Router();

  router.get('/mandates/:id/bank', async (ctx) => {
    const lang = ctx.query.lang === 'en' ? 'en' : 'fa';
    const words = WORDS[lang];
    const id = ctx.params.id!;
    const choice = ID.test(id) ? await bankChoices(deps, id) : { kind: 'not_found' as const };
    if (choice.kind === 'not_found') {
      ctx.status = 404;
      return page(ctx, lang, `<p>${escape(words.notFound)}</p>`);
    }
    if (choice.kind === 'ended') {
      ctx.status = 409;
      return page(ctx, lang, `<p>${escape(words.ended)}</p>`);
    }
    // The workflow has not registered the mandate at the provider yet (a second, usually).
    if (choice.kind === 'preparing') return page(ctx, lang, `<p>${escape(words.preparing)}</p>`, true);
    const m = choice.mandate;
    const amount = new Intl.NumberFormat(lang === 'fa' ? 'fa-IR' : 'en-US').format(m.max_amount);
    const banks = choice.banks
      .map((b) => {
        const href = `/mandates/${m.id}/bank/${encodeURIComponent(b.code)}${lang === 'en' ? '?lang=en' : ''}`;
        return `<li><a class="bank" data-bank="${escape(b.code)}" href="${escape(href)}">${escape(b.name)}</a></li>`;
      })
      .join('');
    page(
      ctx,
      lang,
      `<p>${escape(words.choose)}</p><p>${escape(words.limits(amount, m.max_daily_count, m.max_monthly_count))}</p><ul>${banks}</ul>`,
    );
  });

  // A bank chosen: recorded on the pending mandate, then on to the provider's signing page at that bank.
  router.get('/mandates/:id/bank/:code', async (ctx) => {
    const lang = ctx.query.lang === 'en' ? 'en' : 'fa';
    const words = WORDS[lang];
    const id = ctx.params.id!;
    const code = ctx.params.code!;
    const chosen =
      ID.test(id) && BANK_CODE.test(code) ? await chooseBank(deps, id, code) : { kind: 'not_found' as const };
    if (chosen.kind === 'sign') {
      setSecurityHeaders(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 303;
      ctx.redirect(chosen.url);
      return;
    }
    if (chosen.kind === 'preparing')
      return page(
        ctx,
        lang,
        `<p>${escape(words.preparing)}</p>`,
        `/mandates/${id}/bank${lang === 'en' ? '?lang=en' : ''}`,
      );
    ctx.status = chosen.kind === 'ended' ? 409 : 404;
    page(ctx, lang, `<p>${escape(chosen.kind === 'ended' ? words.ended : words.notFound)}</p>`);
  });

  // The provider sends the customer back here by a redirect (GET) with its query.
  router.get('/mandates/:id/return', async (ctx) => {
    const id = ctx.params.id!;
    const query = Object.fromEntries(
      Object.entries(ctx.query).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
    );
    const next = ID.test(id) ? await mandateReturn(deps, id, query) : undefined;
    if (next === undefined) {
      ctx.status = 404;
      return page(ctx, 'fa', `<p>${escape(WORDS.fa.notFound)}</p>`);
    }
    // A page that goes on by itself, not a redirect: the customer arrives here from the provider's form,
    // and a browser holds a redirect after a form post to that page's CSP form-action, which does not
    // name the merchant's site. A meta refresh is no form navigation (src/http/page-headers.ts).
    const lang = ctx.query.lang === 'en' ? 'en' : 'fa';
    page(ctx, lang, `<p><a id="back" href="${escape(next)}">${escape(WORDS[lang].back)}</a></p>`, next);
  });

  return router;
}
