/**
 * The dashboard's overview: count and volume of successful payments per day,
 * days as Tehran's calendar has them. A payment counts as successful on the
 * day the merchant verified it (verified, partially refunded or refunded
 * since: refunds do not undo that it was paid), at its full amount. One
 * range read of the index payments_by_verified_at (merchant, mode,
 * verified_at, amount), which covers the query.
 */
import type { Db } from '../db/database.ts';
import { verifiedTotalsByDay } from '../db/payment-overview.ts';
import type { Tenant } from '../domain/merchant.ts';
import { TEHRAN_TIME_ZONE, tehranDay } from '../domain/calendar.ts';

export const OVERVIEW_DAYS = 30;

export interface DayTotal {
  /** The day in Tehran, `YYYY-MM-DD` (Gregorian). */
  day: string;
  /** Its first instant. */
  start: Date;
  count: number;
  /** Rials. */
  volume: number;
}

const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: TEHRAN_TIME_ZONE, timeZoneName: 'longOffset' });

/** Milliseconds Tehran is ahead of UTC at that instant (`GMT+03:30` → 12 600 000). */
function offsetMs(at: Date): number {
  const name = offsetFormat.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m === null ? 0 : (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
}

/** The first instant of a Tehran day (`YYYY-MM-DD`), whatever offset Tehran had then. */
export function tehranMidnight(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(y, m - 1, d);
  // The offset just before and at midnight can differ on a clock change; take the one that lands on the day.
  const guess = new Date(utcMidnight - offsetMs(new Date(utcMidnight)));
  return tehranDay(guess) === day ? guess : new Date(utcMidnight - offsetMs(guess));
}

/** The `days` Tehran days ending with today, oldest first, each with its first instant. */
export function tehranDays(now: Date, days = OVERVIEW_DAYS): { day: string; start: Date }[] {
  const today = tehranDay(now);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const out: { day: string; start: Date }[] = [];
  for (let back = days - 1; back >= 0; back--) {
    // Noon UTC of the calendar date stays on that date in Tehran's +03:30.
    const day = new Date(Date.UTC(y, m - 1, d - back, 12)).toISOString().slice(0, 10);
    out.push({ day, start: tehranMidnight(day) });
  }
  return out;
}

/**
 * Count and volume of the tenant's successful payments on each of the last
 * `OVERVIEW_DAYS` Tehran days (today last, up to `now`), zeros included.
 */
export async function dailyTotals(db: Db, tenant: Tenant, now: Date): Promise<DayTotal[]> {
  const days = tehranDays(now);
  const rows = await verifiedTotalsByDay(db, tenant, days, now);
  const totals = days.map((d) => ({ ...d, count: 0, volume: 0 }));
  for (const row of rows) {
    const day = totals[Number(row.bucket)]!;
    day.count = Number(row.n);
    day.volume = Number(row.volume);
  }
  return totals;
}
