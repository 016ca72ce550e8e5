/**
 * The dashboard's direct debit pages (docs/DASHBOARD.md#direct-debit): one mode's mandates and
 * subscriptions, a mandate (its limits and what today and this month used of them, its bank, its
 * subscriptions and events) and a subscription (its plan, periods, charges leading to their payments,
 * events, and its customer's page), with the cancel forms. Rendered with the templates beside this file.
 */
import type { KeyMode } from '../domain/merchant.ts';
import type { Mandate } from '../domain/mandate-schemas.ts';
import type { Plan, Subscription } from '../domain/subscription-schemas.ts';
import type { EventType } from '../domain/events.ts';
import { formatRials, formatTime, strings, type Lang, type Strings } from './i18n.ts';
import { modeSwitch } from './kit.ts';
import { render, type ViewContext } from './views.ts';

const count = (n: number, lang: Lang) => new Intl.NumberFormat(lang === 'fa' ? 'fa-IR' : 'en-US').format(n);
const liveQuery = (mode: KeyMode) => (mode === 'live' ? '?mode=live' : '');
export const mandateHref = (m: { id: string; mode: KeyMode }) => `/dashboard/mandates/${m.id}${liveQuery(m.mode)}`;
export const subscriptionHref = (s: { id: string; mode: KeyMode }) =>
  `/dashboard/subscriptions/${s.id}${liveQuery(s.mode)}`;

const mandateStatusLabel = (t: Strings, status: Mandate['status']) => t[`mandateStatus_${status}`];
const subscriptionStatusLabel = (t: Strings, s: Subscription) =>
  s.status !== 'canceled' && s.cancel_at_period_end ? t.subEndsAtPeriodEnd : t[`subscriptionStatus_${s.status}`];
const subscriptionBadge = (s: Subscription) =>
  s.status !== 'canceled' && s.cancel_at_period_end ? 'ending' : s.status;

export function intervalLabel(t: Strings, lang: Lang, plan: Pick<Plan, 'interval' | 'interval_days'>): string {
  return plan.interval === 'days'
    ? t.intervalDays(count(plan.interval_days ?? 0, lang))
    : t[`interval_${plan.interval}`];
}

/** The tabs between the two lists, and the mode switch of the list at `path`. */
function listChrome(lang: Lang, mode: KeyMode, path: '/dashboard/mandates' | '/dashboard/subscriptions') {
  const t = strings(lang);
  return {
    tabs: [
      { href: `/dashboard/subscriptions${liveQuery(mode)}`, label: t.subscriptionsTitle, id: 'tab-subscriptions' },
      { href: `/dashboard/mandates${liveQuery(mode)}`, label: t.mandatesTitle, id: 'tab-mandates' },
    ].map((tab) => ({ ...tab, current: tab.href.startsWith(path) })),
    modes: modeSwitch(lang, mode, path),
  };
}

export interface ListPage<T> {
  mode: KeyMode;
  data: T[];
  nextCursor: string | null;
  paged: boolean;
}

const pager = (path: string, mode: KeyMode, nextCursor: string | null, paged: boolean) => {
  const base = `${path}${liveQuery(mode)}`;
  const join = mode === 'live' ? '&' : '?';
  return {
    nextHref: nextCursor === null ? undefined : `${base}${join}cursor=${encodeURIComponent(nextCursor)}`,
    firstHref: paged ? base : undefined,
  };
};

export function mandatesPage(context: ViewContext, list: ListPage<Mandate>): string {
  const { lang } = context;
  const t = strings(lang);
  return render('mandates', context, {
    title: t.mandatesTitle,
    testMode: list.mode === 'test',
    ...listChrome(lang, list.mode, '/dashboard/mandates'),
    rows: list.data.map((m) => ({
      id: m.id,
      href: mandateHref(m),
      created: formatTime(m.created_at, lang),
      mobile: m.mobile,
      bank: m.bank?.name ?? t.ddBankNone,
      maxAmount: formatRials(m.max_amount, lang),
      limits: `${count(m.max_daily_count, lang)} / ${count(m.max_monthly_count, lang)}`,
      status: m.status,
      statusLabel: mandateStatusLabel(t, m.status),
    })),
    ...pager('/dashboard/mandates', list.mode, list.nextCursor, list.paged),
  });
}

