/**
 * Split settlement's records (docs/PAYMENTS.md#split-settlement): the
 * merchant's beneficiaries and their review, and each payment's shares.
 */
import { sql } from 'kysely';
import type { Beneficiary, PaymentSplit } from '../domain/split-schemas.ts';
import { allocateSplitRefund, merchantShareLeft, type BeneficiaryStatus } from '../domain/splits.ts';
import type { Db } from './database.ts';
import { isDuplicateKey } from './errors.ts';
import type { BeneficiariesTable } from './schema-splits.ts';
import { recordedChargedAmount } from '../domain/payment.ts';

type BeneficiaryRow = BeneficiariesTable;

export function beneficiaryFromRow(row: BeneficiaryRow): Beneficiary {
  return {
    id: row.id,
    iban: row.iban,
    name: row.name,
    status: row.status,
    reason: row.reason,
    created_at: row.created_at.toISOString(),
    reviewed_at: row.reviewed_at === null ? null : row.reviewed_at.toISOString(),
  };
}

/**
 * Registers an IBAN as the merchant's beneficiary, `pending` the operator's review. The same IBAN
 * again answers the beneficiary it already is (whatever its status): one row per merchant and IBAN.
 */
export async function insertBeneficiary(
  db: Db,
  row: Omit<BeneficiaryRow, 'status' | 'reason' | 'reviewed_at'>,
): Promise<{ row: BeneficiaryRow; created: boolean }> {
  const full: BeneficiaryRow = { ...row, status: 'pending', reason: null, reviewed_at: null };
  try {
    await db.insertInto('beneficiaries').values(full).execute();
    return { row: full, created: true };
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
  const existing = await db
    .selectFrom('beneficiaries')
    .selectAll()
    .where('merchant_id', '=', row.merchant_id)
    .where('iban', '=', row.iban)
    .executeTakeFirstOrThrow();
  return { row: existing, created: false };
}

export function merchantBeneficiaries(db: Db, merchantId: string): Promise<BeneficiaryRow[]> {
  return db
    .selectFrom('beneficiaries')
    .selectAll()
    .where('merchant_id', '=', merchantId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export function beneficiariesByStatus(
  db: Db,
  status: BeneficiaryStatus | undefined,
): Promise<(BeneficiaryRow & { merchant_name: string })[]> {
  let query = db
    .selectFrom('beneficiaries as b')
    .innerJoin('merchants as m', 'm.id', 'b.merchant_id')
    .selectAll('b')
    .select('m.name as merchant_name');
  if (status !== undefined) query = query.where('b.status', '=', status);
  return query.orderBy('b.created_at').orderBy('b.id').execute();
}

/** The beneficiary's review status alone; undefined: no such beneficiary. */
export function beneficiaryStatus(db: Db, id: string) {
  return db.selectFrom('beneficiaries').select('status').where('id', '=', id).executeTakeFirst();
}

/** The operator's review of a pending beneficiary; answers the row as it stands (a reviewed one is not changed again). */
export async function reviewBeneficiary(
  db: Db,
  id: string,
  decision: { status: 'approved' } | { status: 'rejected'; reason: string },
  at: Date,
): Promise<BeneficiaryRow | undefined> {
  await db
    .updateTable('beneficiaries')
    .set({
      status: decision.status,
      reason: decision.status === 'rejected' ? decision.reason.slice(0, 255) : null,
      reviewed_at: at,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
  return db.selectFrom('beneficiaries').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The operator withdraws an approved beneficiary: `revoked`, with the reason, from now on named by no
 * split (approvedBeneficiaryIds sees approved ones only). Answers the row as it stands (only an
 * approved one changes).
 */
export async function revokeApprovedBeneficiary(
  db: Db,
  id: string,
  reason: string,
  at: Date,
): Promise<BeneficiaryRow | undefined> {
  await db
    .updateTable('beneficiaries')
    .set({ status: 'revoked', reason: reason.slice(0, 255), reviewed_at: at })
    .where('id', '=', id)
    .where('status', '=', 'approved')
    .execute();
  return db.selectFrom('beneficiaries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The merchant's approved beneficiaries among these IBANs, by IBAN. */
export async function approvedBeneficiaryIds(
  db: Db,
  merchantId: string,
  ibans: string[],
): Promise<Map<string, string>> {
  if (ibans.length === 0) return new Map();
  const rows = await db
    .selectFrom('beneficiaries')
    .select(['id', 'iban'])
    .where('merchant_id', '=', merchantId)
    .where('status', '=', 'approved')
    .where('iban', 'in', ibans)
    .execute();
  return new Map(rows.map((r) => [r.iban, r.id]));
}

export interface NewSplit {
  id: string;
  beneficiary_id: string;
  amount: number;
  description: string;
}

/** A new payment's shares, in the request's order; in the transaction that inserts the payment. */
export async function insertSplits(trx: Db, paymentId: string, splits: NewSplit[]): Promise<void> {
  if (splits.length === 0) return;
  await trx
    .insertInto('payment_splits')
    .values(splits.map((s, position) => ({ ...s, payment_id: paymentId, position, refunded: 0, settled_in: null })))
    .execute();
}

/** The sum of a payment's shares: what its verify owes its beneficiaries. */
export async function splitAmountOf(db: Db, paymentId: string): Promise<number> {
  const row = await db
    .selectFrom('payment_splits')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
    .where('payment_id', '=', paymentId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** A payment's shares as its resource shows them; empty for a payment without splits. */
export async function paymentSplits(db: Db, paymentId: string): Promise<PaymentSplit[]> {
  return (await splitsOfPayments(db, [paymentId])).get(paymentId) ?? [];
}

/**
 * The shares of several payments (a list's page), by payment id, each in its create's order: one query for
 * the whole page, through the unique index payment_splits_position, which begins with payment_id. A payment
 * without splits has no entry.
 */
export async function splitsOfPayments(db: Db, paymentIds: readonly string[]): Promise<Map<string, PaymentSplit[]>> {
  const shares = new Map<string, PaymentSplit[]>();
  if (paymentIds.length === 0) return shares;
  const rows = await db
    .selectFrom('payment_splits as s')
    .innerJoin('beneficiaries as b', 'b.id', 's.beneficiary_id')
    .select(['s.payment_id', 's.beneficiary_id', 'b.iban', 's.amount', 's.description', 's.refunded', 's.settled_in'])
    .where('s.payment_id', 'in', [...paymentIds])
    .orderBy('s.payment_id')
    .orderBy('s.position')
    .execute();
  for (const r of rows) {
    const list = shares.get(r.payment_id) ?? [];
    list.push({
      beneficiary_id: r.beneficiary_id,
      iban: r.iban,
      amount: Number(r.amount),
      description: r.description,
      refunded: Number(r.refunded),
      settled: r.settled_in !== null,
    });
    shares.set(r.payment_id, list);
  }
  return shares;
}

/**
 * What a refund of a split payment takes from its beneficiaries' shares (docs/LEDGER.md#refunds-of-a-split-payment),
 * written once with the refund's `pending` posting: the merchant's share first, then the unsettled shares pro
 * rata (allocateSplitRefund). Answers the rials taken from the shares; 0 for a payment without shares. Called
 * in the refund's transaction, after its payment row is locked; a refund already allocated answers its allocation.
 */
export async function allocateRefundToShares(
  trx: Db,
  refund: { id: string; payment_id: string; amount: number },
): Promise<number> {
  const shares = await trx
    .selectFrom('payment_splits')
    .select(['id', 'amount', 'refunded', 'settled_in'])
    .where('payment_id', '=', refund.payment_id)
    .orderBy('position')
    .forUpdate()
    .execute();
  if (shares.length === 0) return 0;
  const done = await trx
    .selectFrom('refund_split_allocations')
    .select('amount')
    .where('refund_id', '=', refund.id)
    .execute();
  const posted = await trx
    .selectFrom('ledger_postings')
    .select('id')
    .where('cause', '=', `refund:${refund.id}:pending`)
    .executeTakeFirst();
  if (posted !== undefined) return done.reduce((sum, a) => sum + Number(a.amount), 0);
  const payment = await trx
    .selectFrom('payments')
    .select(['amount', 'customer_fee', 'charged_amount', 'fee'])
    .where('id', '=', refund.payment_id)
    .executeTakeFirstOrThrow();
  // Refunds before this one (asked for or paid; a refused one gave its rials back) and what they took from the shares.
  const earlier = await trx
    .selectFrom('refunds')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
    .where('payment_id', '=', refund.payment_id)
    .where('status', 'in', ['awaiting_payer', 'pending', 'succeeded'])
    .where('id', '<>', refund.id)
    .executeTakeFirstOrThrow();
  const merchantLeft = merchantShareLeft(
    { charged: recordedChargedAmount(payment), fee: Number(payment.fee) },
    {
      total: shares.reduce((sum, s) => sum + Number(s.amount), 0),
      refunded: shares.reduce((sum, s) => sum + Number(s.refunded), 0),
    },
    Number(earlier.total),
  );
  const allocation = allocateSplitRefund(
    refund.amount,
    merchantLeft,
    shares.map((s) => ({
      id: s.id,
      amount: Number(s.amount),
      refunded: Number(s.refunded),
      settled: s.settled_in !== null,
    })),
  );
  const taken = Object.entries(allocation.shares);
  for (const [splitId, amount] of taken) {
    await trx
      .insertInto('refund_split_allocations')
      .values({ refund_id: refund.id, split_id: splitId, amount })
      .execute();
    await trx
      .updateTable('payment_splits')
      .set({ refunded: sql`refunded + ${amount}` })
      .where('id', '=', splitId)
      .execute();
  }
  return taken.reduce((sum, [, amount]) => sum + amount, 0);
}

/**
 * A refused refund gives back what it took from shares not paid out yet; the part of a share a
 * settlement has since paid out (reduced by the refund) goes back to the merchant's balance instead.
 * Answers the rials given back to the shares; written once with the refund's `failed` posting.
 */
export async function returnRefundToShares(trx: Db, refundId: string): Promise<number> {
  const allocations = await trx
    .selectFrom('refund_split_allocations as a')
    .innerJoin('payment_splits as s', 's.id', 'a.split_id')
    .select(['a.split_id', 'a.amount', 's.settled_in'])
    .where('a.refund_id', '=', refundId)
    .forUpdate()
    .execute();
  if (allocations.length === 0) return 0;
  const posted = await trx
    .selectFrom('ledger_postings')
    .select('id')
    .where('cause', '=', `refund:${refundId}:failed`)
    .executeTakeFirst();
  const open = allocations.filter((a) => a.settled_in === null);
  if (posted === undefined) {
    for (const a of open)
      await trx
        .updateTable('payment_splits')
        .set({ refunded: sql`refunded - ${Number(a.amount)}` })
        .where('id', '=', a.split_id)
        .execute();
  }
  return open.reduce((sum, a) => sum + Number(a.amount), 0);
}
