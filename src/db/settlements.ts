/**
 * Settlement records (docs/LEDGER.md#settlement): what a merchant's next
 * settlement covers, making one (its lines, its payments `settled`, the
 * payout posting, in one transaction), and reading settlements and their lines; the payouts and
 * the bank's answers are src/db/settlement-payouts.ts.
 */
import { sql } from 'kysely';
import { reconciledForSettlement } from './bank-reconciliation.ts';
import type { Tenant } from '../domain/merchant.ts';
import { VERIFIED_STATUSES } from '../domain/payment.ts';
import { shareOwed } from '../domain/splits.ts';
import type { ListSettlementsQuery, Settlement, SettlementLine } from '../domain/settlement-schemas.ts';
import type { Db, SettlementLineRow, SettlementRow } from './database.ts';
import { post } from './ledger.ts';
import { scopedTo } from './tenant.ts';
import { instant } from './filters.ts';
import { keyedPage } from './pagination.ts';
import { CHARGED_AMOUNT_SQL } from './payments.ts';
import { isCarried, settlementDraft, type SettlementDraft } from '../domain/settlement-totals.ts';

export function settlementFromRow(row: SettlementRow): Settlement {
  return {
    id: row.id,
    status: row.status,
    gross: Number(row.gross),
    fees: Number(row.fees),
    refunds: Number(row.refunds),
    splits: Number(row.splits),
    net: Number(row.net),
    payment_count: row.payment_count,
    refund_count: row.refund_count,
    iban: row.iban,
    cutoff_at: row.cutoff_at.toISOString(),
    created_at: row.created_at.toISOString(),
    paid_at: row.paid_at === null ? null : row.paid_at.toISOString(),
    failure: row.failure_code === null ? null : { code: row.failure_code, message: row.failure_message ?? '' },
  };
}

export function settlementLineFromRow(row: SettlementLineRow): SettlementLine {
  const amount = Number(row.amount);
  const fee = Number(row.fee);
  return {
    kind: row.kind,
    object_id: row.object_id,
    payment_id: row.payment_id,
    amount,
    fee,
    net: amount - fee,
    iban: row.iban,
  };
}

/**
 * The live items of a merchant not yet covered by a settlement: payments verified at or before the
 * cutoff that bank reconciliation lets through (reconciledForSettlement: a payment of a PSP in
 * `reportedPsps`, whose day was not reconciled yet or whose newest run holds it as a difference,
 * waits; a PSP without a documented report holds nothing), refunds of payments settled (or settled by
 * this draft), and refused refunds already deducted.
 */
export async function draftSettlement(
  db: Db,
  merchantId: string,
  cutoff: Date,
  reportedPsps: readonly string[],
): Promise<SettlementDraft> {
  const payments = await settleablePayments(db, merchantId, cutoff, reportedPsps);
  const refunds = await deductibleRefunds(db, merchantId);
  const shares = await owedShares(
    db,
    payments.map((p) => p.id),
  );
  return settlementDraft(
    payments.map((p) => ({ id: p.id, charged: Number(p.charged), fee: Number(p.fee) })),
    refunds.map((r) => ({
      id: r.id,
      payment_id: r.payment_id,
      amount: Number(r.amount),
      status: r.status,
      payment_settled: r.settlement_status === 'settled',
    })),
    shares.map((s) => ({
      id: s.id,
      payment_id: s.payment_id,
      beneficiary_id: s.beneficiary_id,
      iban: s.iban,
      owed: shareOwed({ amount: Number(s.amount), refunded: Number(s.refunded) }),
    })),
  );
}

/** The merchant's live payments a settlement at `cutoff` covers (draftSettlement says which). */
function settleablePayments(db: Db, merchantId: string, cutoff: Date, reportedPsps: readonly string[]) {
  return (
    db
      .selectFrom('payments')
      // What the customer paid (amount + the fee of a customer-pays payment) less the fee: the merchant's.
      .select(['id', CHARGED_AMOUNT_SQL.as('charged'), 'fee'])
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', 'live')
      .where('settlement_status', '=', 'pending')
      .where('status', 'in', VERIFIED_STATUSES)
      .where('verified_at', '<=', cutoff)
      .where(reconciledForSettlement(reportedPsps))
      // A payment whose shares a refund the bank has not decided yet took rials from waits for its answer: paid out
      // now, a share would keep the cut of a refund the bank may refuse, and only the merchant could get it back
      // (docs/LEDGER.md#refunds-of-a-split-payment). Its refunds wait with it (below: a refund of a payment not covered).
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('refund_split_allocations as a')
              .innerJoin('payment_splits as s', 's.id', 'a.split_id')
              .innerJoin('refunds as r', 'r.id', 'a.refund_id')
              .select('a.refund_id')
              .whereRef('s.payment_id', '=', 'payments.id')
              .where('r.status', 'in', ['awaiting_payer', 'pending'])
              .where('a.amount', '>', 0),
          ),
        ),
      )
      .orderBy('id')
      .execute()
  );
}