export function subscriptionsPage(
  context: ViewContext,
  list: ListPage<{ subscription: Subscription; plan: Plan | undefined }>,
): string {
  const { lang } = context;
  const t = strings(lang);
  return render('subscriptions', context, {
    title: t.subscriptionsTitle,
    testMode: list.mode === 'test',
    ...listChrome(lang, list.mode, '/dashboard/subscriptions'),
    rows: list.data.map(({ subscription: s, plan }) => ({
      id: s.id,
      href: subscriptionHref(s),
      created: formatTime(s.created_at, lang),
      plan: plan?.name ?? s.plan_id,
      amount: formatRials(s.amount, lang),
      interval: plan === undefined ? '' : intervalLabel(t, lang, plan),
      periodEnd: s.status === 'canceled' ? '—' : formatTime(s.current_period_end, lang),
      status: subscriptionBadge(s),
      statusLabel: subscriptionStatusLabel(t, s),
    })),
    ...pager('/dashboard/subscriptions', list.mode, list.nextCursor, list.paged),
  });
}

interface Row {
  label: string;
  value: string;
  id: string;
  href?: string;
  ltr?: boolean;
}

const eventRows = (t: Strings, lang: Lang, events: { id: string; type: string; created_at: string }[]) =>
  events.map((e) => ({
    id: e.id,
    type: e.type,
    time: formatTime(e.created_at, lang),
    label: t.eventLabels[e.type as EventType] ?? e.type,
  }));

export interface MandateView {
  mandate: Mandate;
  usage: { daily: number; monthly: number };
  subscriptions: Subscription[];
  events: { id: string; type: string; created_at: string }[];
}

export function mandatePage(context: ViewContext, view: MandateView, notice?: string): string {
  const { lang } = context;
  const t = strings(lang);
  const m = view.mandate;
  const details: Row[] = [
    { label: t.status, value: mandateStatusLabel(t, m.status), id: 'mandate-status' },
    { label: t.ddBank, value: m.bank?.name ?? t.ddBankNone, id: 'mandate-bank' },
    { label: t.ddMobile, value: m.mobile, id: 'mandate-mobile', ltr: true },
    { label: t.ddProvider, value: m.provider, id: 'mandate-provider', ltr: true },
    { label: t.ddMaxAmount, value: formatRials(m.max_amount, lang), id: 'mandate-max-amount' },
    {
      label: t.ddDaily,
      value: t.ddUsedOf(count(view.usage.daily, lang), count(m.max_daily_count, lang)),
      id: 'mandate-daily',
    },
    {
      label: t.ddMonthly,
      value: t.ddUsedOf(count(view.usage.monthly, lang), count(m.max_monthly_count, lang)),
      id: 'mandate-monthly',
    },
    { label: t.ddExpires, value: formatTime(m.expires_at, lang), id: 'mandate-expires' },
    { label: t.created, value: formatTime(m.created_at, lang), id: 'mandate-created' },
    ...(m.activated_at === null
      ? []
      : [{ label: t.ddActivated, value: formatTime(m.activated_at, lang), id: 'mandate-activated' }]),
    ...(m.ended_at === null ? [] : [{ label: t.ddEnded, value: formatTime(m.ended_at, lang), id: 'mandate-ended' }]),
    ...(m.failure_code === null
      ? []
      : [{ label: t.ddFailure, value: m.failure_code, id: 'mandate-failure', ltr: true }]),
    ...(m.reference === '' ? [] : [{ label: t.ddReference, value: m.reference, id: 'mandate-reference', ltr: true }]),
  ];
  return render('mandate', context, {
    title: t.mandateTitle,
    testMode: m.mode === 'test',
    notice,
    backHref: `/dashboard/mandates${liveQuery(m.mode)}`,
    id: m.id,
    status: m.status,
    statusLabel: mandateStatusLabel(t, m.status),
    details,
    subscriptions: view.subscriptions.map((s) => ({
      id: s.id,
      href: subscriptionHref(s),
      created: formatTime(s.created_at, lang),
      amount: formatRials(s.amount, lang),
      status: subscriptionBadge(s),
      statusLabel: subscriptionStatusLabel(t, s),
    })),
    events: eventRows(t, lang, view.events),
    cancelAction: m.status === 'pending' || m.status === 'active' ? `/dashboard/mandates/${m.id}/cancel` : undefined,
  });
}

