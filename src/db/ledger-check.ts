/**
 * The reads of `ledger check` (src/ledger/check.ts), each a page or a page's sums: the ledger's entries and
 * postings, and the records (payments, refunds, settlements, shares) they must agree with. Pages are keyset
 * pages on primary keys, so a check's memory does not grow with the ledger.
 */
import { sql } from 'kysely';
import { VERIFIED_STATUSES } from '../domain/payment.ts';
import { shareOwed } from '../domain/splits.ts';
import type { Db } from './database.ts';
import { CHARGED_AMOUNT_SQL } from './payments.ts';

/** The sum of every ledger entry (0 when the ledger balances). */
export function entriesTotal(db: Db) {
  return db
    .selectFrom('ledger_entries')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
    .executeTakeFirstOrThrow();
}

/**
 * The next `limit` postings after id `after`, each with its entries' sum and how many of its entries are on
 * another merchant or mode: a page is an id range, found by keyset.
 */
export async function postingPage(db: Db, after: number, limit: number) {
  const last = await db
    .selectFrom('ledger_postings')
    .select('id')
    .where('id', '>', after)
    .orderBy('id')
    .limit(1)
    .offset(limit - 1)
    .executeTakeFirst();
  let query = db
    .selectFrom('ledger_postings as p')
    .leftJoin('ledger_entries as e', 'e.posting_id', 'p.id')
    .select([
      'p.id',
      'p.cause',
      sql<string>`coalesce(sum(e.amount), 0)`.as('total'),
      sql<string>`coalesce(sum(e.merchant_id <> p.merchant_id or e.mode <> p.mode), 0)`.as('foreign_entries'),
    ])
    .where('p.id', '>', after);
  if (last !== undefined) query = query.where('p.id', '<=', last.id);
  return query.groupBy(['p.id', 'p.cause']).orderBy('p.id').execute();
}

/** The next `limit` payments after id `after` (of the merchants `only`, undefined: all), with what their postings depend on. */
export function paymentPage(db: Db, after: string, only: string[] | undefined, limit: number) {
  let pageQuery = db
    .selectFrom('payments')
    .select([
      'id',
      'merchant_id',
      'mode',
      'status',
      'amount',
      'customer_fee',
      'charged_amount',
      'fee',
      'refunded_amount',
    ])
    .where('id', '>', after);
  if (only !== undefined) pageQuery = pageQuery.where('merchant_id', 'in', only.length === 0 ? [''] : only);
  return pageQuery.orderBy('id').limit(limit).execute();
}

/** The sums of the payments' own postings' entries, by payment and account. */
export function paymentEntrySums(db: Db, paymentIds: string[]) {
  return db
    .selectFrom('ledger_entries as e')
    .innerJoin('ledger_postings as p', 'p.id', 'e.posting_id')
    .select(['p.payment_id', 'e.account', sql<string>`sum(e.amount)`.as('total')])
    .where('p.payment_id', 'in', paymentIds)
    .groupBy(['p.payment_id', 'e.account'])
    .execute();
}

/** The sums of the payments' refunds, by payment and status. */
export function paymentRefundSums(db: Db, paymentIds: string[]) {
  return db
    .selectFrom('refunds')
    .select(['payment_id', 'status', sql<string>`sum(amount)`.as('total')])
    .where('payment_id', 'in', paymentIds)
    .groupBy(['payment_id', 'status'])
    .execute();
}

/** The sums of the payments' beneficiaries' shares and of what refunds took of them, by payment. */
export function paymentShareSums(db: Db, paymentIds: string[]) {
  return db
    .selectFrom('payment_splits')
    .select(['payment_id', sql<string>`sum(amount)`.as('total'), sql<string>`sum(refunded)`.as('refunded')])
    .where('payment_id', 'in', paymentIds)
    .groupBy('payment_id')
    .execute();
}

/** The next `limit` merchants' ids after `after` (among `only`, undefined: all). */
export function merchantPage(db: Db, after: string, only: string[] | undefined, limit: number) {
  let merchantQuery = db.selectFrom('merchants').select('id').where('id', '>', after);
  if (only !== undefined) merchantQuery = merchantQuery.where('id', 'in', only.length === 0 ? [''] : only);
  return merchantQuery.orderBy('id').limit(limit).execute();
}