/** The merchant's live refunds not yet deducted, and refused ones deducted but not yet given back. */
function deductibleRefunds(db: Db, merchantId: string) {
  return db
    .selectFrom('refunds as r')
    .innerJoin('payments as p', 'p.id', 'r.payment_id')
    .select(['r.id', 'r.payment_id', 'r.amount', 'r.status', 'p.settlement_status'])
    .where('r.merchant_id', '=', merchantId)
    .where('r.mode', '=', 'live')
    .where((eb) => {
      const line = (kind: 'refund' | 'refund_return') =>
        eb.exists(
          eb
            .selectFrom('settlement_lines')
            .select('object_id')
            .where('kind', '=', kind)
            .whereRef('object_id', '=', 'r.id'),
        );
      return eb.or([
        // A refund not yet deducted (a refused one that was never deducted owes nothing).
        // (One waiting for its payer has left the balance too; one waiting for the operator has not.)
        eb.and([eb('r.status', 'in', ['awaiting_payer', 'pending', 'succeeded']), eb.not(line('refund'))]),
        // A refused refund that a settlement deducted: given back once.
        eb.and([eb('r.status', '=', 'failed'), line('refund'), eb.not(line('refund_return'))]),
      ]);
    })
    .orderBy('r.id')
    .execute();
}

/** The beneficiaries' shares of the payments `covered`, less what refunds took back from them, locked for this settlement. */
async function owedShares(db: Db, covered: readonly string[]) {
  if (covered.length === 0) return [];
  return (
    db
      .selectFrom('payment_splits as s')
      .innerJoin('beneficiaries as b', 'b.id', 's.beneficiary_id')
      .select(['s.id', 's.payment_id', 's.beneficiary_id', 'b.iban', 's.amount', 's.refunded'])
      .where('s.payment_id', 'in', [...covered])
      .where('s.settled_in', 'is', null)
      .orderBy('s.id')
      // A locking read: a refund taking from a share at this moment is seen, or waits for this settlement.
      .forUpdate()
      .execute()
  );
}

export type MadeSettlement = { made: SettlementRow } | { carried: number } | { skipped: 'no_iban' };

/**
 * Makes the merchant's settlement `id` (once: a retried call finds it), in one transaction with
 * its lines, its payments marked `settled` and the payout posting. Nothing is written when the net
 * is not positive (carried to the next run) or the merchant has no IBAN.
 */
