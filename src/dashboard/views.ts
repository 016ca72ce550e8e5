/**
 * The dashboard's pages, rendered with Eta from the templates beside this
 * file. Eta escapes every `<%= %>` output; the only raw output (`<%~ %>`) is
 * the layout's body, which Eta itself rendered and escaped.
 */
import type { DomainVerificationState } from '../merchants/domain-verification.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Payment } from '../domain/payment-schemas.ts';
import { groupSheba } from '../domain/business-documents.ts';
import { refundableAmount, refundRefusal } from '../domain/refund.ts';
import type { Refund } from '../domain/refund-schemas.ts';
import type { Beneficiary } from '../domain/split-schemas.ts';
import type { Event, WebhookAttempt } from '../domain/webhook-schemas.ts';
import { PAYMENT_STATUSES, type PaymentStatus } from '../domain/payment.ts';
import type { KeyMode } from '../domain/merchant.ts';
import { stylesheet } from '../http/stylesheet.ts';
import { localDigits } from '../http/words.ts';
import { formatRials, formatTime, statusLabel, strings, type Lang, type Strings } from './i18n.ts';
import type { GatewayStatus, OnboardingStatus } from '../domain/onboarding.ts';
import type { RouteEntry } from '../domain/psp-routing.ts';
import { onboardingView } from './onboarding-steps.ts';
import { credentialView, type CompatSection } from './credential-views.ts';

const eta = new Eta({ views: fileURLToPath(new URL('./templates', import.meta.url)), cache: true, autoEscape: true });

/** The stylesheet: the shared base and the dashboard's own rules. */
export const DASHBOARD_CSS = stylesheet('/dashboard/assets/dashboard.css', readFileSync(fileURLToPath(new URL('./assets/dashboard.css', import.meta.url))));
const cssHref = DASHBOARD_CSS.href;

export type Section = 'overview' | 'payments' | 'links' | 'settlements' | 'webhooks' | 'developers' | 'settings' | 'security';

export interface ViewContext {
  lang: Lang;
  /** The language switch's link (this page in the other language); none on pages reached by a post. */
  switchHref?: string;
  /** Signed in: the navigation and the sign-out form (which needs the CSRF token). */
  user?: { email: string; section?: Section };
  csrfToken: string;
}

export interface LayoutData {
  title: string;
  testMode?: boolean;
  narrow?: boolean;
  notice?: string;
  error?: string;
  /** The API's own words for a refusal (English), under `error`. */
  errorDetail?: string;
}

const langSuffix = (lang: Lang) => (lang === 'en' ? '?lang=en' : '');

/** Renders a template of templates/ inside the layout (shared by the page modules of the dashboard). */
export function render(template: string, context: ViewContext, data: LayoutData & Record<string, unknown>): string {
  const t = strings(context.lang);
  const nav = context.user
    ? (
        [
          ['overview', '/dashboard/overview', t.navOverview],
          ['payments', '/dashboard/payments', t.navPayments],
          ['links', '/dashboard/links', t.navLinks],
          ['settlements', '/dashboard/settlements', t.navSettlements],
          ['webhooks', '/dashboard/webhooks', t.navWebhooks],
          ['developers', '/dashboard/developers', t.navDevelopers],
          ['settings', '/dashboard/settings', t.navSettings],
          ['security', '/dashboard/security', t.navSecurity],
        ] as const
      ).map(([section, href, label]) => ({ href, label, current: context.user?.section === section }))
    : [];
  return eta.render(template, {
    ...data,
    t,
    lang: context.lang,
    dir: context.lang === 'fa' ? 'rtl' : 'ltr',
    cssHref,
    switchHref: context.switchHref,
    user: context.user,
    nav,
    csrfToken: context.csrfToken,
  });
}

export interface Field {
  name: string;
  label: string;
  type: 'text' | 'email' | 'password';
  autocomplete: string;
  value: string;
  hint?: string;
  ltr?: boolean;
  inputmode?: 'numeric' | 'text';
}

