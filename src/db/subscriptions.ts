/**
 * Plans and subscriptions (docs/SUBSCRIPTIONS.md#subscriptions). A subscription's row is written by
 * its workflow only, each write carrying the version it makes and landing only over a lower one (as
 * a payment's, writePaymentVersion), with its event in the same transaction: a retried or late
 * activity never moves it backwards and records its event once.
 */
import type { Insertable } from 'kysely';
import type { EventType } from '../domain/events.ts';
import type { Tenant } from '../domain/merchant.ts';
import type { PlanInterval, SubscriptionStatus } from '../domain/subscription.ts';
import type { Plan, Subscription } from '../domain/subscription-schemas.ts';
import type { Db } from './database.ts';
import { recordEvent, type StoredEvent } from './events.ts';
import { keyedPage, type PageQuery } from './pagination.ts';
import type { PlanRow, PlansTable, SubscriptionRow, SubscriptionsTable } from './schema.ts';
import { scopedTo } from './tenant.ts';

export function planFromRow(row: PlanRow): Plan {
  return {
    id: row.id,
    object: 'plan',
    mode: row.mode,
    name: row.name,
    amount: Number(row.amount),
    interval: row.interval as PlanInterval,
    interval_days: row.interval_days,
    created_at: row.created_at.toISOString(),
  };
}

export async function insertPlan(db: Db, plan: Insertable<PlansTable>): Promise<void> {
  await db.insertInto('plans').values(plan).execute();
}

export function tenantPlan(db: Db, tenant: Tenant, id: string): Promise<PlanRow | undefined> {
  return db.selectFrom('plans').selectAll().where(scopedTo(tenant)).where('id', '=', id).executeTakeFirst();
}

export function plansPage(db: Db, tenant: Tenant, page: PageQuery) {
  return keyedPage(db.selectFrom('plans').selectAll().where(scopedTo(tenant)), page, planFromRow);
}

/** A subscription's customer page, signed (src/direct-debit/customer-page.ts): given by the caller, which holds the key. */
export type SubscriptionUrl = (id: string) => string;

export function subscriptionFromRow(row: SubscriptionRow, customerUrl: SubscriptionUrl): Subscription {
  return {
    id: row.id,
    object: 'subscription',
    mode: row.mode,
    plan_id: row.plan_id,
    mandate_id: row.mandate_id,
    status: row.status as SubscriptionStatus,
    amount: Number(row.amount),
    current_period: row.current_period,
    current_period_start: row.current_period_start.toISOString(),
    current_period_end: row.current_period_end.toISOString(),
    cancel_at_period_end: Boolean(row.cancel_at_period_end),
    failed_attempts: row.failed_attempts,
    latest_payment_id: row.last_payment_id,
    cancel_reason: row.cancel_reason,
    created_at: row.created_at.toISOString(),
    canceled_at: row.canceled_at?.toISOString() ?? null,
    customer_url: customerUrl(row.id),
  };
}

export async function insertSubscription(db: Db, row: Insertable<SubscriptionsTable>): Promise<void> {
  await db.insertInto('subscriptions').values(row).execute();
}

export function subscriptionRowById(db: Db, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function tenantSubscription(db: Db, tenant: Tenant, id: string): Promise<SubscriptionRow | undefined> {
  return db.selectFrom('subscriptions').selectAll().where(scopedTo(tenant)).where('id', '=', id).executeTakeFirst();
}

export function subscriptionsPage(db: Db, tenant: Tenant, page: PageQuery, customerUrl: SubscriptionUrl) {
  return keyedPage(db.selectFrom('subscriptions').selectAll().where(scopedTo(tenant)), page, (row) =>
    subscriptionFromRow(row, customerUrl),
  );
}

/** The tenant's plans of these ids (a page of subscriptions names its plans). */
export async function tenantPlansByIds(db: Db, tenant: Tenant, ids: string[]): Promise<PlanRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('plans').selectAll().where(scopedTo(tenant)).where('id', 'in', ids).execute();
}

/** What the workflow records of its subscription: the fields it owns, at a version it counts. */
export interface SubscriptionChange {
  id: string;
  version: number;
  status: SubscriptionStatus;
  current_period: number;
  current_period_start: Date;
  current_period_end: Date;
  cancel_at_period_end: boolean;
  failed_attempts: number;
  last_payment_id: string | null;
  cancel_reason: string | null;
  canceled_at: Date | null;
}

