/**
 * What each hosted page shows, built from a payment and a language, and
 * rendered with Eta. Eta escapes every `<%= %>` output; the only raw output
 * (`<%~ %>`) is the layout's body, which Eta itself rendered and escaped.
 * Everything the merchant sent (description, reference, callback URL) goes
 * through the escaping path only.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Payment } from '../domain/payment-schemas.ts';
import { returnAddress } from '../domain/compat-protocols.ts';
import { stylesheet } from '../http/stylesheet.ts';
import { localDigits } from '../http/words.ts';
import { formatAmount, formatTehranTime, langQuery, strings, type Lang, type Strings } from './i18n.ts';

const eta = new Eta({ views: fileURLToPath(new URL('./templates', import.meta.url)), cache: true, autoEscape: true });

const asset = (name: string) => readFileSync(fileURLToPath(new URL(`./assets/${name}`, import.meta.url)));
const version = (content: Buffer) => createHash('sha256').update(content).digest('hex').slice(0, 12);

/** The gateway's own static files; their URLs carry a content hash so they can be cached for good. */
export const ASSETS = {
  css: stylesheet('/assets/pages.css', asset('pages.css')),
  icon: { path: '/assets/favicon.svg', type: 'image/svg+xml', content: asset('favicon.svg') },
} as const;
const cssHref = ASSETS.css.href;
const iconHref = `${ASSETS.icon.path}?v=${version(ASSETS.icon.content)}`;

/** Seconds before the result page sends the customer on to the merchant. */
export const REDIRECT_SECONDS = 5;
/** Seconds between reloads while the workflow has not yet recorded the bank's answer. */
export const PROCESSING_REFRESH_SECONDS = 1;

export interface PageContext {
  lang: Lang;
  /** The page's own path, to build the language switch link; none on pages reached by a post. */
  path?: string;
}

export interface LayoutData {
  title: string;
  testMode?: boolean;
  refresh?: string;
}

export function render(template: string, context: PageContext, data: LayoutData & Record<string, unknown>): string {
  const t = strings(context.lang);
  const other: Lang = context.lang === 'fa' ? 'en' : 'fa';
  return eta.render(template, {
    ...data,
    t,
    lang: context.lang,
    dir: context.lang === 'fa' ? 'rtl' : 'ltr',
    cssHref,
    iconHref,
    // A page whose address carries a query of its own (a refund's claim link) gives its switch link itself.
    switchHref:
      typeof data.switchHref === 'string'
        ? data.switchHref
        : context.path === undefined
          ? undefined
          : `${context.path}${langQuery(other)}`,
  });
}

export interface PayablePayment {
  payment: Payment;
  merchantName: string;
  /** Zibal's trackId of a payment its /v1/request made (the record's, not the API's shape): its return carries it. */
  zibalTrackId?: string | null;
  /** Whether the callback URL is on a domain the merchant verified (always so for a live payment: create refuses others). */
  callbackDomainVerified: boolean;
}

export interface DetailRow {
  label: string;
  value: string;
  id?: string;
  note?: string;
  ltr?: boolean;
  className?: string;
}

/** The rows every page about a payment shows: merchant, amount, description, reference, tracking code. */
function paymentDetails(
  { payment, merchantName }: PayablePayment,
  lang: Lang,
  options: { amount: boolean },
): DetailRow[] {
  const t = strings(lang);
  const rows: DetailRow[] = [];
  rows.push({ label: t.merchant, value: merchantName, id: 'merchant' });
  if (options.amount) {
    // What the customer pays: the amount, with the fee when the merchant passed it on to them.
    const amount = formatAmount(payment.charged_amount, lang);
    rows.push({ label: t.amount, value: amount.rials, note: amount.toman, id: 'amount' });
  }
  if (payment.description !== '')
    rows.push({ label: t.description, value: payment.description, id: 'description', className: 'long' });
  rows.push({ label: t.reference, value: payment.merchant_reference, id: 'reference', ltr: true });
  rows.push({ label: t.trackingCode, value: localDigits(payment.tracking_code, lang), id: 'tracking-code', ltr: true });
  return rows;
}

