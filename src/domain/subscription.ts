/**
 * Plans and subscriptions of direct debit (docs/SUBSCRIPTIONS.md#subscriptions): pure rules, shared by
 * the API, the subscription workflow and its tests. A subscription's periods are counted from its
 * anchor (the moment it was created), each computed from the anchor and never from the period before,
 * so a month's clamped end (Jan 31 → Feb 28) does not drift the months after it (→ Mar 31).
 */

export const PLAN_INTERVALS = ['week', 'month', 'year', 'days'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

/** The most days a `days` interval may have: a year and a day would be a yearly plan. */
export const MAX_INTERVAL_DAYS = 366;

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export interface PlanPeriod {
  interval: PlanInterval;
  /** Set exactly when `interval` is `days`. */
  interval_days: number | null;
}

const DAY_MS = 24 * 3600 * 1000;

/** `months` calendar months after `anchorMs` (UTC), the day clamped to the month's last: Jan 31 + 1 → Feb 28 (29). */
export function addMonths(anchorMs: number, months: number): number {
  const anchor = new Date(anchorMs);
  const monthIndex = anchor.getUTCMonth() + months;
  const year = anchor.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(anchor.getUTCDate(), lastDay),
    anchor.getUTCHours(),
    anchor.getUTCMinutes(),
    anchor.getUTCSeconds(),
    anchor.getUTCMilliseconds(),
  );
}

/** The start of period `n` (0 is the first, at the anchor) of a plan's period, in ms. */
export function periodStartMs(anchorMs: number, plan: PlanPeriod, n: number): number {
  switch (plan.interval) {
    case 'week':
      return anchorMs + n * 7 * DAY_MS;
    case 'month':
      return addMonths(anchorMs, n);
    case 'year':
      return addMonths(anchorMs, 12 * n);
    case 'days':
      return anchorMs + n * (plan.interval_days ?? 1) * DAY_MS;
  }
}

/**
 * When a failed charge is tried again, counted from the failure: 1, 3 and 5 days later (then the
 * subscription is canceled). Stripe's default retry schedule spreads its attempts over about a week
 * for the same reason: most refusals of a debit are an empty account, and what fills it (a salary on
 * the month's turn, a top-up by card) lands within days, not minutes; Iranian billers (operators'
 * post-paid lines, ISPs) give a week's grace before they cut. Retrying sooner only burns the mandate's
 * daily count and the bank's own limits; the last try, 9 days after the first failure, still falls
 * inside a monthly period, so a retry never overlaps the next period's charge of a monthly plan.
 */
export const CHARGE_RETRY_DAYS = [1, 3, 5] as const;
export const CHARGE_RETRY_DELAYS_MS: readonly number[] = CHARGE_RETRY_DAYS.map((d) => d * DAY_MS);

/** A subscription's workflow starts afresh (continueAsNew) after this many periods, keeping its history short. */
export const PERIODS_PER_RUN = 12;

/** The debit's idempotency key of a period: a charge retried or replayed finds the same debit. */
export function chargeKey(subscriptionId: string, period: number, attempt: number): string {
  return `subscription:${subscriptionId}:${period}:${attempt}`;
}

/** What a plan's schema cannot say: interval_days comes exactly with the `days` interval. */
export function planProblems(plan: {
  interval: PlanInterval;
  interval_days?: number;
}): { path: string; message: string }[] {
  if (plan.interval === 'days' && plan.interval_days === undefined)
    return [{ path: '/interval_days', message: 'is required with interval days' }];
  if (plan.interval !== 'days' && plan.interval_days !== undefined)
    return [{ path: '/interval_days', message: 'is only allowed with interval days' }];
  return [];
}