export function signUpPage(context: ViewContext, values: { email: string; business_name: string }, error?: string): string {
  const t = strings(context.lang);
  const fields: Field[] = [
    { name: 'business_name', label: t.businessName, type: 'text', autocomplete: 'organization', value: values.business_name },
    { name: 'email', label: t.email, type: 'email', autocomplete: 'email', value: values.email, ltr: true },
    { name: 'password', label: t.password, type: 'password', autocomplete: 'new-password', value: '', hint: t.passwordHint, ltr: true },
  ];
  return render('auth', context, {
    title: t.signUpTitle,
    narrow: true,
    heading: t.signUpTitle,
    intro: t.signUpIntro,
    error,
    fields,
    action: '/dashboard/sign-up',
    button: t.signUpButton,
    other: { text: t.haveAccount, href: '/dashboard/sign-in', label: t.signInButton },
  });
}

export function signInPage(context: ViewContext, values: { email: string }, options: { error?: string; notice?: string } = {}): string {
  const t = strings(context.lang);
  const fields: Field[] = [
    { name: 'email', label: t.email, type: 'email', autocomplete: 'username', value: values.email, ltr: true },
    { name: 'password', label: t.password, type: 'password', autocomplete: 'current-password', value: '', ltr: true },
  ];
  return render('auth', context, {
    title: t.signInTitle,
    narrow: true,
    heading: t.signInTitle,
    ...options,
    fields,
    action: '/dashboard/sign-in',
    button: t.signInButton,
    other: { text: t.noAccount, href: '/dashboard/sign-up', label: t.signUpButton },
    forgot: { href: '/dashboard/forgot-password', label: t.forgotPasswordLink },
  });
}

/** A page with a heading and a sentence: "check your email", "confirmed", and the error pages. */
export function messagePage(
  context: ViewContext,
  words: { title: string; text: string },
  options: { kind?: 'success' | 'info' | 'error'; requestId?: string; link?: { href: string; label: string } } = {},
): string {
  return render('message', context, { title: words.title, narrow: true, text: words.text, kind: options.kind ?? 'info', requestId: options.requestId, link: options.link });
}

export type MessageKind = 'not_found' | 'forbidden' | 'bad_request' | 'unavailable' | 'error';

export function errorWords(kind: MessageKind, t: Strings): { title: string; text: string } {
  const words: Record<MessageKind, [string, string]> = {
    not_found: [t.notFoundTitle, t.notFoundText],
    forbidden: [t.forbiddenTitle, t.forbiddenText],
    bad_request: [t.badRequestTitle, t.badRequestText],
    unavailable: [t.unavailableTitle, t.unavailableText],
    error: [t.errorTitle, t.errorText],
  };
  const [title, text] = words[kind];
  return { title, text };
}

/** A list's link: the path with the parameters that have a value. */
export function hrefWith(path: string, params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') search.set(k, v);
  const text = search.toString();
  return `${path}${text === '' ? '' : `?${text}`}`;
}

export function paymentsPage(
  context: ViewContext,
  list: { mode: KeyMode; status: PaymentStatus | undefined; payments: Payment[]; nextCursor: string | null; paged: boolean },
): string {
  const { lang } = context;
  const t = strings(lang);
  const query = (params: Record<string, string | undefined>) => hrefWith('/dashboard/payments', params);
  return render('payments', context, {
    title: t.paymentsTitle,
    testMode: list.mode === 'test',
    mode: list.mode,
    modes: (['test', 'live'] as const).map((m) => ({ value: m, label: t[`mode_${m}`], href: query({ mode: m }), current: m === list.mode })),
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
    nextHref: list.nextCursor === null ? undefined : query({ mode: list.mode, status: list.status, cursor: list.nextCursor }),
    firstHref: list.paged ? query({ mode: list.mode, status: list.status }) : undefined,
  });
}

/** The refund form as shown: what was typed (after a refusal) and this showing's idempotency key. */
export interface RefundFormState {
  amount: string;
  reason: string;
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
}

