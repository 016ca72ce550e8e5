/**
 * The customer's bank page: the amount, the card to pay with (a field, a test
 * card of the PSP by default) and the four outcomes (Persian by
 * default, English with ?lang=en), the customer's choice, and the form that
 * takes the customer back to the gateway with the fields a PSP posts to the
 * merchant's RedirectUrl. No script anywhere. What differs between PSPs (the
 * page's address and method, the token's name, the fields posted back) is the
 * protocol's PageDialect: SEP's here, Mellat's in mellat.ts.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FaultSwitches } from './faults.ts';
import { readBody, type BankRequest, type Routes } from './http.ts';
import { digits, now, sepRefNum, type Ledger, type Outcome, type Transaction } from './ledger.ts';

const OUTCOMES: readonly Outcome[] = ['success', 'failure', 'cancel', 'delay'];

const TEXT = {
  fa: {
    title: 'درگاه پرداخت بانک (شبیه‌ساز)',
    amount: 'مبلغ',
    rials: 'ریال',
    choose: 'نتیجهٔ پرداخت را انتخاب کنید:',
    success: 'پرداخت موفق',
    failure: 'پرداخت ناموفق',
    cancel: 'انصراف',
    delay: 'تأخیر در تأیید',
    back: 'بازگشت به فروشگاه',
    backHint: 'برای پایان خرید به فروشگاه برگردید.',
    unknown: 'تراکنش پیدا نشد یا منقضی شده است.',
    card: 'شماره کارت',
    badCard: 'شماره کارت باید ۱۶ رقم باشد.',
    other: 'English',
  },
  en: {
    title: 'Bank payment gateway (simulator)',
    amount: 'Amount',
    rials: 'rials',
    choose: 'Choose the outcome of the payment:',
    success: 'Successful payment',
    failure: 'Failed payment',
    cancel: 'Cancel',
    delay: 'Delay in verification',
    back: 'Return to the shop',
    backHint: 'Go back to the shop to finish your purchase.',
    unknown: 'The transaction was not found or has expired.',
    card: 'Card number',
    badCard: 'The card number must be 16 digits.',
    other: 'فارسی',
  },
} as const;
type Lang = keyof typeof TEXT;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const CSS = `body{font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;background:#f4f6fb}
main{background:#fff;border-radius:8px;padding:1.5rem}button{display:block;width:100%;margin:.5rem 0;padding:.75rem;font-size:1rem}
.amount{font-size:1.4rem;font-weight:bold}label{display:block;margin:.5rem 0}input[name=card]{width:100%;padding:.5rem;font-size:1rem;direction:ltr}`;

const langOf = (url: URL): Lang => (url.searchParams.get('lang') === 'en' ? 'en' : 'fa');

const html = (res: ServerResponse, status: number, lang: Lang, body: string, formTarget?: string) => {
  const formAction = formTarget === undefined ? "'self'" : `'self' ${new URL(formTarget).origin}`;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'self'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  const t = TEXT[lang];
  res.end(`<!doctype html><html lang="${lang}" dir="${lang === 'fa' ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${t.title}</title><link rel="stylesheet" href="/bank.css"></head>
<body><main><h1>${t.title}</h1>${body}</main></body></html>`);
};

const formatAmount = (amount: number, lang: Lang) =>
  `${new Intl.NumberFormat(lang === 'fa' ? 'fa-IR' : 'en-US').format(amount)} ${TEXT[lang].rials}`;

/** A PSP's page as its protocol has it. */
export interface PageDialect {
  /** Where the customer's browser reaches the page with the token: a GET with `tokenField` in the query (SEP's `token`, Parsian's `Token`) or a POST of it (Mellat). */
  pagePath: string;
  pageMethod: 'GET' | 'POST';
  /** Where the page's form posts the customer's choice, with the token as `tokenField`. */
  choicePath: string;
  tokenField: string;
  /** The fields the bank posts back to the merchant's address; `amount` is the transaction's, or another under the callback_other_amount fault. */
  callbackFields(txn: Transaction, amount: number): Record<string, string>;
  /**
   * How the page sends the customer back with those fields: a form POST (the default, every PSP's but
   * one) or a GET with them in the query string (PEP's return: test/fixtures/psps/pasargad/return-*.json).
   */
  returnMethod?: 'GET' | 'POST';
  /** The bank's own numbers for a paid transaction (its reference, RRN, trace number). */
  paidNumbers(): Pick<Transaction, 'ref_num' | 'rrn' | 'trace_no'>;
  /** The card the page's field holds until the tester types another: a test card of this PSP (Luhn-valid). */
  defaultCard: string;
}

