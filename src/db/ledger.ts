/**
 * Posting to the double-entry ledger (docs/LEDGER.md). Called only inside the
 * transaction of the record change that causes the movement; a posting is
 * named by its cause, so a retried or replayed write finds it and posts
 * nothing twice. Rows are only ever inserted (the tables' triggers refuse
 * UPDATE and DELETE).
 */
import { movementLines, type Movement } from '../domain/ledger.ts';
import type { KeyMode } from '../domain/merchant.ts';
import type { Db } from './database.ts';
import { isDuplicateKey } from './errors.ts';

export interface Posting {
  /** Unique name of what caused it: `payment:<id>:capture`, `refund:<id>:failed`, `settlement:<id>:payout`. */
  cause: string;
  movement: Movement;
  merchantId: string;
  mode: KeyMode;
  amount: number;
  fee?: number;
  /** The beneficiaries' shares of a verified split payment. */
  splits?: number;
  paymentId?: string | null;
  refundId?: string | null;
  settlementId?: string | null;
  at: Date;
}

/** Posts a movement's balanced entries once per cause; answers whether this call posted them. */
export async function post(trx: Db, posting: Posting): Promise<boolean> {
  const lines = movementLines(posting.movement, posting.amount, posting.fee, posting.splits);
  let inserted;
  try {
    inserted = await trx
      .insertInto('ledger_postings')
      .values({
        cause: posting.cause,
        movement: posting.movement,
        merchant_id: posting.merchantId,
        mode: posting.mode,
        payment_id: posting.paymentId ?? null,
        refund_id: posting.refundId ?? null,
        settlement_id: posting.settlementId ?? null,
        created_at: posting.at,
      })
      .executeTakeFirstOrThrow();
  } catch (error) {
    // Posted before (the unique cause). InnoDB undoes only this statement; the transaction goes on.
    if (isDuplicateKey(error)) return false;
    throw error;
  }
  const postingId = Number(inserted.insertId);
  if (lines.length > 0) {
    await trx
      .insertInto('ledger_entries')
      .values(
        lines.map((l) => ({
          posting_id: postingId,
          merchant_id: posting.merchantId,
          mode: posting.mode,
          account: l.account,
          amount: l.amount,
          created_at: posting.at,
        })),
      )
      .execute();
  }
  return true;
}

/** A merchant's account balances in one mode, from its entries. */
export async function accountBalances(db: Db, merchantId: string, mode: KeyMode): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['account', (eb) => eb.fn.sum<string>('amount').as('total')])
    .where('merchant_id', '=', merchantId)
    .where('mode', '=', mode)
    .groupBy('account')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.account, Number(r.total)]));
}

/** Whether the posting named `cause` was made. */
export async function hasPosting(db: Db, cause: string): Promise<boolean> {
  const row = await db.selectFrom('ledger_postings').select('id').where('cause', '=', cause).executeTakeFirst();
  return row !== undefined;
}
