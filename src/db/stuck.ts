/**
 * Records past the bound of their waiting state (docs/RELIABILITY.md#waiting-states):
 * what the stuck-records sweep sends on (pending refunds, events without a
 * delivery, payouts without an answer) and what `cli stuck` and the
 * dargah_stuck_records metric raise. Each query is bounded and indexed
 * (migration 0026).
 */
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { linkAutoVerifyBoundMs } from '../domain/payment.ts';
import { WAITING_STATES, type StuckRecord } from '../domain/waiting-states.ts';
import type { Db } from './database.ts';

/**
 * Events older than this are not given a first delivery any more, nor raised: a worker or Temporal
 * outage of up to a day is covered, and each sweep reads one day of events at most.
 */
export const EVENT_LOOKBACK_MS = 86_400_000;

/** Refunds recorded `pending` before `before`, oldest first: each is sent on to its refunds workflow. */
export function pendingRefundsBefore(db: Db, before: Date, limit: number) {
  return db
    .selectFrom('refunds')
    .select(['id', 'payment_id', 'merchant_id', 'mode', 'amount', 'reason', 'created_at'])
    .where('status', '=', 'pending')
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/**
 * Events recorded between `since` and `before` that an endpoint subscribed to when they were
 * recorded has no attempt of: their first delivery was never started (its id is derived, so
 * starting it again is harmless when it was). Oldest first.
 */
export function eventsWithoutDeliveryBefore(
  db: Db,
  { before, since, limit }: { before: Date; since: Date; limit: number },
) {
  return db
    .selectFrom('events')
    .innerJoin('webhook_endpoints as endpoint', (join) =>
      join
        .onRef('endpoint.merchant_id', '=', 'events.merchant_id')
        .onRef('endpoint.mode', '=', 'events.mode')
        .onRef('endpoint.created_at', '<=', 'events.created_at'),
    )
    .select(['events.id as event_id', 'endpoint.id as endpoint_id', 'events.created_at'])
    .where('events.created_at', '<', before)
    .where('events.created_at', '>=', since)
    .where('endpoint.status', '=', 'enabled')
    .where('endpoint.deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('endpoint.events', 'is', null),
        eb(sql<number>`json_contains(endpoint.events, json_quote(events.type))`, '=', 1),
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_attempts as attempt')
            .select('attempt.id')
            .whereRef('attempt.event_id', '=', 'events.id')
            .whereRef('attempt.endpoint_id', '=', 'endpoint.id'),
        ),
      ),
    )
    .orderBy('events.created_at')
    .limit(limit)
    .execute();
}

