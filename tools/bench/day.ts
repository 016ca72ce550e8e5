/**
 * A simulated day of one merchant's traffic, for the scale phase: payments
 * opened on the durable path and taken, through the API, to the ends a day of
 * real traffic has (verified, refunded, declined at the bank, canceled,
 * abandoned on the page until it expired), plus a fixed number left on the
 * payment page when the day ends. What stays open afterwards is what the
 * design keeps open per payment: the payments in flight, and whatever a
 * finished payment still holds (a verified payment's refund window).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/db/database.ts';
import { closedLoop, durableCreate, type BaselineResult, type DurableCreateDeps } from './durable.ts';
import { PAYMENT_AMOUNT, prepareCall, type Target } from './load.ts';

/** The ends of a day's payments, as fractions of the payments that end during the day (they add up to 1). */
export interface DayMix {
  verified: number;
  /** Verified, then refunded in full. */
  refunded: number;
  /** The bank declined the card. */
  declined: number;
  /** Canceled by the merchant before the customer paid. */
  canceled: number;
  /** The customer left the page; it expired (its clock moved past expires_at with the test helper). */
  expired: number;
}

export const DEFAULT_DAY_MIX: DayMix = { verified: 0.65, refunded: 0.05, declined: 0.1, canceled: 0.05, expired: 0.15 };

type Fate = keyof DayMix | 'in_flight';

export interface DayServices extends DurableCreateDeps {
  target: Target;
  config: Config;
}

/**
 * `count` fates spread evenly through the day: each fate's payments sit at
 * (k + 0.5)/n of the way, so every stretch of the day has the same mix.
 */
export function dayFates(count: number, mix: DayMix, inFlight: number): Fate[] {
  const ending = Math.max(0, count - inFlight);
  const sum = (Object.values(mix) as number[]).reduce((a, b) => a + b, 0);
  const placed: { fate: Fate; at: number }[] = [];
  let assigned = 0;
  for (const [fate, share] of Object.entries(mix) as [keyof DayMix, number][]) {
    const n = fate === 'verified' ? 0 : Math.round((ending * share) / sum);
    for (let k = 0; k < n && assigned < ending; k++, assigned++) placed.push({ fate, at: (k + 0.5) / n });
  }
  // Verified takes what rounding left, so the day has exactly `count` payments.
  const verified = ending - assigned;
  for (let k = 0; k < verified; k++) placed.push({ fate: 'verified', at: (k + 0.5) / verified });
  const flying = count - ending;
  for (let k = 0; k < flying; k++) placed.push({ fate: 'in_flight', at: (k + 0.5) / flying });
  return placed.sort((a, b) => a.at - b.at).map((p) => p.fate);
}

/** Takes one new payment to its fate through the API. */
async function live(services: DayServices, fate: Fate): Promise<void> {
  const { target } = services;
  const id = await durableCreate(services);
  const bank = (outcome: 'success' | 'failure') =>
    prepareCall(target, `/test_helpers/payments/${id}/bank_outcome`, { outcome }, 200);
  switch (fate) {
    case 'in_flight':
      return;
    case 'expired':
      return expire(services, id);
    case 'canceled':
      return prepareCall(target, `/payments/${id}/cancel`, {}, 200);
    case 'declined':
      return bank('failure');
    case 'verified':
    case 'refunded':
      await bank('success');
      await prepareCall(target, `/payments/${id}/verify`, { amount: PAYMENT_AMOUNT }, 200);
      if (fate === 'refunded')
        await prepareCall(target, `/payments/${id}/refunds`, {}, 201, { 'idempotency-key': randomUUID() });
      return;
  }
}

/** The customer never came back: the payment's clock moves past its expires_at and its page expires. */
function expire(services: DayServices, id: string): Promise<void> {
  return prepareCall(
    services.target,
    `/test_helpers/payments/${id}/advance`,
    { seconds: services.config.PAYMENT_TTL_SECONDS + 1 },
    200,
  );
}

/**
 * The day before ends: every payment of the merchant still on its page
 * (left in flight, the probes' and the warm-up's creates) is abandoned and
 * expires, as it would by the next day.
 */
export async function endPreviousDay(
  services: DayServices,
  concurrency: number,
  maxSeconds: (payments: number) => number,
): Promise<number> {
  const created = await services.db
    .selectFrom('payments')
    .select('id')
    .where('merchant_id', '=', services.merchant.id)
    .where('status', '=', 'created')
    .execute();
  const ids = created.map((row) => row.id);
  await closedLoop(() => expire(services, ids.shift()!), ids.length, concurrency, maxSeconds(ids.length));
  return created.length;
}

/** One day: `count` payments, `inFlight` of them left on the page at its end. */
export async function simulateDay(
  services: DayServices,
  count: number,
  mix: DayMix,
  inFlight: number,
  concurrency: number,
  maxSeconds: number,
): Promise<BaselineResult> {
  const fates = dayFates(count, mix, inFlight);
  return closedLoop(() => live(services, fates.shift()!), fates.length, concurrency, maxSeconds);
}

/** The merchant's payments by where they are: still in flight (page, bank, verify), or verified at some point. */
export async function paymentsByStage(db: Db, merchantId: string): Promise<{ in_flight: number; verified: number }> {
  const rows = await db
    .selectFrom('payments')
    .select(['status', sql<number>`count(*)`.as('n')])
    .where('merchant_id', '=', merchantId)
    .groupBy('status')
    .execute();
  const count = (statuses: string[]) =>
    rows.filter((r) => statuses.includes(r.status)).reduce((sum, r) => sum + Number(r.n), 0);
  return {
    in_flight: count(['created', 'pending', 'paid']),
    verified: count(['verified', 'partially_refunded', 'refunded']),
  };
}
