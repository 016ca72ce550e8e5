/**
 * The mandates' rows and their debits' limits (docs/SUBSCRIPTIONS.md#limits). A debit is taken by
 * `reserveMandateDebit` in one transaction of conditional statements, never a read then a write:
 *
 *  1. the mandate's row, touched by an UPDATE that matches only an active, unexpired mandate whose
 *     max_amount covers the amount: no match, no debit. It also locks the row first, so one
 *     mandate's debits are taken one after another (and never deadlock on the rows below);
 *  2. the debit's row, unique per mandate and idempotency key: a second request with the key finds
 *     the first debit and changes nothing;
 *  3. the day's and the month's usage rows, each raised by one UPDATE that a CHECK (used <= max)
 *     refuses past the limit: the database, not a count read before, keeps the limit.
 *
 * Any refusal rolls the whole transaction back: nothing is written.
 */
import { sql } from 'kysely';
import type { Db, NewPaymentRow } from './database.ts';
import { isCheckViolation, isDeadlock, isDuplicateKey } from './errors.ts';
import type { MandateDebitRow, MandateRow } from './schema.ts';
import { scopedTo } from './tenant.ts';
import type { Tenant } from '../domain/merchant.ts';
import { tehranPeriods, type DebitRefusal, type MandateStatus } from '../domain/mandate.ts';
import type { Mandate } from '../domain/mandate-schemas.ts';
import type { EventType } from '../domain/events.ts';
import { recordEvent, type StoredEvent } from './events.ts';
import { keyedPage, type PageQuery } from './pagination.ts';

export type NewMandate = Omit<
  MandateRow,
  | 'version'
  | 'activated_at'
  | 'ended_at'
  | 'signature_sealed'
  | 'provider_authority'
  | 'failure_code'
  | 'debits_admitted'
  | 'bank_code'
  | 'bank_name'
>;

export async function insertMandate(db: Db, mandate: NewMandate): Promise<void> {
  await db.insertInto('mandates').values(mandate).execute();
}

export function tenantMandate(db: Db, tenant: Tenant, id: string): Promise<MandateRow | undefined> {
  return db.selectFrom('mandates').selectAll().where(scopedTo(tenant)).where('id', '=', id).executeTakeFirst();
}

