/**
 * A new payment's row: written once, read back by a retry under the same Idempotency-Key, and
 * taken back when its workflow could not be started.
 */
import type { Db, NewPaymentRow } from './database.ts';

/** The payment's row by id, whoever's it is; undefined when there is none. */
export async function paymentRowById(db: Db, paymentId: string) {
  return db.selectFrom('payments').selectAll().where('id', '=', paymentId).executeTakeFirst();
}

export async function insertPaymentRow(db: Db, row: NewPaymentRow): Promise<void> {
  await db.insertInto('payments').values(row).execute();
}

/**
 * Takes back a payment whose workflow was never started, with its shares, in one transaction:
 * only while it is at its first version (its row locked), so a payment something already moved on
 * stays.
 */
export async function deleteUnstartedPayment(db: Db, paymentId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('payments')
      .select('version')
      .where('id', '=', paymentId)
      .forUpdate()
      .executeTakeFirst();
    if (row?.version !== 1) return;
    // Its shares go with it (they refer to it, so first).
    await trx.deleteFrom('payment_splits').where('payment_id', '=', paymentId).execute();
    await trx.deleteFrom('payments').where('id', '=', paymentId).execute();
  });
}