/**
 * Writes the change where the stored version is lower, and its event (if it has one) in the same
 * transaction, keyed by subscription and version so a retry records one. Answers the event when this
 * call wrote the change, undefined when an earlier attempt had.
 */
export async function writeSubscriptionVersion(
  db: Db,
  change: SubscriptionChange,
  event: { type: EventType; payment_id?: string } | undefined,
  at: Date,
  customerUrl: SubscriptionUrl,
): Promise<StoredEvent | undefined> {
  return db.transaction().execute(async (trx) => {
    const { id, ...fields } = change;
    const result = await trx
      .updateTable('subscriptions')
      .set(fields)
      .where('id', '=', id)
      .where('version', '<', change.version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1 || event === undefined) return undefined;
    const row = await trx.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return recordEvent(trx, {
      sourceKey: subscriptionEventKey(id, change.version),
      owner: { merchant: { id: row.merchant_id }, mode: row.mode },
      type: event.type,
      objectId: id,
      data: {
        subscription: subscriptionFromRow(row, customerUrl),
        ...(event.payment_id ? { payment_id: event.payment_id } : {}),
      },
      at,
    });
  });
}

export const subscriptionEventKey = (id: string, version: number) => `subscription:${id}:v${version}`;

/** The ids of a mandate's subscriptions still charging (active or past_due): what its end must cancel. */
export async function chargingSubscriptionIds(db: Db, mandateId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('mandate_id', '=', mandateId)
    .where('status', 'in', ['active', 'past_due'])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Every subscription of a mandate, newest first (the operator's view of the mandate). */
export function subscriptionsOfMandate(db: Db, mandateId: string): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('mandate_id', '=', mandateId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * A subscription's charges: the debits its workflow admitted (their key is `subscription:<id>:…`,
 * chargeKey) with their payments' status, oldest first. The key is in the unique index
 * (mandate, key), so this reads that index under the subscription's mandate.
 */
export function subscriptionCharges(db: Db, subscription: Pick<SubscriptionRow, 'id' | 'mandate_id'>) {
  return db
    .selectFrom('mandate_debits')
    .innerJoin('payments', 'payments.id', 'mandate_debits.payment_id')
    .select([
      'mandate_debits.id as debit_id',
      'mandate_debits.idempotency_key',
      'mandate_debits.status as debit_status',
      'mandate_debits.amount',
      'mandate_debits.created_at',
      'payments.id as payment_id',
      'payments.status as payment_status',
    ])
    .where('mandate_debits.mandate_id', '=', subscription.mandate_id)
    .where('mandate_debits.idempotency_key', 'like', `subscription:${subscription.id}:%`)
    .orderBy('mandate_debits.created_at')
    .orderBy('mandate_debits.id')
    .execute();
}

/**
 * The event of a subscription's creation, written with its row; undefined (nothing written) when the
 * mandate is no longer active. The mandate's row is locked first: a mandate's end (endMandate updates
 * that row) then waits for this insert, and the subscriptions it cancels after include this one; or
 * the end came first and this insert is refused. Never a subscription left on an ended mandate.
 */
export async function insertSubscriptionWithEvent(
  db: Db,
  row: Insertable<SubscriptionsTable>,
  customerUrl: SubscriptionUrl,
): Promise<{ row: SubscriptionRow; event: StoredEvent } | undefined> {
  return db.transaction().execute(async (trx) => {
    const mandate = await trx
      .selectFrom('mandates')
      .select('id')
      .where('id', '=', row.mandate_id)
      .where('status', '=', 'active')
      .where('expires_at', '>', new Date())
      .forUpdate()
      .executeTakeFirst();
    if (mandate === undefined) return undefined;
    await insertSubscription(trx, row);
    const stored = await trx.selectFrom('subscriptions').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    const event = await recordEvent(trx, {
      sourceKey: subscriptionEventKey(row.id, 1),
      owner: { merchant: { id: row.merchant_id }, mode: row.mode },
      type: 'subscription.created',
      objectId: row.id,
      data: { subscription: subscriptionFromRow(stored, customerUrl) },
      at: stored.created_at,
    });
    return { row: stored, event };
  });
}