/** Sets a mandate's status (and its dates) where it is still `from`: the workflow's one way to move it. */
export async function moveMandate(
  db: Db,
  id: string,
  from: string,
  to: { status: string; at: Date; failure_code?: string },
): Promise<boolean> {
  const result = await db
    .updateTable('mandates')
    .set({
      status: to.status,
      version: sql<number>`version + 1`,
      ...(to.status === 'active' ? { activated_at: to.at } : { ended_at: to.at }),
      ...(to.failure_code === undefined ? {} : { failure_code: to.failure_code }),
    })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface DebitReservation {
  mandateId: string;
  tenant: Tenant;
  idempotencyKey: string;
  amount: number;
  merchantReference: string;
  /** The id of the debit's payment if this request makes the debit. */
  debitId: string;
  paymentId: string;
  at: Date;
  /**
   * The debit's payment row (docs/SUBSCRIPTIONS.md#debits-are-payments), inserted in the same
   * transaction: a debit is admitted exactly when its payment exists. Absent: the debit alone.
   */
  payment?: NewPaymentRow;
}

export type ReservedDebit =
  | { kind: 'reserved'; debit: MandateDebitRow }
  | { kind: 'replayed'; debit: MandateDebitRow }
  | { kind: 'refused'; refusal: DebitRefusal }
  | { kind: 'not_found' };

/** Takes a debit within the mandate's limits, or refuses it writing nothing (the module's header). */
export async function reserveMandateDebit(db: Db, r: DebitReservation): Promise<ReservedDebit> {
  // Two first debits of one day insert the same new usage rows at once; InnoDB may end one of them as a
  // deadlock, which is safe to run again (nothing of it was kept).
  for (let attempt = 1; ; attempt++) {
    try {
      return await reserveOnce(db, r);
    } catch (error) {
      if (!isDeadlock(error) || attempt >= 5) throw error;
    }
  }
}

async function reserveOnce(db: Db, r: DebitReservation): Promise<ReservedDebit> {
  const { day, month } = tehranPeriods(r.at);
  const existing = () =>
    db
      .selectFrom('mandate_debits')
      .selectAll()
      .where('mandate_id', '=', r.mandateId)
      .where('idempotency_key', '=', r.idempotencyKey)
      .where('merchant_id', '=', r.tenant.merchant.id)
      .where('mode', '=', r.tenant.mode)
      .executeTakeFirst();
  try {
    return await db.transaction().execute(async (trx): Promise<ReservedDebit> => {
      const mandate = await trx
        .selectFrom('mandates')
        .select(['id', 'max_daily_count', 'max_monthly_count'])
        .where(scopedTo(r.tenant))
        .where('id', '=', r.mandateId)
        .executeTakeFirst();
      if (mandate === undefined) return { kind: 'not_found' };
      const debit = {
        id: r.debitId,
        mandate_id: r.mandateId,
        merchant_id: r.tenant.merchant.id,
        mode: r.tenant.mode,
        idempotency_key: r.idempotencyKey,
        amount: r.amount,
        merchant_reference: r.merchantReference,
        payment_id: r.paymentId,
        day,
        month,
        status: 'reserved',
        created_at: r.at,
        provider_authority: null,
        provider_reference: null,
        taken_at: null,
      };
      // One statement decides: an active, unexpired mandate whose single-debit limit covers the amount.
      const admitted = await trx
        .updateTable('mandates')
        .set({ debits_admitted: sql<number>`debits_admitted + 1` })
        .where('id', '=', r.mandateId)
        .where('status', '=', 'active')
        .where('expires_at', '>', r.at)
        .where('max_amount', '>=', r.amount)
        .executeTakeFirst();
      if (Number(admitted.numUpdatedRows) === 0) {
        // Refused: the row is read only to say why.
        const why = await trx
          .selectFrom('mandates')
          .select(['status', 'expires_at'])
          .where('id', '=', r.mandateId)
          .executeTakeFirstOrThrow();
        throw new Refused(
          why.status !== 'active' || why.expires_at <= r.at
            ? {
                code: 'mandate_not_active',
                message: `the mandate is ${why.status === 'active' ? 'expired' : why.status}`,
              }
            : {
                code: 'mandate_limit_exceeded',
                limit: 'amount',
                message: 'the amount is more than the mandate allows for one debit',
              },
        );
      }
      // After the mandate's row is locked by its admission, so one mandate's debits queue on that lock.
      await trx.insertInto('mandate_debits').values(debit).execute();
      for (const [period, max, limit] of [
        [`d:${day}`, mandate.max_daily_count, 'daily_count'],
        [`m:${month}`, mandate.max_monthly_count, 'monthly_count'],
      ] as const) {
        await trx
          .insertInto('mandate_usage')
          .values({ mandate_id: r.mandateId, period, used: 0, max })
          .onDuplicateKeyUpdate({ max })
          .execute();
        try {
          await trx
            .updateTable('mandate_usage')
            .set({ used: sql<number>`used + 1` })
            .where('mandate_id', '=', r.mandateId)
            .where('period', '=', period)
            .execute();
        } catch (error) {
          if (!isCheckViolation(error)) throw error;
          throw new Refused({
            code: 'mandate_limit_exceeded',
            limit,
            message: `the mandate's ${limit === 'daily_count' ? 'daily' : 'monthly'} count of debits is used up`,
          });
        }
      }
      if (r.payment !== undefined) await trx.insertInto('payments').values(r.payment).execute();
      return { kind: 'reserved', debit: { ...debit } };
    });
  } catch (error) {
    if (error instanceof Refused) {
      // A key whose debit was made before stays that debit, even once the mandate has ended since.
      const first = await existing();
      return first === undefined ? { kind: 'refused', refusal: error.refusal } : { kind: 'replayed', debit: first };
    }
    if (isDuplicateKey(error)) {
      const first = await existing();
      if (first !== undefined) return { kind: 'replayed', debit: first };
    }
    throw error;
  }
}

/**
 * Gives a debit's counts back when the provider refused it (no money moved, so the bank counted
 * nothing either): its usage rows lowered by one, the debit marked failed; once only, by the
 * debit's own status.
 */
export async function releaseMandateDebit(db: Db, debitId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const marked = await trx
      .updateTable('mandate_debits')
      .set({ status: 'failed' })
      .where('id', '=', debitId)
      .where('status', '=', 'reserved')
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) return false;
    const debit = await trx
      .selectFrom('mandate_debits')
      .select(['mandate_id', 'day', 'month'])
      .where('id', '=', debitId)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('mandate_usage')
      .set({ used: sql<number>`used - 1` })
      .where('mandate_id', '=', debit.mandate_id)
      .where('period', 'in', [`d:${debit.day}`, `m:${debit.month}`])
      .execute();
    return true;
  });
}

class Refused extends Error {
  readonly refusal: DebitRefusal;
  constructor(refusal: DebitRefusal) {
    super(refusal.message);
    this.refusal = refusal;
  }
}

