/**
 * The dashboard's payments pages: the list, and one payment with its fee, splits, refunds and the
 * timeline of its events and their deliveries (rendered with the templates beside this file).
 */
import type { PspProfile } from '../psps/profile.ts';
import { PSP_PROFILES, type PspName } from '../psps/profiles.ts';
import type { Payment } from '../domain/payment-schemas.ts';
import { groupSheba } from '../domain/business-documents.ts';
import { refundableAmount, refundRefusal } from '../domain/refund.ts';
import { merchantShare, splitTotal } from '../domain/splits.ts';
import type { Refund } from '../domain/refund-schemas.ts';
import type { Event, WebhookAttempt } from '../domain/webhook-schemas.ts';
import { PAYMENT_STATUSES, type PaymentStatus } from '../domain/payment.ts';
import type { KeyMode } from '../domain/merchant.ts';
import { localDigits } from '../http/words.ts';
import { formatRials, formatTime, statusLabel, strings, type Lang } from './i18n.ts';
import { hrefWith, render, type ViewContext } from './views.ts';

export function paymentsPage(
  context: ViewContext,
  list: {
    mode: KeyMode;
    status: PaymentStatus | undefined;
    payments: Payment[];
    nextCursor: string | null;
    paged: boolean;
  },
): string {
  const { lang } = context;
  const t = strings(lang);
  const query = (params: Record<string, string | undefined>) => hrefWith('/dashboard/payments', params);
  return render('payments', context, {
    title: t.paymentsTitle,
    testMode: list.mode === 'test',
    mode: list.mode,
    modes: (['test', 'live'] as const).map((m) => ({
      value: m,
      label: t[`mode_${m}`],
      href: query({ mode: m }),
      current: m === list.mode,
    })),
    statuses: PAYMENT_STATUSES.map((s) => ({ value: s, label: statusLabel(s, lang), selected: s === list.status })),
    rows: list.payments.map((p) => ({
      id: p.id,
      href: `/dashboard/payments/${p.id}${p.mode === 'live' ? '?mode=live' : ''}`,
      created: formatTime(p.created_at, lang),
      reference: p.merchant_reference,
      amount: formatRials(p.amount, lang),
      feePayer: t[`feePayer_${p.fee_payer}`],
      charged: formatRials(p.charged_amount, lang),
      status: p.status,
      statusLabel: statusLabel(p.status, lang),
      trackingCode: localDigits(p.tracking_code, lang),
    })),
    nextHref:
      list.nextCursor === null ? undefined : query({ mode: list.mode, status: list.status, cursor: list.nextCursor }),
    firstHref: list.paged ? query({ mode: list.mode, status: list.status }) : undefined,
  });
}

/** The refund form as shown: what was typed (after a refusal) and this showing's idempotency key. */
export interface RefundFormState {
  amount: string;
  reason: string;
  /** The customer's IBAN, for a refund the payment's PSP cannot make itself (docs/PAYMENTS.md#how-a-refund-is-paid-out). */
  iban: string;
  idempotencyKey: string;
}

export interface PaymentActivity {
  refunds: Refund[];
  /** Events about the payment and its refunds, oldest first, each with its delivery attempts. */
  history: { event: Event; attempts: WebhookAttempt[] }[];
  /** The endpoints not deleted, by id, to name each attempt's receiver. */
  endpointUrls: ReadonlyMap<string, string>;
  form: RefundFormState;
  /** Whether the payment's refund window is open now, read on the record (src/domain/refund.ts refundWindowOpen). */
  refundWindowOpen: boolean;
  /** The merchant's beneficiaries' names by id, to name the payment's splits. */
  beneficiaryNames: ReadonlyMap<string, string>;
  /** The title of the payment link the payment came from, when it came from one. */
  linkTitle?: string | undefined;
  notice?: string | undefined;
  error?: string | undefined;
  errorDetail?: string | undefined;
}

interface DetailRow {
  /** The row's id on the page, for the rows a test or a reader looks for by name. */
  id?: string;
  label: string;
  value: string;
  ltr?: boolean;
  /** Where the value links to, in the dashboard. */
  href?: string;
}