/** Settlements whose payout has had no answer recorded since before `before`, oldest first. */
export function unansweredPayoutsBefore(db: Db, before: Date, limit: number) {
  return db
    .selectFrom('settlements')
    .selectAll()
    .where('status', '=', 'pending')
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

export type StuckBounds = Pick<
  Config,
  | 'STUCK_AFTER_SECONDS'
  | 'PAYMENT_TTL_SECONDS'
  | 'BANK_PENDING_LIMIT_SECONDS'
  | 'VERIFY_WINDOW_SECONDS'
  | 'REVIEW_REMINDER_HOURS'
>;

/** Each waiting state's bound in seconds: its own window, plus STUCK_AFTER_SECONDS for the work after it. */
export function waitingBoundsSeconds(config: StuckBounds): Record<string, number> {
  const margin = config.STUCK_AFTER_SECONDS;
  return {
    'payment created': config.PAYMENT_TTL_SECONDS + margin,
    // A payment is pending after the page's lifetime at most, then confirmed for BANK_PENDING_LIMIT_SECONDS.
    'payment pending': config.BANK_PENDING_LIMIT_SECONDS + margin,
    'payment paid': config.VERIFY_WINDOW_SECONDS + margin,
    // A payment link's payment is verified by its workflow, which asks the bank to settle it for this long at
    // most: one still paid past it was given up on, and its money waits at the bank for the deadline's reversal.
    'payment paid by link': Math.ceil(linkAutoVerifyBoundMs(config.VERIFY_WINDOW_SECONDS * 1000) / 1000) + margin,
    'refund pending': margin,
    'settlement pending': margin,
    // A refused payout waits for the operator: raised as soon as the sweep's margin has passed.
    'settlement failed': margin,
    'webhook_event recorded': margin,
    'onboarding gateway_requested': margin,
    'onboarding under_review': config.REVIEW_REMINDER_HOURS * 3600 + margin,
  };
}

interface AgedRow {
  id: string;
  since: Date;
}

/**
 * Every record past the bound of its waiting state, oldest first within each, at most `limit` of each
 * state: what `cli stuck` lists and the metric counts. Deliveries in retry are the webhook backlog's
 * (dargah_webhook_oldest_undelivered_seconds), not listed here.
 */
export async function stuckRecords(
  db: Db,
  config: StuckBounds,
  { now = new Date(), limit = 1000 } = {},
): Promise<StuckRecord[]> {
  const bounds = waitingBoundsSeconds(config);
  const before = (key: string) => new Date(now.getTime() - bounds[key]! * 1000);
  const byState: Record<string, () => Promise<AgedRow[]>> = {
    'payment created': () => paymentsIn(db, 'created', before('payment created'), limit),
    'payment pending': () => paymentsIn(db, 'pending', before('payment pending'), limit),
    'payment paid': () => paidPayments(db, before('payment paid'), before('payment paid by link'), limit),
    'refund pending': async () =>
      (await pendingRefundsBefore(db, before('refund pending'), limit)).map((r) => ({ id: r.id, since: r.created_at })),
    'settlement pending': async () =>
      (await unansweredPayoutsBefore(db, before('settlement pending'), limit)).map((r) => ({
        id: r.id,
        since: r.updated_at,
      })),
    'settlement failed': () =>
      db
        .selectFrom('settlements')
        .select(['id', sql<Date>`coalesce(failed_at, updated_at)`.as('since')])
        .where('status', '=', 'failed')
        .where(sql<Date>`coalesce(failed_at, updated_at)`, '<', before('settlement failed'))
        .orderBy('updated_at')
        .limit(limit)
        .execute(),
    'webhook_event recorded': async () => {
      const rows = await eventsWithoutDeliveryBefore(db, {
        before: before('webhook_event recorded'),
        since: new Date(now.getTime() - EVENT_LOOKBACK_MS),
        limit,
      });
      const oldest = new Map<string, Date>();
      for (const r of rows) if (!oldest.has(r.event_id)) oldest.set(r.event_id, r.created_at);
      return [...oldest].map(([id, since]) => ({ id, since }));
    },
    'onboarding gateway_requested': () =>
      merchantsIn(db, 'gateway_requested', before('onboarding gateway_requested'), limit),
    'onboarding under_review': () => merchantsIn(db, 'under_review', before('onboarding under_review'), limit),
  };
  const found: StuckRecord[] = [];
  for (const waiting of WAITING_STATES) {
    const read = byState[`${waiting.record} ${waiting.state}`];
    if (read === undefined) continue;
    for (const row of await read()) {
      found.push({
        record: waiting.record,
        id: row.id,
        state: waiting.state,
        age_seconds: Math.max(0, Math.round((now.getTime() - new Date(row.since).getTime()) / 1000)),
        past: waiting.past,
        reason: waiting.reason,
      });
    }
  }
  return found;
}

function paymentsIn(db: Db, status: 'created' | 'pending' | 'paid', before: Date, limit: number): Promise<AgedRow[]> {
  return db
    .selectFrom('payments')
    .select(['id', 'updated_at as since'])
    .where('status', '=', status)
    .where('updated_at', '<', before)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

/**
 * Paid payments past their bound, oldest first: every one paid before `before`, and a payment link's payment
 * (auto-verified by its workflow, docs/PAYMENTS.md#payment-links) already when paid before `linkBefore`.
 */
async function paidPayments(db: Db, before: Date, linkBefore: Date, limit: number): Promise<AgedRow[]> {
  const linked = await db
    .selectFrom('payments')
    .select(['id', 'updated_at as since'])
    .where('status', '=', 'paid')
    .where('payment_link_id', 'is not', null)
    .where('updated_at', '<', linkBefore)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
  const rows = new Map<string, AgedRow>(
    [...(await paymentsIn(db, 'paid', before, limit)), ...linked].map((r) => [r.id, r]),
  );
  return [...rows.values()].sort((a, b) => new Date(a.since).getTime() - new Date(b.since).getTime()).slice(0, limit);
}

/** How many records of each waiting state are past their bound, and the oldest one's age: the metric's figures. */
export async function stuckCountsByState(db: Db, config: StuckBounds, now = new Date()) {
  const found = await stuckRecords(db, config, { now });
  return WAITING_STATES.filter((w) => w.past !== 'none' && w.record !== 'webhook_delivery').map((w) => {
    const ofState = found.filter((r) => r.record === w.record && r.state === w.state);
    return {
      record: w.record,
      state: w.state,
      count: ofState.length,
      oldest_seconds: Math.max(0, ...ofState.map((r) => r.age_seconds)),
    };
  });
}

function merchantsIn(
  db: Db,
  status: 'gateway_requested' | 'under_review',
  before: Date,
  limit: number,
): Promise<AgedRow[]> {
  return db
    .selectFrom('merchants')
    .select(['id', sql<Date>`coalesce(onboarding_updated_at, created_at)`.as('since')])
    .where('onboarding_status', '=', status)
    .where(sql<Date>`coalesce(onboarding_updated_at, created_at)`, '<', before)
    .limit(limit)
    .execute();
}