/** The sums of the merchants' entries, by merchant, mode and account. */
export function merchantEntrySums(db: Db, merchantIds: string[]) {
  return db
    .selectFrom('ledger_entries')
    .select(['merchant_id', 'mode', 'account', sql<string>`sum(amount)`.as('total')])
    .where('merchant_id', 'in', merchantIds)
    .groupBy(['merchant_id', 'mode', 'account'])
    .execute();
}

/** The sums of the merchants' payments (charged, fees, refunded), by merchant, mode and status. */
export function merchantPaymentSums(db: Db, merchantIds: string[]) {
  return db
    .selectFrom('payments')
    .select([
      'merchant_id',
      'mode',
      'status',
      sql<string>`sum(${CHARGED_AMOUNT_SQL})`.as('charged'),
      sql<string>`sum(fee)`.as('fee'),
      sql<string>`sum(refunded_amount)`.as('refunded'),
    ])
    .where('merchant_id', 'in', merchantIds)
    .groupBy(['merchant_id', 'mode', 'status'])
    .execute();
}

/** The sums of the merchants' refunds not final yet (pending, and waiting for the payer or the operator), by merchant, mode and status. */
export function merchantPendingRefundSums(db: Db, merchantIds: string[]) {
  return db
    .selectFrom('refunds')
    .select(['merchant_id', 'mode', 'status', sql<string>`sum(amount)`.as('total')])
    .where('merchant_id', 'in', merchantIds)
    .where('status', 'in', ['pending', 'awaiting_payer', 'awaiting_approval'])
    .groupBy(['merchant_id', 'mode', 'status'])
    .execute();
}

/** The sums of the merchants' settlements' nets, by merchant, mode and status. */
export function merchantSettlementSums(db: Db, merchantIds: string[]) {
  return db
    .selectFrom('settlements')
    .select(['merchant_id', 'mode', 'status', sql<string>`sum(net)`.as('net')])
    .where('merchant_id', 'in', merchantIds)
    .groupBy(['merchant_id', 'mode', 'status'])
    .execute();
}

/** The beneficiaries' shares of the merchants' verified payments: all of them, and those no settlement has paid out yet; by merchant and mode. */
export function merchantShareSums(db: Db, merchantIds: string[]) {
  return db
    .selectFrom('payment_splits as s')
    .innerJoin('payments as p', 'p.id', 's.payment_id')
    .select([
      'p.merchant_id',
      'p.mode',
      sql<string>`sum(s.amount)`.as('total'),
      sql<string>`sum(s.refunded)`.as('refunded'),
      sql<string>`coalesce(sum(case when s.settled_in is null then s.amount else 0 end), 0)`.as('unsettled'),
      sql<string>`coalesce(sum(case when s.settled_in is null then s.refunded else 0 end), 0)`.as('unsettled_refunded'),
    ])
    .where('p.merchant_id', 'in', merchantIds)
    .where('p.status', 'in', VERIFIED_STATUSES)
    .groupBy(['p.merchant_id', 'p.mode'])
    .execute()
    .then((rows) =>
      rows.map(({ unsettled, unsettled_refunded, ...sums }) => ({
        ...sums,
        // What no settlement has paid out yet: what is owed of the unsettled shares (shareOwed).
        unpaid: shareOwed({ amount: Number(unsettled), refunded: Number(unsettled_refunded) }),
      })),
    );
}

/** The sums of the merchants' beneficiary transfers not paid yet, by merchant and mode. */
export function merchantUnpaidSharePayoutSums(db: Db, merchantIds: string[]) {
  return db
    .selectFrom('beneficiary_payouts')
    .select(['merchant_id', 'mode', sql<string>`sum(amount)`.as('total')])
    .where('merchant_id', 'in', merchantIds)
    .where('status', '<>', 'paid')
    .groupBy(['merchant_id', 'mode'])
    .execute();
}
