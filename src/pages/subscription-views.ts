/**
 * The customer's subscription page (docs/PAGES.md#the-subscription-page): the plan, what it charges and
 * how often, the state, the current period's end and the next charge, the bank the mandate was signed
 * at, and the form that cancels at the period's end. Rendered like every hosted page (views.ts): Eta,
 * escaped output only, no script; Persian by default, English with `?lang=en`.
 */
import type { Plan, Subscription } from '../domain/subscription-schemas.ts';
import { LOCALE } from '../http/words.ts';
import { formatAmount, formatTehranDay, type Lang } from './i18n.ts';
import { render, type DetailRow } from './views.ts';

const fa = {
  title: 'اشتراک',
  heading: 'اشتراک شما در',
  status: 'وضعیت',
  periodEnd: 'پایان دورهٔ جاری',
  nextCharge: 'برداشت بعدی',
  noNextCharge: 'برداشت دیگری نیست',
  retrySoon: 'برداشت ناموفق تا چند روز دیگر دوباره انجام می‌شود',
  bank: 'بانک پرداخت مستقیم',
  noBank: 'ثبت نشده',
  interval_week: 'هفتگی',
  interval_month: 'ماهانه',
  interval_year: 'سالانه',
  intervalDays: (days: string) => `هر ${days} روز`,
  statuses: { active: 'فعال', past_due: 'برداشت ناموفق', canceled: 'لغو شده' },
  endingTitle: 'در پایان این دوره لغو می‌شود',
  endingText: (date: string) => `پس از ${date} مبلغی از حساب شما برداشت نمی‌شود؛ تا آن زمان اشتراک برقرار است.`,
  canceledTitle: 'این اشتراک لغو شده است',
  canceledText: 'از این اشتراک دیگر مبلغی از حساب شما برداشت نمی‌شود.',
  pastDueTitle: 'آخرین برداشت انجام نشد',
  pastDueText:
    'بانک برداشت این دوره را نپذیرفت (معمولاً به دلیل کافی نبودن موجودی). ۱، ۳ و ۵ روز بعد دوباره تلاش می‌شود.',
  cancelTitle: 'لغو اشتراک',
  cancelText:
    'با لغو، اشتراک تا پایان دورهٔ جاری که پرداخت شده برقرار می‌ماند و پس از آن مبلغی برداشت نمی‌شود. قرارداد پرداخت مستقیم شما با بانک را فروشنده یا بانک شما لغو می‌کند.',
  cancelButton: 'لغو در پایان این دوره',
  canceledNow: 'درخواست شما ثبت شد.',
};

type Words = typeof fa;

const en: Words = {
  title: 'Subscription',
  heading: 'Your subscription at',
  status: 'Status',
  periodEnd: 'Current period ends',
  nextCharge: 'Next charge',
  noNextCharge: 'No further charge',
  retrySoon: 'The refused charge is tried again within a few days',
  bank: 'Direct debit bank',
  noBank: 'Not recorded',
  interval_week: 'Weekly',
  interval_month: 'Monthly',
  interval_year: 'Yearly',
  intervalDays: (days: string) => `Every ${days} days`,
  statuses: { active: 'Active', past_due: 'Charge refused', canceled: 'Canceled' },
  endingTitle: 'Ends at the end of this period',
  endingText: (date: string) =>
    `No money is taken from your account after ${date}; until then the subscription stays on.`,
  canceledTitle: 'This subscription is canceled',
  canceledText: 'No more money is taken from your account for this subscription.',
  pastDueTitle: 'The last charge was refused',
  pastDueText:
    'Your bank refused this period’s charge (usually for want of balance). It is tried again 1, 3 and 5 days later.',
  cancelTitle: 'Cancel the subscription',
  cancelText:
    'Once canceled, the subscription stays on until the end of the period you paid for, and nothing is taken after it. Your direct debit mandate with the bank is ended by the shop or your bank.',
  cancelButton: 'Cancel at the end of this period',
  canceledNow: 'Your request is recorded.',
};

export const subscriptionWords = (lang: Lang): Words => (lang === 'fa' ? fa : en);

/** How often the plan charges, in words. */
export function intervalWords(plan: Pick<Plan, 'interval' | 'interval_days'>, lang: Lang): string {
  const w = subscriptionWords(lang);
  if (plan.interval === 'days')
    return w.intervalDays(new Intl.NumberFormat(LOCALE[lang]).format(plan.interval_days ?? 0));
  return w[`interval_${plan.interval}`];
}

export interface SubscriptionPageInput {
  subscription: Subscription;
  plan: Plan;
  merchantName: string;
  bank: { code: string; name: string } | null;
  lang: Lang;
  /** The page's address without its language (`/subscriptions/<id>?t=<token>`). */
  address: string;
  pageToken: string;
  /** Given while the customer may still cancel (active or past due, no cancel asked yet). */
  csrfToken?: string;
  /** The cancel was just recorded. */
  done?: boolean;
}

/** Whether the customer's cancel is still to be offered. */
export const customerMayCancel = (s: Subscription) => s.status !== 'canceled' && !s.cancel_at_period_end;

export function subscriptionPage(input: SubscriptionPageInput): string {
  const { subscription: s, plan, lang } = input;
  const w = subscriptionWords(lang);
  const amount = formatAmount(s.amount, lang);
  const periodEnd = formatTehranDay(s.current_period_end, lang);
  const next =
    s.status === 'canceled' || s.cancel_at_period_end
      ? w.noNextCharge
      : s.status === 'past_due'
        ? w.retrySoon
        : `${periodEnd} · ${amount.rials}`;
  // The plan's name is the heading and its amount and interval the headline: the rows say the rest.
  const details: DetailRow[] = [
    { label: w.status, value: w.statuses[s.status], id: 'subscription-status' },
    ...(s.status === 'canceled' ? [] : [{ label: w.periodEnd, value: periodEnd, id: 'period-end' }]),
    { label: w.nextCharge, value: next, id: 'next-charge' },
    { label: w.bank, value: input.bank?.name ?? w.noBank, id: 'bank' },
  ];
  let notice: { kind: string; heading: string; text: string; why: string } | undefined;
  if (s.status === 'canceled')
    notice = { kind: 'canceled', heading: w.canceledTitle, text: w.canceledText, why: 'canceled' };
  else if (s.cancel_at_period_end)
    notice = { kind: 'pending', heading: w.endingTitle, text: w.endingText(periodEnd), why: 'ending' };
  else if (s.status === 'past_due')
    notice = { kind: 'failed', heading: w.pastDueTitle, text: w.pastDueText, why: 'past_due' };
  const other = lang === 'fa' ? 'en' : 'fa';
  const withLang = (l: Lang) => (l === 'en' ? `${input.address}&lang=en` : input.address);
  return render(
    'subscription',
    { lang },
    {
      title: w.title,
      testMode: s.mode === 'test',
      switchHref: withLang(other),
      w,
      merchantName: input.merchantName,
      planName: plan.name,
      amount,
      interval: intervalWords(plan, lang),
      details,
      notice,
      done: input.done === true ? w.canceledNow : undefined,
      form:
        customerMayCancel(s) && input.csrfToken !== undefined
          ? { action: withLang(lang), csrfToken: input.csrfToken, pageToken: input.pageToken }
          : undefined,
    },
  );
}