const splitsTotal = (payment: Payment) => (payment.splits ?? []).reduce((sum, s) => sum + s.amount, 0);

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
    rows.push({ id: 'merchant-receives', label: t.merchantReceives, value: formatRials(payment.charged_amount - payment.fee - splitsTotal(payment), lang) });
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
  if (payment.allowed_cards !== null) details.push({ id: 'allowed-cards', label: t.allowedCards, value: payment.allowed_cards.join(', '), ltr: true });
  if (payment.national_code !== null) details.push({ id: 'national-code', label: t.nationalCode, value: payment.national_code, ltr: true });
  if (payment.refunded_amount > 0) details.push({ label: t.refunded, value: formatRials(payment.refunded_amount, lang) });
  if (payment.failure !== null) details.push({ label: t.failure, value: payment.failure.message, ltr: lang === 'en' });
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
    })),
    // The domain's rule decides whether the form is offered; the service decides again on submit.
    refundable: refundRefusal(payment, null, activity.refundWindowOpen) === undefined ? formatRials(refundableAmount(payment), lang) : undefined,
    // Refundable but for the window: say so, rather than leave the form out without a word.
    refundWindowClosed: !activity.refundWindowOpen && refundRefusal(payment, null, true) === undefined,
    form: { ...activity.form, amount: activity.form.amount === '' && activity.error === undefined ? String(refundableAmount(payment)) : activity.form.amount },
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


export interface KeyRow {
  id: string;
  mode: KeyMode;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
}

export function developersPage(
  context: ViewContext,
  account: {
    onboarding_status: OnboardingStatus;
    gateway_status: GatewayStatus;
    rejection_reason: string | null;
    live_mode: boolean;
    keys: KeyRow[];
    liveKeyMissing: ('live_mode' | 'two_factor')[];
    /** The merchant's PSP route per mode, read-only (docs/psps/routing.md). */
    routes?: { mode: 'test' | 'live'; source: 'merchant' | 'default'; entries: RouteEntry[] }[];
  },
  options: { newKey?: string; notice?: string; error?: string; refusedMissing?: ('live_mode' | 'two_factor')[]; compat?: CompatSection } = {},
): string {
  const { lang } = context;
  const t = strings(lang);
  const now = Date.now();
  return render('developers', context, {
    title: t.developersTitle,
    ...options,
    gatewayStatus: t[`gateway_${account.gateway_status}`],
    liveMode: account.live_mode ? t.liveOn : t.liveOff,
    liveKeyMissing: account.liveKeyMissing.map((m) => t[`liveKeyNeeds_${m}`]),
    refusedMissing: options.refusedMissing?.map((m) => t[`liveKeyNeeds_${m}`]),
    rollChoices: [
      { seconds: 0, label: t.rollNow },
      { seconds: 3_600, label: t.roll1h },
      { seconds: 86_400, label: t.roll24h },
      { seconds: 604_800, label: t.roll7d },
    ],
    onboarding: onboardingView(account.onboarding_status, account.rejection_reason, t),
    routes: (account.routes ?? []).map((route) => ({
      mode: t[`mode_${route.mode}`],
      modeKey: route.mode,
      source: route.source === 'merchant' ? t.pspRouteMerchant : t.pspRouteDefault,
      entries: route.entries.map((e) => ({
        psp: e.psp,
        terminal: e.terminal_id,
        priority: localDigits(String(e.priority + 1), lang),
        weight: localDigits(String(e.weight), lang),
        amounts:
          e.min_amount === null && e.max_amount === null
            ? t.pspAnyAmount
            : `${e.min_amount === null ? '' : formatRials(e.min_amount, lang)} – ${e.max_amount === null ? '' : formatRials(e.max_amount, lang)}`,
      })),
    })),
    keys: account.keys.map((k) => ({ id: k.id, prefix: k.prefix, ...credentialView(k, lang, now) })),
  });
}


export function settingsPage(
  context: ViewContext,
  account: { domains: DomainVerificationState[]; email: string; beneficiaries: Beneficiary[] },
  options: { notice?: string; error?: string; domainValue?: string; beneficiaryError?: string; beneficiaryValue?: { iban: string; name: string } } = {},
): string {
  const t = strings(context.lang);
  return render('settings', context, {
    title: t.settingsTitle,
    notice: options.notice,
    error: options.error,
    domainValue: options.domainValue ?? '',
    beneficiaryError: options.beneficiaryError,
    beneficiaryValue: options.beneficiaryValue ?? { iban: '', name: '' },
    beneficiaries: account.beneficiaries,
    domains: account.domains,
    email: account.email,
  });
}

export { langSuffix };