export interface SubscriptionView {
  subscription: Subscription;
  plan: Plan | undefined;
  mandate: Mandate | undefined;
  charges: {
    key: string;
    amount: number;
    debit_status: string;
    payment_id: string;
    payment_status: string;
    created_at: string;
  }[];
  events: { id: string; type: string; created_at: string }[];
}

export function subscriptionPage(context: ViewContext, view: SubscriptionView, notice?: string): string {
  const { lang } = context;
  const t = strings(lang);
  const s = view.subscription;
  const next =
    s.status === 'canceled' || s.cancel_at_period_end
      ? t.subNoNextCharge
      : s.status === 'past_due'
        ? t.subRetrying
        : `${formatTime(s.current_period_end, lang)} · ${formatRials(s.amount, lang)}`;
  const details: Row[] = [
    { label: t.subPlan, value: view.plan?.name ?? s.plan_id, id: 'subscription-plan' },
    { label: t.amount, value: formatRials(s.amount, lang), id: 'subscription-amount' },
    ...(view.plan === undefined
      ? []
      : [{ label: t.subInterval, value: intervalLabel(t, lang, view.plan), id: 'subscription-interval' }]),
    { label: t.status, value: subscriptionStatusLabel(t, s), id: 'subscription-status' },
    { label: t.subPeriod, value: count(s.current_period, lang), id: 'subscription-period' },
    { label: t.subPeriodStart, value: formatTime(s.current_period_start, lang), id: 'subscription-period-start' },
    { label: t.subPeriodEnd, value: formatTime(s.current_period_end, lang), id: 'subscription-period-end' },
    { label: t.subNextCharge, value: next, id: 'subscription-next-charge' },
    { label: t.subFailedAttempts, value: count(s.failed_attempts, lang), id: 'subscription-failed-attempts' },
    {
      label: t.subMandate,
      value: view.mandate?.bank?.name ?? t.ddBankNone,
      id: 'subscription-mandate',
      href: mandateHref({ id: s.mandate_id, mode: s.mode }),
    },
    { label: t.created, value: formatTime(s.created_at, lang), id: 'subscription-created' },
    ...(s.canceled_at === null
      ? []
      : [{ label: t.subCanceledAt, value: formatTime(s.canceled_at, lang), id: 'subscription-canceled-at' }]),
    ...(s.cancel_reason === null
      ? []
      : [
          {
            label: t.subCancelReason,
            value:
              ((t as Record<string, unknown>)[`cancelReason_${s.cancel_reason}`] as string | undefined) ??
              s.cancel_reason,
            id: 'subscription-cancel-reason',
          },
        ]),
  ];
  return render('subscription', context, {
    title: t.subscriptionTitle,
    testMode: s.mode === 'test',
    notice,
    backHref: `/dashboard/subscriptions${liveQuery(s.mode)}`,
    id: s.id,
    status: subscriptionBadge(s),
    statusLabel: subscriptionStatusLabel(t, s),
    details,
    customerUrl: s.status === 'canceled' ? undefined : s.customer_url,
    charges: view.charges.map((c) => ({
      period: count(Number(c.key.split(':')[2] ?? 0), lang),
      time: formatTime(c.created_at, lang),
      amount: formatRials(c.amount, lang),
      debit: (t as Record<string, unknown>)[`debitStatus_${c.debit_status}`] ?? c.debit_status,
      paymentId: c.payment_id,
      paymentHref: `/dashboard/payments/${c.payment_id}${liveQuery(s.mode)}`,
      paymentStatus: c.payment_status,
      paymentStatusLabel: (t as Record<string, unknown>)[`status_${c.payment_status}`] ?? c.payment_status,
    })),
    events: eventRows(t, lang, view.events),
    cancel:
      s.status === 'canceled'
        ? undefined
        : { action: `/dashboard/subscriptions/${s.id}/cancel`, atPeriodEnd: !s.cancel_at_period_end },
  });
}