/** A card's number as the bank keeps it: masked (first six, last four) and its SHA-256 (hex), never in full. */
export function cardAsKept(card: string): Pick<Transaction, 'card_pan' | 'card_sha256'> {
  return {
    card_pan: `${card.slice(0, 6)}******${card.slice(-4)}`,
    card_sha256: createHash('sha256').update(card).digest('hex'),
  };
}

/**
 * SEP's page: GET /OnlinePG/SendToken?token=…, the choice to /OnlinePG/pay, and SEP's return as its
 * corpus shows it (test/fixtures/psps/sep/return-*.json): a form post of every field and no Token
 * when the customer paid; MID, TerminalId, State, Status and ResNum when not.
 */
export const SEP_PAGE: PageDialect = {
  pagePath: '/OnlinePG/SendToken',
  pageMethod: 'GET',
  choicePath: '/OnlinePG/pay',
  tokenField: 'token',
  paidNumbers: () => ({ ref_num: sepRefNum(), rrn: digits(12), trace_no: digits(6) }),
  defaultCard: '6037991234567893',
  callbackFields(txn, amount): Record<string, string> {
    const ok = txn.outcome === 'success' || txn.outcome === 'delay';
    if (!ok) {
      const [state, status] = txn.outcome === 'cancel' ? ['CanceledByUser', '1'] : ['Failed', '3'];
      return { MID: txn.terminal, TerminalId: txn.terminal, State: state, Status: status, ResNum: txn.res_num };
    }
    return {
      MID: txn.terminal,
      TerminalId: txn.terminal,
      State: 'OK',
      Status: '2',
      RRN: txn.rrn ?? '',
      RefNum: txn.ref_num ?? '',
      ResNum: txn.res_num,
      TraceNo: txn.trace_no ?? '',
      Amount: String(amount),
      Wage: '0',
      SecurePan: txn.card_pan ?? '',
      HashedCardNumber: txn.card_sha256 ?? '',
    };
  },
};