const splitsTotal = (payment: Payment) => splitTotal(payment.splits ?? []);

/**
 * Who pays the fee and what each side gets (docs/PAYMENTS.md#who-pays-the-fee): the customer-pays fee is
 * fixed at create, so it is shown from the start; the merchant-pays fee is 0 until verify. The merchant's
 * own share (charged − fee − splits) is known once the payment is verified.
 */
function feeDetails(payment: Payment, lang: Lang): DetailRow[] {
  const t = strings(lang);
  const customerPays = payment.fee_payer === 'customer';
  const rows: DetailRow[] = [
    { id: 'fee-payer', label: t.feePayer, value: t[`feePayer_${payment.fee_payer}`] },
    { id: 'charged-amount', label: t.chargedAmount, value: formatRials(payment.charged_amount, lang) },
    customerPays && payment.verified_at === null && payment.status !== 'reversed'
      ? { id: 'fee', label: t.feeFixedAtCreate, value: formatRials(payment.charged_amount - payment.amount, lang) }
      : { id: 'fee', label: t.fee, value: formatRials(payment.fee, lang) },
  ];
  if (payment.verified_at !== null) {
    rows.push({
      id: 'merchant-receives',
      label: t.merchantReceives,
      value: formatRials(
        merchantShare({ charged: payment.charged_amount, fee: payment.fee }, splitsTotal(payment)),
        lang,
      ),
    });
  }
  return rows;
}

/** A PSP's name for the merchant, in the page's language: its profile's. */
function pspTitle(psp: PspName, lang: Lang): string {
  const profile: PspProfile = PSP_PROFILES[psp];
  return lang === 'fa' ? profile.persianTitle : profile.title;
}

/**
 * Where the payment went and came from: the PSP and terminal that took it (the only ones ever asked about it
 * after; docs/psps/routing.md), and the payment link the customer paid on, linked to that link on the links page.
 */
function originDetails(payment: Payment, linkTitle: string | undefined, lang: Lang): DetailRow[] {
  const t = strings(lang);
  const rows: DetailRow[] =
    payment.psp === null
      ? [{ id: 'psp', label: t.paymentPsp, value: t.paymentPspNone }]
      : [
          { id: 'psp', label: t.paymentPsp, value: pspTitle(payment.psp.name, lang) },
          { id: 'psp-terminal', label: t.paymentTerminal, value: localDigits(payment.psp.terminal_id, lang) },
        ];
  if (payment.payment_link !== null) {
    rows.push({
      id: 'payment-link',
      label: t.paymentLink,
      // A link is never deleted (only deactivated), so its title is there; its id if it cannot be read.
      value: linkTitle ?? payment.payment_link,
      href: `/dashboard/links${payment.mode === 'live' ? '?mode=live' : ''}#link-${payment.payment_link}`,
    });
  }
  return rows;
}

