/**
 * A debit's steps at its provider (docs/SUBSCRIPTIONS.md#debits-are-payments), each a conditional
 * write, so the debit workflow's retried activities find what an earlier attempt recorded: the
 * provider's authority of the transaction is kept first-wins before the money is taken, and the
 * debit is marked `taken` (with the provider's reference) only from `reserved`, so a taken debit is
 * never released and a released one never taken.
 */
import type { Db } from './database.ts';
import type { MandateDebitRow } from './schema.ts';
import { keepFirstProviderAuthority } from './mandates.ts';

export function mandateDebitById(db: Db, id: string): Promise<MandateDebitRow | undefined> {
  return db.selectFrom('mandate_debits').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The debit whose payment this is; undefined for a payment that is no debit. */
export function mandateDebitOfPayment(db: Db, paymentId: string): Promise<MandateDebitRow | undefined> {
  return db.selectFrom('mandate_debits').selectAll().where('payment_id', '=', paymentId).executeTakeFirst();
}

/** Keeps the provider's first authority of the debit's transaction and answers the one kept. */
export const recordDebitAuthority = (db: Db, id: string, authority: string): Promise<string> =>
  keepFirstProviderAuthority(db, 'mandate_debits', id, authority);

/** Marks a reserved debit taken by the provider, with its reference; false when it was not reserved. */
export async function markMandateDebitTaken(db: Db, id: string, reference: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('mandate_debits')
    .set({ status: 'taken', provider_reference: reference, taken_at: at })
    .where('id', '=', id)
    .where('status', '=', 'reserved')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