/** The API's mandate from its row: never the signature nor the provider's authority, and the mobile masked. */
export function mandateFromRow(row: MandateRow): Mandate {
  return {
    id: row.id,
    object: 'mandate',
    mode: row.mode,
    provider: row.provider,
    status: row.status as MandateStatus,
    mobile: `${row.mobile.slice(0, 4)}***${row.mobile.slice(-4)}`,
    max_amount: row.max_amount,
    max_daily_count: row.max_daily_count,
    max_monthly_count: row.max_monthly_count,
    expires_at: row.expires_at.toISOString(),
    return_url: row.return_url,
    reference: row.merchant_reference,
    failure_code: row.failure_code,
    bank: row.bank_code === null ? null : { code: row.bank_code, name: row.bank_name ?? row.bank_code },
    created_at: row.created_at.toISOString(),
    activated_at: row.activated_at?.toISOString() ?? null,
    ended_at: row.ended_at?.toISOString() ?? null,
  };
}

export function mandateRowById(db: Db, id: string): Promise<MandateRow | undefined> {
  return db.selectFrom('mandates').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Records the bank the customer chose on the bank page, only while the mandate is pending (the last
 * choice before signing stands; a signed mandate's bank never changes). Answers whether it was recorded.
 */
export async function recordMandateBank(db: Db, id: string, bank: { code: string; name: string }): Promise<boolean> {
  const result = await db
    .updateTable('mandates')
    .set({ bank_code: bank.code, bank_name: bank.name })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** What a mandate's debits used of its counts in the given Tehran day and month (0 where none was taken). */
export async function mandateUsage(
  db: Db,
  mandateId: string,
  at: Date,
): Promise<{ day: string; month: string; daily: number; monthly: number }> {
  const { day, month } = tehranPeriods(at);
  const rows = await db
    .selectFrom('mandate_usage')
    .select(['period', 'used'])
    .where('mandate_id', '=', mandateId)
    .where('period', 'in', [`d:${day}`, `m:${month}`])
    .execute();
  const used = (period: string) => Number(rows.find((r) => r.period === period)?.used ?? 0);
  return { day, month, daily: used(`d:${day}`), monthly: used(`m:${month}`) };
}

export function mandatesPage(db: Db, tenant: Tenant, page: PageQuery) {
  return keyedPage(db.selectFrom('mandates').selectAll().where(scopedTo(tenant)), page, mandateFromRow);
}

/**
 * Keeps the provider's first authority of a mandate or a debit (`table`) and answers the one kept:
 * a retried request finds it and asks the provider for no second.
 */
export async function keepFirstProviderAuthority(
  db: Db,
  table: 'mandates' | 'mandate_debits',
  id: string,
  authority: string,
): Promise<string> {
  await db
    .updateTable(table)
    .set({ provider_authority: authority })
    .where('id', '=', id)
    .where('provider_authority', 'is', null)
    .execute();
  const row = await db.selectFrom(table).select('provider_authority').where('id', '=', id).executeTakeFirstOrThrow();
  return row.provider_authority!;
}

/** Keeps the provider's first authority of a mandate: a retried request finds it and asks no second. */
export const recordMandateAuthority = (db: Db, id: string, authority: string): Promise<string> =>
  keepFirstProviderAuthority(db, 'mandates', id, authority);

/**
 * Activates a pending mandate with its sealed signature and records `mandate.active` in the same
 * transaction (an event exists exactly when its change does). False when it was no longer pending.
 */
export async function activateMandate(db: Db, id: string, sealed: string, at: Date): Promise<StoredEvent | undefined> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('mandates')
      .set({ status: 'active', signature_sealed: sealed, activated_at: at, version: sql<number>`version + 1` })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    return mandateEvent(trx, id, 'active', at);
  });
}

/** Moves a mandate from `from` to an end state with its event, in one transaction; undefined when it was not in `from`. */
export async function endMandate(
  db: Db,
  id: string,
  from: MandateStatus,
  to: 'declined' | 'canceled' | 'expired',
  at: Date,
  failureCode?: string,
): Promise<StoredEvent | undefined> {
  return db.transaction().execute(async (trx) => {
    const moved = await moveMandate(trx, id, from, {
      status: to,
      at,
      ...(failureCode === undefined ? {} : { failure_code: failureCode }),
    });
    if (!moved) return undefined;
    return mandateEvent(trx, id, to, at);
  });
}

async function mandateEvent(trx: Db, id: string, status: MandateStatus, at: Date): Promise<StoredEvent> {
  const row = await trx.selectFrom('mandates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return recordEvent(trx, {
    // One event per mandate and state: a retried activity records it once.
    sourceKey: `mandate:${id}:${status}`,
    owner: { merchant: { id: row.merchant_id }, mode: row.mode },
    type: `mandate.${status}` as EventType,
    objectId: id,
    data: { mandate: mandateFromRow(row) },
    at,
  });
}