export function customerPageRoutes({
  ledger,
  faults,
  dialect,
}: {
  ledger: Ledger;
  faults: FaultSwitches;
  dialect: PageDialect;
}): Routes {
  const callbackFields = (txn: Transaction) =>
    dialect.callbackFields(txn, txn.amount + (faults.callback.other_amount ?? 0));

  /**
   * The "callback repeated" fault: the bank posts the return fields to the gateway itself, as a
   * PSP's server-side notification or a customer's double submit would, before the customer's post.
   */
  const repeatCallback = async (txn: Transaction) => {
    for (let i = 0; i < (faults.callback.repeat ?? 0); i += 1) {
      const fields = new URLSearchParams(callbackFields(txn));
      const byGet = dialect.returnMethod === 'GET';
      const target = new URL(txn.redirect_url);
      if (byGet) target.search = fields.toString();
      const status = await fetch(target, {
        method: byGet ? 'GET' : 'POST',
        redirect: 'manual',
        ...(byGet ? {} : { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: fields.toString() }),
        signal: AbortSignal.timeout(10_000),
      }).then(
        (res) => res.status,
        () => 0, // a gateway that does not answer misses this copy; the customer's post still comes
      );
      (txn.repeated_callbacks ??= []).push(status);
      ledger.changed(txn);
    }
  };

  const returnPage = (res: ServerResponse, txn: Transaction, lang: Lang) => {
    const t = TEXT[lang];
    const fields = Object.entries(callbackFields(txn))
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${esc(v)}">`)
      .join('');
    const redirect = new URL(txn.redirect_url);
    if (lang === 'en') redirect.searchParams.set('lang', 'en');
    html(
      res,
      200,
      lang,
      `<p id="outcome" data-outcome="${txn.outcome ?? ''}">${t[txn.outcome ?? 'failure']}</p><p>${t.backHint}</p>
<form method="${dialect.returnMethod === 'GET' ? 'get' : 'post'}" action="${esc(redirect.toString())}">${fields}<button type="submit" id="back">${t.back}</button></form>`,
      redirect.toString(),
    );
  };

  const stylesheet = ({ res }: BankRequest) => {
    res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' });
    res.end(CSS);
  };

  const choicePage = async ({ req, res, url }: BankRequest) => {
    const lang = langOf(url);
    const token =
      dialect.pageMethod === 'GET'
        ? url.searchParams.get(dialect.tokenField)
        : new URLSearchParams(await readBody(req)).get(dialect.tokenField);
    const txn = ledger.byToken(token ?? '');
    const t = TEXT[lang];
    if (txn === undefined) return html(res, 404, lang, `<p id="unknown">${t.unknown}</p>`);
    if (txn.outcome !== undefined) return returnPage(res, txn, lang);
    // The other language by a link where the page is reached by a GET; a page reached by a POST is Persian unless its address says ?lang=en.
    const other = new URL(url);
    other.searchParams.set('lang', lang === 'fa' ? 'en' : 'fa');
    const switcher =
      dialect.pageMethod === 'GET'
        ? `<p><a id="lang" href="${esc(other.pathname + other.search)}">${t.other}</a></p>\n`
        : '';
    const buttons = OUTCOMES.map((o) => `<button type="submit" name="outcome" value="${o}">${t[o]}</button>`).join('');
    const card = `<label for="card">${t.card}</label><input type="text" id="card" name="card" inputmode="numeric" autocomplete="cc-number" pattern="[0-9]{16}" maxlength="16" value="${dialect.defaultCard}">`;
    html(
      res,
      200,
      lang,
      `${switcher}<p>${t.amount}: <span class="amount" id="amount">${formatAmount(txn.amount, lang)}</span></p><p>${t.choose}</p>
<form method="post" action="${dialect.choicePath}${lang === 'en' ? '?lang=en' : ''}"><input type="hidden" name="${dialect.tokenField}" value="${esc(txn.token)}">${card}${buttons}</form>`,
    );
  };

  const choose = async ({ req, res, url }: BankRequest) => {
    const lang = langOf(url);
    const form = new URLSearchParams(await readBody(req));
    const txn = ledger.byToken(form.get(dialect.tokenField) ?? '');
    const outcome = form.get('outcome') as Outcome;
    if (txn === undefined) return html(res, 404, lang, `<p id="unknown">${TEXT[lang].unknown}</p>`);
    if (!OUTCOMES.includes(outcome)) return html(res, 400, lang, `<p>${TEXT[lang].unknown}</p>`);
    // The card paid with: the field's, or the PSP's test card when the choice carries none (the API's test helper, older scripts).
    const card = (form.get('card') ?? '').replace(/[\s-]/g, '') || dialect.defaultCard;
    if (!/^[0-9]{16}$/.test(card)) return html(res, 400, lang, `<p id="bad-card">${TEXT[lang].badCard}</p>`);
    // The first choice stands: a second post shows the same return.
    if (txn.outcome === undefined) {
      txn.outcome = outcome;
      txn.chosen_at = now();
      if (outcome === 'success' || outcome === 'delay') Object.assign(txn, dialect.paidNumbers(), cardAsKept(card));
      ledger.changed(txn);
      await repeatCallback(txn);
    }
    returnPage(res, txn, lang);
  };

  return (method, path) => {
    if (method === 'GET' && path === '/bank.css') return stylesheet;
    if (method === dialect.pageMethod && path === dialect.pagePath) return choicePage;
    if (method === 'POST' && path === dialect.choicePath) return choose;
    return undefined;
  };
}