/** The payment page with the test bank's form (test mode) or the "no live bank" notice (live mode). */
export function paymentPage(
  subject: PayablePayment,
  context: PageContext,
  csrfToken: string | undefined,
  bankAvailable = true,
): string {
  const { payment } = subject;
  const t = strings(context.lang);
  const details = paymentDetails(subject, context.lang, { amount: false });
  details.push({ label: t.payBefore, value: formatTehranTime(payment.expires_at, context.lang), id: 'expires' });
  // Who may pay (docs/PAGES.md): the merchant's restriction, masked, so the customer picks the right card at the bank.
  if (payment.allowed_cards !== null) {
    details.push({
      label: t.allowedCards,
      value: payment.allowed_cards.join(' ، '),
      note: t.allowedCardsNote,
      id: 'allowed-cards',
      ltr: true,
      className: 'long',
    });
  }
  if (payment.national_code !== null)
    details.push({
      label: t.nationalCode,
      value: payment.national_code,
      note: t.nationalCodeNote,
      id: 'national-code',
      ltr: true,
    });
  return render('pay', context, {
    title: t.payTitle,
    testMode: payment.mode === 'test',
    merchantName: subject.merchantName,
    amount: formatAmount(payment.charged_amount, context.lang),
    details,
    live: !bankAvailable,
    returnHref: returnAddress({ ...payment, zibal_track_id: subject.zibalTrackId ?? null }),
    formAction: `/pay/${payment.id}${langQuery(context.lang)}`,
    csrfToken,
  });
}

/**
 * The way to a bank whose page wants a form POST (Mellat's RefId): the fields in a form with a
 * visible button the customer presses: no script, as on every page (the CSP allows none).
 */
export function bankRedirectPage(
  bank: { url: string; fields: Record<string, string> },
  context: PageContext,
  testMode: boolean,
): string {
  return render('bank-redirect', context, {
    title: strings(context.lang).bankRedirectTitle,
    testMode,
    bankUrl: bank.url,
    fields: Object.entries(bank.fields).map(([name, value]) => ({ name, value })),
  });
}

/** How a payment's state reads to the customer. */
export type StatusKind =
  'processing' | 'success' | 'pending' | 'failed' | 'canceled' | 'expired' | 'reversed' | 'refunded';

/**
 * The customer's view of a status. `created` is "processing" on the result
 * page (the workflow records the bank's answer a few ms after the signal),
 * but "expired" on the payment page once expires_at has passed.
 */
export function statusKind(payment: Payment, page: 'payment' | 'result'): StatusKind {
  switch (payment.status) {
    case 'created':
      return page === 'payment' ? 'expired' : 'processing';
    case 'pending':
      return 'pending';
    case 'paid':
    case 'verified':
      return 'success';
    case 'failed':
      return 'failed';
    case 'canceled':
      return 'canceled';
    case 'expired':
      return 'expired';
    case 'reversed':
      return 'reversed';
    case 'partially_refunded':
    case 'refunded':
      return 'refunded';
  }
}

export function wording(
  kind: StatusKind,
  payment: Payment,
  page: 'payment' | 'result',
  t: Strings,
): { headline: string; text: string } {
  switch (kind) {
    case 'processing':
      return { headline: t.processingHeadline, text: t.processingText };
    case 'success':
      return page === 'payment'
        ? { headline: t.alreadyPaidHeadline, text: t.alreadyPaidText }
        : { headline: t.successHeadline, text: t.successText };
    case 'pending':
      return { headline: t.pendingHeadline, text: t.pendingText };
    case 'failed':
      return { headline: t.failedHeadline, text: t.failedText };
    case 'canceled':
      return {
        headline: t.canceledHeadline,
        text: payment.failure?.code === 'canceled_by_merchant' ? t.canceledByMerchantText : t.canceledText,
      };
    case 'expired':
      return { headline: t.expiredHeadline, text: t.expiredText };
    case 'reversed':
      return { headline: t.reversedHeadline, text: t.reversedText };
    case 'refunded':
      return {
        headline: payment.status === 'refunded' ? t.refundedHeadline : t.partiallyRefundedHeadline,
        text: t.refundedText,
      };
  }
}

