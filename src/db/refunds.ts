import { sql } from 'kysely';
import type { KeyMode, Tenant } from '../domain/merchant.ts';
import { refundStatusesBefore } from '../domain/refund.ts';
import type { ListAllRefundsQuery, ListRefundsQuery, Refund } from '../domain/refund-schemas.ts';
import type { Db, RefundRow } from './database.ts';
import { instant } from './filters.ts';
import { keyedPage } from './pagination.ts';
import { scopedTo } from './tenant.ts';

/** The API shape of a stored refund. */
export function refundFromRow(row: RefundRow): Refund {
  return {
    id: row.id,
    payment_id: row.payment_id,
    amount: Number(row.amount),
    status: row.status,
    reason: row.reason,
    created_at: row.created_at.toISOString(),
    succeeded_at: row.succeeded_at === null ? null : row.succeeded_at.toISOString(),
    failure: row.failure_code === null ? null : { code: row.failure_code, message: row.failure_message ?? '' },
    method: row.method,
    destination_iban: row.destination_iban,
    owner_name: row.owner_name,
    held_for: row.held_for,
  };
}

/** A refund as a workflow hands it over: one recorded by a run older than refund methods carries neither field. */
export type WrittenRefund = Omit<Refund, 'method' | 'destination_iban'> &
  Partial<Pick<Refund, 'method' | 'destination_iban'>>;

/**
 * Writes a refund's status: the first write inserts it in its first status; a later one moves it only
 * forward (src/domain/refund.ts refundStatusesBefore), so a retried or replayed write, or a decision
 * that lost a race, never moves it back.
 */
export async function writeRefund(db: Db, refund: WrittenRefund, tenant: Tenant, at: Date): Promise<void> {
  await db
    .insertInto('refunds')
    .ignore()
    .values({
      id: refund.id,
      payment_id: refund.payment_id,
      merchant_id: tenant.merchant.id,
      mode: tenant.mode,
      amount: refund.amount,
      // Its first status: a refund whose first write is final was recorded `pending` before (older runs).
      status: refund.status === 'succeeded' || refund.status === 'failed' ? 'pending' : refund.status,
      reason: refund.reason,
      // A refund recorded by a run older than refund methods was the PSP's refund, with no IBAN.
      method: refund.method ?? 'psp_refund',
      destination_iban: refund.destination_iban ?? null,
      held_for: refund.held_for ?? null,
      owner_name: refund.owner_name ?? null,
      created_at: new Date(refund.created_at),
      updated_at: at,
    })
    .execute();
  // A first status (`awaiting_approval`) has nothing before it: the insert was the write.
  const before = refundStatusesBefore(refund.status);
  if (before.length === 0) return;
  await db
    .updateTable('refunds')
    .set({
      status: refund.status,
      // The paying card's account, named when the customer claimed it.
      ...(refund.destination_iban === undefined || refund.destination_iban === null
        ? {}
        : { destination_iban: refund.destination_iban }),
      ...(refund.owner_name === undefined ? {} : { owner_name: refund.owner_name }),
      ...(refund.held_for === undefined ? {} : { held_for: refund.held_for }),
      succeeded_at: refund.succeeded_at === null ? null : new Date(refund.succeeded_at),
      failure_code: refund.failure?.code ?? null,
      failure_message: refund.failure?.message ?? null,
      // The method that paid it, when not the one chosen (a reversal refused, paid to the IBAN instead).
      ...(refund.method === undefined ? {} : { method: refund.method }),
      updated_at: at,
    })
    .where('id', '=', refund.id)
    .where('status', 'in', before)
    .execute();
}

/** The tenant's refund with this id, if it has one. */
export async function findRefund(db: Db, id: string, tenant: Tenant): Promise<RefundRow | undefined> {
  return db.selectFrom('refunds').selectAll().where('id', '=', id).where(scopedTo(tenant)).executeTakeFirst();
}

/** The refund `refundId` of payment `paymentId`, if it was taken (a workflow's read: the ids are trusted). */
export function refundOfPayment(db: Db, refundId: string, paymentId: string): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('id', '=', refundId)
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
}

/** Locks the refund's row (FOR UPDATE) and reads its status; undefined: not written yet. */
export function lockRefundStatus(db: Db, refundId: string) {
  return db.selectFrom('refunds').select('status').where('id', '=', refundId).forUpdate().executeTakeFirst();
}

