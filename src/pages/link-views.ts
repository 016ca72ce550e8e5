/**
 * The pages of a payment link (docs/PAGES.md#payment-links): the form at
 * `/l/{slug}`, the page of a link that takes no more payments, and the
 * receipt the customer returns to. Rendered like every hosted page (views.ts):
 * Eta, escaped output only, no script.
 */
import type { CollectedField, LinkUnavailable, PaymentLink, Problem } from '../domain/payment-link.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { localDigits } from '../http/words.ts';
import { formatAmount, formatTehranTime, langQuery, strings, type Lang, type Strings } from './i18n.ts';
import { PROCESSING_REFRESH_SECONDS, render, statusKind, wording, type DetailRow, type PageContext } from './views.ts';

/** What the customer typed, shown again beside the problems when the form is refused. */
export interface LinkFormState {
  values: Partial<Record<CollectedField | 'amount', string>>;
  problems: Problem[];
}

const fieldMessage = (problem: Problem, t: Strings): string => {
  if (problem.message === 'is required') return t.linkFieldRequired;
  if (problem.path === 'amount') return t.linkAmountInvalid;
  if (problem.path === 'mobile') return t.linkMobileInvalid;
  return t.linkFieldInvalid;
};

/** The link's form: the amount (fixed, or an input within the range) and the fields it collects. */
export function linkPage(
  link: PaymentLink,
  merchantName: string,
  context: PageContext,
  csrfToken: string,
  state: LinkFormState = { values: {}, problems: [] },
): string {
  const t = strings(context.lang);
  const errorOf = (path: string) => {
    const problem = state.problems.find((p) => p.path === path);
    return problem === undefined ? undefined : fieldMessage(problem, t);
  };
  const labels: Record<CollectedField, string> = {
    name: t.linkNameLabel,
    mobile: t.linkMobileLabel,
    note: t.linkNoteLabel,
  };
  const fields = (['name', 'mobile', 'note'] as const)
    .filter((field) => link.collect[field] !== undefined)
    .map((field) => ({
      name: field,
      label: labels[field],
      required: link.collect[field] === 'required',
      value: state.values[field] ?? '',
      error: errorOf(field),
      type: field === 'mobile' ? 'tel' : 'text',
      inputmode: field === 'mobile' ? 'tel' : undefined,
      autocomplete: field === 'name' ? 'name' : field === 'mobile' ? 'tel' : 'off',
      maxlength: field === 'mobile' ? 11 : field === 'name' ? 100 : 255,
      multiline: field === 'note',
    }));
  const range =
    link.amount === null
      ? {
          min: formatAmount(link.min_amount ?? 0, context.lang).rials,
          max: formatAmount(link.max_amount ?? 0, context.lang).rials,
          value: state.values.amount ?? '',
          error: errorOf('amount'),
        }
      : undefined;
  return render('link', context, {
    title: link.title,
    testMode: link.mode === 'test',
    merchantName,
    link,
    amount: link.amount === null ? undefined : formatAmount(link.amount, context.lang),
    range,
    fields,
    invalid: state.problems.length > 0,
    formAction: `/l/${link.slug}${langQuery(context.lang)}`,
    csrfToken,
  });
}

/** A link that takes no payment: deactivated, expired or used up. It says so and offers nothing. */
export function linkUnavailablePage(
  why: LinkUnavailable,
  link: Pick<PaymentLink, 'title' | 'mode'>,
  context: PageContext,
): string {
  const t = strings(context.lang);
  const headline = {
    payment_link_inactive: t.linkInactiveHeadline,
    payment_link_expired: t.linkExpiredHeadline,
    payment_link_used_up: t.linkUsedUpHeadline,
  }[why];
  return render('message', context, {
    title: link.title,
    testMode: link.mode === 'test',
    text: t.linkUnavailableText,
    kind: 'info',
    heading: headline,
    why,
  });
}

/** No link with that slug. */
export function linkNotFoundPage(context: PageContext): string {
  const t = strings(context.lang);
  return render('message', context, { title: t.linkNotFoundTitle, text: t.linkNotFoundText, kind: 'info' });
}

/**
 * The receipt of a link's payment, where the customer returns (its callback_url): the payment's
 * outcome and what a receipt holds. Until the bank's answer is recorded and the gateway has verified
 * the payment it refreshes itself; it never sends the customer anywhere else.
 */
export function linkReceiptPage(
  payment: Payment,
  link: Pick<PaymentLink, 'slug' | 'title'>,
  merchantName: string,
  context: PageContext,
): string {
  const t = strings(context.lang);
  const lang: Lang = context.lang;
  // Paid is not yet final for a link's payment: the workflow verifies it within moments.
  const processing = payment.status === 'created' || payment.status === 'paid';
  const kind = processing ? 'processing' : statusKind(payment, 'result');
  // The result page's words, but a receipt's for the verified payment: it is final, not waiting for a merchant.
  const { headline, text } =
    kind === 'success' ? { headline: t.receiptHeadline, text: t.receiptText } : wording(kind, payment, 'result', t);
  const amount = formatAmount(payment.charged_amount, lang);
  const details: DetailRow[] = [
    { label: t.receiptPayee, value: merchantName, id: 'merchant' },
    { label: t.receiptFor, value: link.title, id: 'description', className: 'long' },
    { label: t.amount, value: amount.rials, note: amount.toman, id: 'amount' },
    { label: t.trackingCode, value: localDigits(payment.tracking_code, lang), id: 'tracking-code', ltr: true },
  ];
  if (kind === 'success') {
    if (payment.rrn !== null)
      details.push({ label: t.rrn, value: localDigits(payment.rrn, lang), id: 'rrn', ltr: true });
    if (payment.card_pan !== null)
      details.push({ label: t.card, value: localDigits(payment.card_pan, lang), id: 'card', ltr: true });
    if (payment.paid_at !== null)
      details.push({ label: t.receiptPaidAt, value: formatTehranTime(payment.paid_at, lang), id: 'paid-at' });
  }
  const self = `/l/${link.slug}/receipt/${payment.id}`;
  return render('status', context, {
    title: t.receiptTitle,
    testMode: payment.mode === 'test',
    refresh: processing ? String(PROCESSING_REFRESH_SECONDS) : undefined,
    kind,
    headline,
    text,
    details,
    merchantName,
    returnHref: undefined,
    unverifiedHost: undefined,
    redirecting: false,
    // Not paid: the way back to the link, which says itself whether it still takes a payment.
    links: processing
      ? [{ href: `${self}${langQuery(lang)}`, label: t.refreshNow }]
      : kind === 'success'
        ? []
        : [{ href: `/l/${link.slug}${langQuery(lang)}`, label: t.linkTryAgain }],
  });
}