/**
 * A page about a payment that cannot be paid here (any more), or the
 * result page. Final and pending states lead on to the merchant: a button,
 * and on the result page an automatic redirect after a few seconds.
 */
export function statusPage(
  subject: PayablePayment,
  context: PageContext,
  page: 'payment' | 'result',
  nowMs: number,
): string {
  const { payment } = subject;
  const t = strings(context.lang);
  const kind = statusKind(payment, page);
  const { headline, text } = wording(kind, payment, page, t);
  const details = paymentDetails(subject, context.lang, { amount: true });
  if (kind === 'success' && payment.rrn !== null) {
    details.push({ label: t.rrn, value: localDigits(payment.rrn, context.lang), id: 'rrn', ltr: true });
  }
  if (kind === 'success' && payment.card_pan !== null) {
    details.push({ label: t.card, value: localDigits(payment.card_pan, context.lang), id: 'card', ltr: true });
  }
  const processing = kind === 'processing';
  const back = returnAddress({ ...payment, zibal_track_id: subject.zibalTrackId ?? null });
  const payable = payment.status === 'created' && nowMs < Date.parse(payment.expires_at);
  const redirecting = page === 'result' && !processing;
  let refresh: string | undefined;
  if (processing) refresh = String(PROCESSING_REFRESH_SECONDS);
  else if (redirecting) refresh = `${REDIRECT_SECONDS};url=${back}`;
  const links = processing
    ? [
        { href: `/pay/${payment.id}/result${langQuery(context.lang)}`, label: t.refreshNow },
        ...(payable ? [{ href: `/pay/${payment.id}${langQuery(context.lang)}`, label: t.backToPayment }] : []),
      ]
    : [];
  return render('status', context, {
    title: page === 'result' ? t.resultTitle : t.payTitle,
    testMode: payment.mode === 'test',
    refresh,
    kind,
    headline,
    text: page === 'payment' && kind !== 'success' ? `${text} ${t.noPayAgain}` : text,
    details,
    merchantName: subject.merchantName,
    returnHref: processing ? undefined : back,
    // Test mode may return to a domain nobody proved is the merchant's: the customer is told where they are going.
    unverifiedHost:
      page === 'result' && payment.mode === 'test' && !subject.callbackDomainVerified
        ? new URL(payment.callback_url).hostname
        : undefined,
    redirecting,
    links,
  });
}

export type MessageKind =
  | 'not_found'
  | 'forbidden'
  | 'live_unavailable'
  | 'merchant_not_live'
  | 'bank_unavailable'
  | 'too_many'
  | 'bad_request'
  | 'unavailable'
  | 'error';

/** A page for a request that has no payment to show: 404, 403, 400, 503, 500. */
export function messagePage(kind: MessageKind, context: PageContext, requestId?: string): string {
  const t = strings(context.lang);
  const words: Record<MessageKind, [string, string]> = {
    not_found: [t.notFoundTitle, t.notFoundText],
    forbidden: [t.forbiddenTitle, t.forbiddenText],
    live_unavailable: [t.liveHeadline, t.liveText],
    bank_unavailable: [t.bankBusyTitle, t.bankBusyText],
    merchant_not_live: [t.notLiveTitle, t.notLiveText],
    too_many: [t.tooManyTitle, t.tooManyText],
    bad_request: [t.badRequestTitle, t.badRequestText],
    unavailable: [t.unavailableTitle, t.unavailableText],
    error: [t.errorTitle, t.errorText],
  };
  const [title, text] = words[kind];
  return render('message', context, { title, text, kind: kind === 'not_found' ? 'info' : 'error', requestId });
}
