import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
// Who pays the fee (docs/PAYMENTS.md#who-pays-the-fee): `merchant` (every payment before this one) or
// `customer`, whose fee is fixed at create and charged on top of the amount. The customer is then
// charged amount + customer_fee, and may be refunded up to that much.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('payments')
    .addColumn('fee_payer', 'varchar(16)', (c) => c.notNull().defaultTo('merchant'))
    .execute();
  await db.schema
    .alterTable('payments')
    .addColumn('customer_fee', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // What is refunded is bounded by what the customer paid, the fee they paid included.
  await sql`ALTER TABLE payments DROP CONSTRAINT payments_refunded_within_amount`.execute(db);
  await sql`ALTER TABLE payments ADD CONSTRAINT payments_refunded_within_charged CHECK (refunded_amount >= 0 AND refunded_amount <= amount + customer_fee)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payments DROP CONSTRAINT payments_refunded_within_charged`.execute(db);
  await sql`ALTER TABLE payments ADD CONSTRAINT payments_refunded_within_amount CHECK (refunded_amount >= 0 AND refunded_amount <= amount)`.execute(
    db,
  );
  await db.schema.alterTable('payments').dropColumn('customer_fee').execute();
  await db.schema.alterTable('payments').dropColumn('fee_payer').execute();
}