/**
 * A page of the tenant's refunds, newest first, with the filters of the query combined (indexes:
 * refunds_by_merchant, refunds_by_status, refunds_by_payment).
 */
export function refundsPage(db: Db, tenant: Tenant, query: ListAllRefundsQuery) {
  let q = db.selectFrom('refunds').selectAll().where(scopedTo(tenant));
  if (query.status !== undefined) q = q.where('status', '=', query.status);
  if (query.payment_id !== undefined) q = q.where('payment_id', '=', query.payment_id);
  if (query.created_gte !== undefined) q = q.where('created_at', '>=', instant(query.created_gte, 'created_gte'));
  if (query.created_lt !== undefined) q = q.where('created_at', '<', instant(query.created_lt, 'created_lt'));
  return keyedPage(q, query, refundFromRow);
}

/** A page of the tenant's refunds of one payment, newest first. */
export function paymentRefundsPage(db: Db, tenant: Tenant, paymentId: string, query: ListRefundsQuery) {
  return keyedPage(
    db.selectFrom('refunds').selectAll().where('payment_id', '=', paymentId).where(scopedTo(tenant)),
    query,
    refundFromRow,
  );
}

/**
 * Counts one wrong card typed on a refund's claim page, only while the refund waits for its payer and
 * fewer than `max` were counted: the affected row decides, so concurrent guesses never pass the bound.
 * Answers whether the attempt was counted (false: the claim is locked, or no longer waits).
 */
export async function countClaimAttempt(db: Db, refundId: string, max: number): Promise<boolean> {
  const result = await db
    .updateTable('refunds')
    .set({ claim_attempts: sql`claim_attempts + 1` })
    .where('id', '=', refundId)
    .where('status', '=', 'awaiting_payer')
    .where('claim_attempts', '<', max)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives back the attempt counted for a card that turned out to be the paying one. */
export async function returnClaimAttempt(db: Db, refundId: string): Promise<void> {
  await db
    .updateTable('refunds')
    .set({ claim_attempts: sql`claim_attempts - 1` })
    .where('id', '=', refundId)
    .where('claim_attempts', '>', 0)
    .execute();
}

/** A refund by id alone, with its merchant's name (the claim page and the operator's commands: the id is the capability checked by the caller). */
export function refundWithMerchant(db: Db, refundId: string) {
  return db
    .selectFrom('refunds as r')
    .innerJoin('merchants as m', 'm.id', 'r.merchant_id')
    .selectAll('r')
    .select('m.name as merchant_name')
    .where('r.id', '=', refundId)
    .executeTakeFirst();
}

/** Every refund waiting for the operator's approval, oldest first (index refunds_by_status). */
export function refundsAwaitingApproval(db: Db, limit: number) {
  return db
    .selectFrom('refunds as r')
    .innerJoin('merchants as m', 'm.id', 'r.merchant_id')
    .select([
      'r.id',
      'r.payment_id',
      'r.merchant_id',
      'm.name as merchant_name',
      'r.mode',
      'r.amount',
      'r.method',
      'r.held_for',
      'r.destination_iban',
      'r.reason',
      'r.created_at',
    ])
    .where('r.status', '=', 'awaiting_approval')
    .orderBy('r.created_at')
    .limit(limit)
    .execute();
}

/**
 * Locks the merchant's row (FOR UPDATE) and answers its `balance` account in `mode`: the check of a refund
 * against the balance runs in the transaction that records it, so two refunds of one merchant at once
 * are decided one after the other, each on the balance the other left.
 */
export async function lockedMerchantBalance(db: Db, merchantId: string, mode: KeyMode): Promise<number> {
  await db.selectFrom('merchants').select('id').where('id', '=', merchantId).forUpdate().executeTakeFirstOrThrow();
  const row = await db
    .selectFrom('ledger_entries')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
    .where('merchant_id', '=', merchantId)
    .where('mode', '=', mode)
    .where('account', '=', 'balance')
    // A locking read: the latest committed entries, not the snapshot this transaction's first plain read took
    // (under REPEATABLE READ that snapshot predates the wait for the merchant's lock, and would miss the
    // refund that held it).
    .forUpdate()
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
