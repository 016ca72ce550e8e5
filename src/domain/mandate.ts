/**
 * Direct debit mandates' rules, pure (docs/SUBSCRIPTIONS.md): the states, what a mandate may ask for,
 * and the Tehran day and month whose counts a debit takes. Shared by the services, the database
 * module and the tests.
 */

export const MANDATE_STATUSES = ['pending', 'active', 'declined', 'canceled', 'expired'] as const;
export type MandateStatus = (typeof MANDATE_STATUSES)[number];

/** ZarinPal's page: a contract of at least 30 days. Held for every provider, so a mandate never depends on which. */
export const MANDATE_MIN_DAYS = 30;
/** A bound of ours: five years, so a forgotten mandate does not outlive its merchant's books. */
export const MANDATE_MAX_DAYS = 5 * 366;

const DAY_MS = 86_400_000;
/** Tehran keeps +03:30 all year since 2022 (as src/domain/calendar.ts). */
const TEHRAN_OFFSET_MS = 210 * 60_000;

export interface MandateLimits {
  max_amount: number;
  max_daily_count: number;
  max_monthly_count: number;
  expires_at: Date;
}

export interface MandateProblem {
  path: string;
  message: string;
}

/** What is wrong with a mandate's limits asked at `now` (none: they may be asked). */
export function mandateLimitProblems(limits: MandateLimits, now: Date): MandateProblem[] {
  const problems: MandateProblem[] = [];
  const days = (limits.expires_at.getTime() - now.getTime()) / DAY_MS;
  if (!(days >= MANDATE_MIN_DAYS))
    problems.push({ path: '/expires_at', message: `must be at least ${MANDATE_MIN_DAYS} days from now` });
  else if (days > MANDATE_MAX_DAYS)
    problems.push({ path: '/expires_at', message: `must be at most ${MANDATE_MAX_DAYS} days from now` });
  if (limits.max_monthly_count < limits.max_daily_count)
    problems.push({ path: '/max_monthly_count', message: 'must be at least max_daily_count' });
  return problems;
}

/** The Tehran calendar day (YYYY-MM-DD) and month (YYYY-MM) of `at`: the periods a debit at `at` counts in. */
export function tehranPeriods(at: Date): { day: string; month: string } {
  const day = new Date(at.getTime() + TEHRAN_OFFSET_MS).toISOString().slice(0, 10);
  return { day, month: day.slice(0, 7) };
}

/** Why a debit of `amount` is refused before the provider is asked, or undefined when the mandate allows it. */
export type DebitRefusal =
  | { code: 'mandate_not_active'; message: string }
  | { code: 'mandate_limit_exceeded'; limit: 'amount' | 'daily_count' | 'monthly_count'; message: string };