export function paymentPage(context: ViewContext, payment: Payment, activity: PaymentActivity): string {
  const { lang } = context;
  const t = strings(lang);
  const details: DetailRow[] = [
    { label: t.reference, value: payment.merchant_reference, ltr: true },
    { label: t.trackingCode, value: localDigits(payment.tracking_code, lang) },
    { label: t.created, value: formatTime(payment.created_at, lang) },
  ];
  if (payment.description !== '') details.push({ label: t.description, value: payment.description });
  if (payment.paid_at !== null) details.push({ label: t.paidAt, value: formatTime(payment.paid_at, lang) });
  if (payment.verified_at !== null) details.push({ label: t.verifiedAt, value: formatTime(payment.verified_at, lang) });
  if (payment.rrn !== null) details.push({ label: t.rrn, value: localDigits(payment.rrn, lang) });
  if (payment.card_pan !== null) details.push({ label: t.card, value: payment.card_pan, ltr: true });
  details.push(...feeDetails(payment, lang));
  if (payment.allowed_cards !== null)
    details.push({ id: 'allowed-cards', label: t.allowedCards, value: payment.allowed_cards.join(', '), ltr: true });
  if (payment.national_code !== null)
    details.push({ id: 'national-code', label: t.nationalCode, value: payment.national_code, ltr: true });
  if (payment.refunded_amount > 0)
    details.push({ label: t.refunded, value: formatRials(payment.refunded_amount, lang) });
  if (payment.failure !== null) details.push({ label: t.failure, value: payment.failure.message, ltr: lang === 'en' });
  details.push(...originDetails(payment, activity.linkTitle, lang));
  details.push({ label: t.callbackUrl, value: payment.callback_url, ltr: true });
  return render('payment', context, {
    title: `${t.paymentTitle} ${payment.merchant_reference}`,
    testMode: payment.mode === 'test',
    backHref: `/dashboard/payments${payment.mode === 'live' ? '?mode=live' : ''}`,
    reference: payment.merchant_reference,
    amount: formatRials(payment.amount, lang),
    status: payment.status,
    statusLabel: statusLabel(payment.status, lang),
    details,
    notice: activity.notice,
    error: activity.error,
    errorDetail: activity.errorDetail,
    timeline: paymentTimeline(activity, lang),
    splits: (payment.splits ?? []).map((s) => ({
      beneficiaryId: s.beneficiary_id,
      name: activity.beneficiaryNames.get(s.beneficiary_id) ?? '',
      iban: groupSheba(s.iban),
      amount: formatRials(s.amount, lang),
      description: s.description,
      refunded: formatRials(s.refunded, lang),
      settled: s.settled,
    })),
    splitsTotal: formatRials(splitsTotal(payment), lang),
    refunds: activity.refunds.map((r) => ({
      id: r.id,
      amount: formatRials(r.amount, lang),
      status: r.status,
      statusLabel: t.refundStatuses[r.status],
      reason: r.reason ?? '',
      created: formatTime(r.created_at, lang),
      // A refund to the payer's card waiting for its customer: the link to pass on.
      claimUrl: r.status === 'awaiting_payer' ? (r.claim_url ?? undefined) : undefined,
    })),
    // The domain's rule decides whether the form is offered; the service decides again on submit.
    refundable:
      refundRefusal(payment, null, activity.refundWindowOpen) === undefined
        ? formatRials(refundableAmount(payment), lang)
        : undefined,
    // Refundable but for the window: say so, rather than leave the form out without a word.
    refundWindowClosed: !activity.refundWindowOpen && refundRefusal(payment, null, true) === undefined,
    form: {
      ...activity.form,
      amount:
        activity.form.amount === '' && activity.error === undefined
          ? String(refundableAmount(payment))
          : activity.form.amount,
    },
    refundAction: `/dashboard/payments/${payment.id}/refunds`,
  });
}

interface TimelineEntry {
  at: string;
  time: string;
  kind: 'transition' | 'attempt';
  label: string;
  detail: string;
  ok?: boolean;
}

/** Every transition and every webhook attempt, in time order (an event before its attempts). */
function paymentTimeline(activity: PaymentActivity, lang: Lang): TimelineEntry[] {
  const t = strings(lang);
  const entries: TimelineEntry[] = [];
  for (const { event, attempts } of activity.history) {
    const refund = event.data.refund;
    entries.push({
      at: event.created_at,
      time: formatTime(event.created_at, lang),
      kind: 'transition',
      label: t.eventLabels[event.type],
      detail: refund !== undefined ? formatRials(refund.amount, lang) : '',
    });
    for (const a of attempts) {
      entries.push({
        at: a.attempted_at,
        time: formatTime(a.attempted_at, lang),
        kind: 'attempt',
        label: `${t.webhookDelivery}: ${t.eventLabels[event.type]}`,
        detail: [
          activity.endpointUrls.get(a.endpoint_id) ?? t.deletedEndpoint,
          `${t.attemptNumber} ${localDigits(String(a.attempt), lang)}`,
          a.response_status === null ? undefined : localDigits(String(a.response_status), lang),
          a.succeeded ? t.attemptSucceeded : t.attemptErrors[a.error ?? 'connection_failed'],
        ]
          .filter((part) => part !== undefined)
          .join(' · '),
        ok: a.succeeded,
      });
    }
  }
  // A stable sort: entries at the same instant keep their order (an event before its attempts).
  return entries.sort((x, y) => Date.parse(x.at) - Date.parse(y.at));
}
