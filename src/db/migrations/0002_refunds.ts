import { sql, type Kysely } from 'kysely';

// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('refunds')
    .addColumn('id', 'char(36)', (c) => c.primaryKey())
    .addColumn('payment_id', 'char(36)', (c) => c.notNull().references('payments.id'))
    .addColumn('merchant_id', 'char(36)', (c) => c.notNull().references('merchants.id'))
    .addColumn('mode', 'varchar(8)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(255)')
    .addColumn('failure_code', 'varchar(64)')
    .addColumn('failure_message', 'varchar(255)')
    .addColumn('created_at', sql`datetime(3)`, (c) => c.notNull())
    .addColumn('succeeded_at', sql`datetime(3)`)
    .addColumn('updated_at', sql`datetime(3)`, (c) => c.notNull())
    .addCheckConstraint('refunds_amount_positive', sql`amount > 0`)
    .execute();
  await db.schema.createIndex('refunds_by_payment').on('refunds').columns(['payment_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('refunds_by_merchant')
    .on('refunds')
    .columns(['merchant_id', 'mode', 'created_at'])
    .execute();

  // The workflow serialises refunds; the record guards the same rule on its own,
  // so no write can ever show more refunded than was paid.
  await sql`ALTER TABLE payments ADD CONSTRAINT payments_refunded_within_amount CHECK (refunded_amount >= 0 AND refunded_amount <= amount)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payments DROP CONSTRAINT payments_refunded_within_amount`.execute(db);
  await db.schema.dropTable('refunds').ifExists().execute();
}