export async function makeSettlement(
  db: Db,
  input: { id: string; merchantId: string; cutoff: Date; at: Date; reportedPsps: readonly string[] },
): Promise<MadeSettlement> {
  return db.transaction().execute(async (trx) => {
    // One settlement of a merchant at a time, whoever starts it.
    const merchant = await trx
      .selectFrom('merchants')
      .select(['id', 'settlement_iban'])
      .where('id', '=', input.merchantId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const existing = await trx.selectFrom('settlements').selectAll().where('id', '=', input.id).executeTakeFirst();
    if (existing !== undefined) return { made: existing };
    if (merchant.settlement_iban === null) return { skipped: 'no_iban' as const };
    const draft = await draftSettlement(trx, input.merchantId, input.cutoff, input.reportedPsps);
    if (isCarried(draft)) return { carried: draft.net };
    const row: SettlementRow = {
      id: input.id,
      merchant_id: input.merchantId,
      mode: 'live',
      status: 'pending',
      gross: draft.gross,
      fees: draft.fees,
      refunds: draft.refunds,
      splits: draft.splits,
      net: draft.net,
      payment_count: draft.payment_count,
      refund_count: draft.refund_count,
      cutoff_at: input.cutoff,
      iban: merchant.settlement_iban,
      payout_attempt: 1,
      bank_reference: null,
      failure_code: null,
      failure_message: null,
      created_at: input.at,
      paid_at: null,
      failed_at: null,
      updated_at: input.at,
    };
    await trx.insertInto('settlements').values(row).execute();
    for (let i = 0; i < draft.lines.length; i += 1_000) {
      await trx
        .insertInto('settlement_lines')
        .values(draft.lines.slice(i, i + 1_000).map((l) => ({ ...l, settlement_id: input.id, created_at: input.at })))
        .execute();
    }
    const paymentIds = draft.lines.filter((l) => l.kind === 'payment').map((l) => l.object_id);
    for (let i = 0; i < paymentIds.length; i += 1_000) {
      await trx
        .updateTable('payments')
        .set({ settlement_status: 'settled' })
        .where('id', 'in', paymentIds.slice(i, i + 1_000))
        .where('settlement_status', '=', 'pending')
        .execute();
    }
    await post(trx, {
      cause: `settlement:${input.id}:payout`,
      movement: 'payout',
      merchantId: input.merchantId,
      mode: 'live',
      amount: draft.net,
      settlementId: input.id,
      at: input.at,
    });
    const shareIds = draft.lines.filter((l) => l.kind === 'split').map((l) => l.object_id);
    for (let i = 0; i < shareIds.length; i += 1_000) {
      await trx
        .updateTable('payment_splits')
        .set({ settled_in: input.id })
        .where('id', 'in', shareIds.slice(i, i + 1_000))
        .where('settled_in', 'is', null)
        .execute();
    }
    for (const [beneficiaryId, payout] of draft.beneficiaries) {
      await trx
        .insertInto('beneficiary_payouts')
        .values({
          settlement_id: input.id,
          beneficiary_id: beneficiaryId,
          merchant_id: input.merchantId,
          mode: 'live',
          iban: payout.iban,
          amount: payout.amount,
          status: 'pending',
          bank_reference: null,
          failure_code: null,
          failure_message: null,
          created_at: input.at,
          updated_at: input.at,
        })
        .execute();
      await post(trx, {
        cause: `beneficiary:${beneficiaryId}:${input.id}:payout`, // ledger_postings.cause holds 100 characters
        movement: 'beneficiary_payout',
        merchantId: input.merchantId,
        mode: 'live',
        amount: payout.amount,
        settlementId: input.id,
        at: input.at,
      });
    }
    return { made: row };
  });
}

/** Merchants with live payments a settlement at `cutoff` may cover, or refused refunds to give back. */
export async function settleableMerchants(db: Db, cutoff: Date, reportedPsps: readonly string[]): Promise<string[]> {
  const rows = await sql<{ merchant_id: string }>`
    SELECT DISTINCT merchant_id FROM payments
      WHERE mode = 'live' AND settlement_status = 'pending' AND status IN (${sql.join([...VERIFIED_STATUSES])}) AND verified_at <= ${cutoff}
        AND ${reconciledForSettlement(reportedPsps)}
    UNION
    SELECT DISTINCT r.merchant_id FROM refunds r JOIN settlement_lines l ON l.kind = 'refund' AND l.object_id = r.id
      WHERE r.mode = 'live' AND r.status = 'failed'
        AND NOT EXISTS (SELECT 1 FROM settlement_lines x WHERE x.kind = 'refund_return' AND x.object_id = r.id)
    ORDER BY merchant_id`.execute(db);
  return rows.rows.map((r) => r.merchant_id);
}

/** The tenant's settlement with this id, if it has one. */
export async function findSettlement(db: Db, id: string, tenant: Tenant): Promise<SettlementRow | undefined> {
  return db.selectFrom('settlements').selectAll().where('id', '=', id).where(scopedTo(tenant)).executeTakeFirst();
}

/** Sets the IBAN the merchant's settlements are paid to; false when there is no such merchant (nothing written). */
export async function setMerchantSettlementIban(db: Db, merchantId: string, iban: string): Promise<boolean> {
  const merchant = await db.selectFrom('merchants').select('id').where('id', '=', merchantId).executeTakeFirst();
  if (merchant === undefined) return false;
  await db.updateTable('merchants').set({ settlement_iban: iban }).where('id', '=', merchantId).execute();
  return true;
}

/** A page of the tenant's settlements, newest first, with the filters of the query combined. */
export function settlementsPage(db: Db, tenant: Tenant, query: ListSettlementsQuery) {
  let q = db.selectFrom('settlements').selectAll().where(scopedTo(tenant));
  if (query.status !== undefined) q = q.where('status', '=', query.status);
  if (query.created_gte !== undefined) q = q.where('created_at', '>=', instant(query.created_gte, 'created_gte'));
  if (query.created_lt !== undefined) q = q.where('created_at', '<', instant(query.created_lt, 'created_lt'));
  return keyedPage(q, query, settlementFromRow);
}

/** Where a page of a settlement's lines starts: after this line, in their order (kind, then object id). */
export interface LineKey {
  kind: string;
  object_id: string;
}

/** A settlement's lines in their stable order (kind, then object id): all, or `limit` after `after` (keyset on the lines' key). */
export function settlementLines(db: Db, id: string, page: { limit?: number; after?: LineKey } = {}) {
  let q = db.selectFrom('settlement_lines').selectAll().where('settlement_id', '=', id);
  if (page.after !== undefined)
    q = q.where(sql<boolean>`(kind, object_id) > (${page.after.kind}, ${page.after.object_id})`);
  q = q.orderBy('kind').orderBy('object_id');
  return (page.limit === undefined ? q : q.limit(page.limit)).execute();
}
