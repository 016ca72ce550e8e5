/**
 * Paid returns that came for payments already ended (table late_bank_returns,
 * docs/BANK.md#a-paid-return-for-an-ended-payment): the sale each named, confirmed at the PSP and
 * reversed there through the sale's claim, and the outcome. One row per payment and reference: a repeated
 * return (or a retried activity) writes nothing more.
 */
import type { Db } from './database.ts';
import type { LateReturnOutcome } from '../domain/late-return.ts';

export interface LateReturnRecord {
  payment_id: string;
  reference_id: string;
  mode: 'test' | 'live';
  psp: string;
  payment_status: string;
  outcome: LateReturnOutcome;
}

/** Records a late return's outcome once per payment and reference; answers whether this call wrote it. */
export async function recordLateReturn(db: Db, record: LateReturnRecord): Promise<boolean> {
  const result = await db
    .insertInto('late_bank_returns')
    .ignore()
    .values({ ...record, recorded_at: new Date() })
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** A payment's late returns, oldest first. */
export function lateReturnsOfPayment(db: Db, paymentId: string) {
  return db
    .selectFrom('late_bank_returns')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .orderBy('recorded_at')
    .execute();
}

/** Late returns whose money the PSP holds (it refused the reversal) recorded before `before`, oldest first. */
export function heldLateReturnsBefore(db: Db, before: Date, limit: number) {
  return db
    .selectFrom('late_bank_returns')
    .select(['payment_id', 'reference_id', 'recorded_at'])
    .where('outcome', '=', 'reversal_refused')
    .where('recorded_at', '<', before)
    .orderBy('recorded_at')
    .limit(limit)
    .execute();
}
